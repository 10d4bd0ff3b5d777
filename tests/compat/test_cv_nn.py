"""gluonzoo.cv.nn against GluonCV 0.10.5's gluoncv.nn (tests/peers/gluoncv_nn.py, run once for the file): every
box block, matcher, sampler, coder and small layer gives GluonCV's output on the same inputs."""
import mxnet as mx
import numpy as np
import pytest

import gluonzoo.cv as gcv
from tests.peers import run_peer

gnn = gcv.nn
QUOTA_SEED = 5  # tests/peers/gluoncv_nn.py's


def _inputs(rng):
    def corners(shape, span=30):
        xy = rng.uniform(0, span, shape + (2,))
        return np.concatenate([xy, xy + rng.uniform(2, 12, shape + (2,))], -1).astype(np.float32)
    ious = rng.random((2, 8, 3)).astype(np.float32)
    ious[0, 2] = ious[0, 2].max() + 0.01  # an anchor best for two truths
    ious[1, :, 2] = 0.05  # a truth nothing overlaps much
    probs = rng.random((2, 8, 4)).astype(np.float32)
    probs /= probs.sum(-1, keepdims=True)
    anchors = corners((1, 8))
    return {'ious': ious, 'anchors': anchors, 'center_anchors': np.concatenate(
                [(anchors[..., :2] + anchors[..., 2:]) / 2, anchors[..., 2:] - anchors[..., :2]], -1),
            'refs': corners((2, 3)), 'labels': rng.integers(0, 3, (2, 3)).astype(np.float32),
            'boxes': corners((2, 5)), 'image': rng.random((2, 16, 20, 24)).astype(np.float32),
            'logits': rng.normal(0, 2, (2, 8, 4)).astype(np.float32),
            'offsets': rng.normal(0, 0.5, (2, 8, 4)).astype(np.float32), 'probs': probs,
            'ternary': rng.choice([-1.0, 0.0, 1.0], (2, 8)).astype(np.float32),
            'gn_gamma': rng.normal(1, 0.2, 8).astype(np.float32), 'gn_beta': rng.normal(0, 0.2, 8).astype(np.float32)}


@pytest.fixture(scope='module')
def case(tmp_path_factory):
    out = tmp_path_factory.mktemp('cv_nn')
    d = _inputs(np.random.default_rng(11))
    np.savez(out / 'inputs.npz', **d)
    run_peer('gluoncv_nn.py', out, [{'inputs': str(out / 'inputs.npz'), 'out': str(out / 'ref')}], timeout=300)
    ref = dict(np.load(out / 'ref.npz'))
    ref['_prefix'] = str(out / 'ref')
    return {k: mx.nd.array(v) for k, v in d.items()}, ref


def _same(ref, name, got, exact=False, atol=1e-6):
    if isinstance(got, (tuple, list)):
        for i, g in enumerate(got):
            _same(ref, f'{name}_{i}', g, exact, atol)
        return
    got = got.asnumpy() if hasattr(got, 'asnumpy') else np.asarray(got)
    want = ref[name]
    assert got.shape == want.shape, (name, got.shape, want.shape)
    if exact:
        np.testing.assert_array_equal(got, want, err_msg=name)
    else:
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=atol, err_msg=name)


def test_box_blocks_match_gluoncv(case):
    d, ref = case
    refs = d['refs']
    _same(ref, 'corner_to_center', gnn.bbox.BBoxCornerToCenter()(refs))
    _same(ref, 'corner_to_center_split', gnn.BBoxCornerToCenter(split=True)(refs))
    _same(ref, 'center_to_corner', gnn.bbox.BBoxCenterToCorner()(refs))
    _same(ref, 'numpy_corner_to_center', gnn.bbox.NumPyBBoxCornerToCenter()(refs.asnumpy()))
    _same(ref, 'split', gnn.bbox.BBoxSplit(axis=-1, squeeze_axis=True)(refs))
    _same(ref, 'area', gnn.bbox.BBoxArea()(d['boxes']))
    _same(ref, 'area_center', gnn.bbox.BBoxArea(fmt='center')(refs))
    _same(ref, 'batch_iou', gnn.bbox.BBoxBatchIOU()(d['boxes'], refs))
    _same(ref, 'batch_iou_offset', gnn.bbox.BBoxBatchIOU(offset=1)(d['boxes'], refs))
    # GluonCV's fmt='center' does not run (its split keeps the axis): ours is the corner IoU of the converted boxes
    to_center = gnn.BBoxCornerToCenter()
    _same(ref, 'batch_iou', gnn.BBoxBatchIOU(fmt='center')(to_center(d['boxes']), to_center(refs)))
    _same(ref, 'clip', gnn.bbox.BBoxClipToImage()(d['boxes'] * 3 - 20, d['image']))
    with pytest.raises(ValueError, match="'corner' or 'center'"):
        gnn.bbox.BBoxArea(fmt='xywh')


def test_matchers_and_samplers_match_gluoncv(case):
    d, ref = case
    ious = d['ious']
    _same(ref, 'bipartite', gnn.matcher.BipartiteMatcher()(ious), exact=True)
    _same(ref, 'bipartite_noshare', gnn.BipartiteMatcher(share_max=False)(ious), exact=True)
    _same(ref, 'maximum', gnn.matcher.MaximumMatcher(0.3)(ious), exact=True)
    composite = gnn.matcher.CompositeMatcher([gnn.BipartiteMatcher(), gnn.MaximumMatcher(0.3)])
    composite.hybridize()
    matches = composite(ious)
    _same(ref, 'composite', matches, exact=True)
    _same(ref, 'naive', gnn.sampler.NaiveSampler()(matches), exact=True)
    _same(ref, 'ohem', gnn.sampler.OHEMSampler(2, min_samples=1)(matches, d['logits'], ious), exact=True)
    np.random.seed(QUOTA_SEED)
    _same(ref, 'quota', gnn.sampler.QuotaSampler(6, 0.5, 0.3, 0.0, pos_ratio=0.25)(matches, ious), exact=True)
    np.random.seed(QUOTA_SEED)  # the registered custom operator ('quota_sampler'): positives win over negatives
    assert gnn.sampler.QuotaSamplerProp and gnn.sampler.QuotaSamplerOp
    _same(ref, 'quota_op', mx.nd.Custom(matches, ious, op_type='quota_sampler', num_sample=6, pos_thresh=0.5,
                                        neg_thresh_high=0.3, pos_ratio=0.25), exact=True)
    with pytest.raises(ValueError, match='ratio'):
        gnn.OHEMSampler(0)
    with pytest.raises(ValueError, match='exceeds 1'):
        gnn.QuotaSampler(6, 0.5, 0.3, pos_ratio=0.8, neg_ratio=0.5)
    with pytest.raises(TypeError, match='Gluon blocks'):
        gnn.CompositeMatcher([lambda x: x])


def test_coders_match_gluoncv(case):
    d, ref = case
    matches = mx.nd.array(ref['composite'])
    samples = mx.nd.array(ref['naive'])
    _same(ref, 'encode', gnn.coder.NormalizedBoxCenterEncoder()(samples, matches, d['anchors'], d['refs']))
    enc = gnn.NormalizedBoxCenterEncoder(stds=(1, 2, 3, 4), means=(0.1, 0.2, 0.3, 0.4))
    enc.hybridize()
    _same(ref, 'encode_means', enc(samples, matches, d['anchors'], d['refs']))
    _same(ref, 'numpy_encode', gnn.coder.NumPyNormalizedBoxCenterEncoder()(
        samples.asnumpy()[:1], matches.asnumpy()[:1].astype(int), d['anchors'].asnumpy(), d['refs'].asnumpy()[:1]))
    # a batch of two: each picture's targets are the single-picture ones (GluonCV's numpy encoder mixes them)
    batch = gnn.NumPyNormalizedBoxCenterEncoder()(samples.asnumpy(), matches.asnumpy().astype(int),
                                                  d['anchors'].asnumpy(), d['refs'].asnumpy())
    np.testing.assert_allclose(batch[0], ref['encode_0'], rtol=1e-5, atol=1e-6)
    _same(ref, 'decode', gnn.coder.NormalizedBoxCenterDecoder(convert_anchor=True)(d['offsets'], d['anchors']))
    _same(ref, 'decode_clip', gnn.NormalizedBoxCenterDecoder(clip=0.5, minimal_opset=True)(d['offsets'] * 5,
                                                                                           d['center_anchors']))
    _same(ref, 'class_encode', gnn.coder.MultiClassEncoder()(samples * d['ternary'], matches, d['labels']),
          exact=True)
    _same(ref, 'class_decode', gnn.coder.MultiClassDecoder(thresh=0.3)(d['probs']))
    _same(ref, 'per_class_decode', gnn.coder.MultiPerClassDecoder(4, thresh=0.2)(d['probs']))
    _same(ref, 'sigmoid_encode', gnn.coder.SigmoidClassEncoder()((samples * d['ternary']).asnumpy()))
    with pytest.raises(ValueError, match='4 values'):
        gnn.NormalizedBoxCenterEncoder(stds=(0.1, 0.2))


def test_layers_match_gluoncv(case):
    d, ref = case
    _same(ref, 'consensus', gnn.Consensus(4, 2)(d['probs'].reshape((-1, 4))))
    for name, block in (('relu6', gnn.ReLU6()), ('hard_sigmoid', gnn.HardSigmoid()), ('hard_swish', gnn.HardSwish()),
                        ('identity', gnn.block.Identity())):
        _same(ref, name, block(d['offsets'] * (1 if name == 'identity' else 10)))
    gn = gnn.GroupNorm(4, 8)
    gn.initialize()
    gn.gamma.set_data(d['gn_gamma'])
    gn.beta.set_data(d['gn_beta'])
    _same(ref, 'groupnorm', gn(d['image'][:, :8]), atol=1e-5)  # values ~1: float32 rounding of the statistics
    pred = gnn.predictor.ConvPredictor(6)
    pred.initialize()
    assert pred(d['image']).shape == (2, 6, 20, 24) and 'predictor' in list(pred._children)
    fc = gnn.FCPredictor(5)
    fc.initialize()
    assert fc(d['image']).shape == (2, 5)


def test_per_class_encoder_center_net_decoder_and_dropblock_match_gluoncv(case):
    d, ref = case
    matches, samples = mx.nd.array(ref['composite']), mx.nd.array(ref['naive'])
    enc = gnn.coder.NormalizedPerClassBoxCenterEncoder(3, max_pos=5, per_device_batch_size=2)
    _same(ref, 'per_class_encode', enc(samples, matches, mx.nd.broadcast_to(d['anchors'], (2, 8, 4)), d['labels'], d['refs']))
    heat = d['image'][:, :3]
    dec = gnn.coder.CenterNetDecoder(topk=6, scale=4.0)
    _same(ref, 'center_net', dec(heat, d['image'][:, 3:5], d['image'][:, 5:7]))
    x = d['image'][:, :4]
    block = gnn.dropblock.DropBlock(0.3, 3, 4, 20, 24)
    _same(ref, 'dropblock_eval', block(x), exact=True)  # identity at inference
    mx.random.seed(3)
    with mx.autograd.train_mode():
        _same(ref, 'dropblock_train', block(x))  # the same draws: the same blocks dropped
    net = mx.gluon.nn.HybridSequential()
    net.add(block, mx.gluon.nn.Activation('relu'))
    sched = gnn.dropblock.DropBlockScheduler(net, 0.0, 0.2, 4)
    sched(1)
    assert block.drop_prob == pytest.approx(0.1)
    with pytest.raises(ValueError, match='outside'):
        sched(30)  # past num_epochs: 0.2 * 31 / 4 > 1


def test_feature_blocks_match_gluoncv(case):
    d, ref = case
    net = mx.gluon.nn.HybridSequential(prefix='net_')  # tests/peers/gluoncv_nn.py's small_net
    with net.name_scope():
        net.add(mx.gluon.nn.Conv2D(8, 3, in_channels=3), mx.gluon.nn.Activation('relu'),
                mx.gluon.nn.Conv2D(12, 3, strides=2, in_channels=8))
    net.load_parameters(ref['_prefix'] + '_net.params')
    pic = d['image'][:, :3]
    _same(ref, 'feat_extract', gnn.feature.FeatureExtractor(net, ['conv0_fwd', 'conv1_fwd'])(pic))
    expander = gnn.feature.FeatureExpander(net, ['conv1_fwd'], [16, 8], min_depth=4, global_pool=True)
    expander.collect_params().load(ref['_prefix'] + '_expander.params')
    _same(ref, 'feat_expand', expander(pic), atol=1e-5)
    with pytest.raises(ValueError, match='not an output'):
        gnn.FeatureExtractor(net, ['conv9_fwd'])
    with pytest.raises(TypeError, match='HybridBlock or a Symbol'):
        gnn.FeatureExtractor(3, ['conv0_fwd'])
