"""(peers venv) GluonCV 0.10.5's `gluoncv.nn` blocks on the inputs of tests/compat/test_cv_nn.py: one job {inputs,
out}; INPUTS is an .npz the test wrote, every block's output goes to OUT.npz under the block's name (tuples as
name_0, name_1, ...). QuotaSampler runs after np.random.seed(QUOTA_SEED)."""
import json
import sys

import mxnet as mx
import numpy as np
from gluoncv import nn as gnn

QUOTA_SEED = 5


def main(job):
    d = {k: mx.nd.array(v) for k, v in np.load(job['inputs']).items()}
    out = {}

    def put(name, value):
        if isinstance(value, (tuple, list)):
            for i, v in enumerate(value):
                put(f'{name}_{i}', v)
        else:
            out[name] = value.asnumpy() if hasattr(value, 'asnumpy') else np.asarray(value)

    ious, anchors, refs, labels = d['ious'], d['anchors'], d['refs'], d['labels']
    put('corner_to_center', gnn.bbox.BBoxCornerToCenter()(refs))
    put('corner_to_center_split', gnn.bbox.BBoxCornerToCenter(split=True)(refs))
    put('center_to_corner', gnn.bbox.BBoxCenterToCorner()(refs))
    put('numpy_corner_to_center', gnn.bbox.NumPyBBoxCornerToCenter()(refs.asnumpy()))
    put('split', gnn.bbox.BBoxSplit(axis=-1, squeeze_axis=True)(refs))
    put('area', gnn.bbox.BBoxArea()(d['boxes']))
    put('area_center', gnn.bbox.BBoxArea(fmt='center')(refs))
    put('batch_iou', gnn.bbox.BBoxBatchIOU()(d['boxes'], refs))
    put('batch_iou_offset', gnn.bbox.BBoxBatchIOU(offset=1)(d['boxes'], refs))  # fmt='center' fails there
    put('clip', gnn.bbox.BBoxClipToImage()(d['boxes'] * 3 - 20, d['image']))
    bip = gnn.matcher.BipartiteMatcher()(ious)
    put('bipartite', bip)
    put('bipartite_noshare', gnn.matcher.BipartiteMatcher(share_max=False)(ious))
    put('maximum', gnn.matcher.MaximumMatcher(0.3)(ious))
    matches = gnn.matcher.CompositeMatcher([gnn.matcher.BipartiteMatcher(), gnn.matcher.MaximumMatcher(0.3)])(ious)
    put('composite', matches)
    samples = gnn.sampler.NaiveSampler()(matches)
    put('naive', samples)
    put('ohem', gnn.sampler.OHEMSampler(2, min_samples=1)(matches, d['logits'], ious))
    np.random.seed(QUOTA_SEED)
    put('quota', gnn.sampler.QuotaSampler(6, 0.5, 0.3, 0.0, pos_ratio=0.25)(matches, ious))
    np.random.seed(QUOTA_SEED)
    put('quota_op', mx.nd.Custom(matches, ious, op_type='quota_sampler', num_sample=6, pos_thresh=0.5,
                                 neg_thresh_high=0.3, pos_ratio=0.25))
    put('encode', gnn.coder.NormalizedBoxCenterEncoder()(samples, matches, anchors, refs))
    put('encode_means', gnn.coder.NormalizedBoxCenterEncoder(stds=(1, 2, 3, 4), means=(0.1, 0.2, 0.3, 0.4))(
        samples, matches, anchors, refs))
    # one picture: GluonCV's numpy encoder indexes a batch of more wrongly (its CPU target generators pass one)
    put('numpy_encode', gnn.coder.NumPyNormalizedBoxCenterEncoder()(
        samples.asnumpy()[:1], matches.asnumpy()[:1].astype(int), anchors.asnumpy(), refs.asnumpy()[:1]))
    put('decode', gnn.coder.NormalizedBoxCenterDecoder(convert_anchor=True)(d['offsets'], anchors))
    put('decode_clip', gnn.coder.NormalizedBoxCenterDecoder(clip=0.5, minimal_opset=True)(d['offsets'] * 5,
                                                                                          d['center_anchors']))
    put('class_encode', gnn.coder.MultiClassEncoder()(samples * d['ternary'], matches, labels))
    put('class_decode', gnn.coder.MultiClassDecoder(thresh=0.3)(d['probs']))
    put('per_class_decode', gnn.coder.MultiPerClassDecoder(4, thresh=0.2)(d['probs']))
    put('sigmoid_encode', gnn.coder.SigmoidClassEncoder()((samples * d['ternary']).asnumpy()))
    put('consensus', gnn.Consensus(4, 2)(d['probs'].reshape((-1, 4))))
    put('relu6', gnn.ReLU6()(d['offsets'] * 10))
    put('hard_sigmoid', gnn.HardSigmoid()(d['offsets'] * 10))
    put('hard_swish', gnn.HardSwish()(d['offsets'] * 10))
    put('identity', gnn.Identity()(d['offsets']))
    gn = gnn.GroupNorm(4, 8)
    gn.initialize()
    gn.gamma.set_data(d['gn_gamma'])
    gn.beta.set_data(d['gn_beta'])
    put('groupnorm', gn(d['image'][:, :8]))
    per_class = gnn.coder.NormalizedPerClassBoxCenterEncoder(3, max_pos=5, per_device_batch_size=2)
    per_class.initialize()  # its means / stds constants (MXNet's contrib.box_encode path)
    put('per_class_encode', per_class(samples, matches, mx.nd.broadcast_to(anchors, (2, 8, 4)), labels, refs))
    heat = d['image'][:, :3]
    put('center_net', gnn.coder.CenterNetDecoder(topk=6, scale=4.0)(heat, d['image'][:, 3:5], d['image'][:, 5:7]))
    x = d['image'][:, :4]
    put('dropblock_eval', gnn.dropblock.DropBlock(0.3, 3, 4, 20, 24)(x))
    mx.random.seed(3)
    with mx.autograd.train_mode():
        put('dropblock_train', gnn.dropblock.DropBlock(0.3, 3, 4, 20, 24)(x))
    # feature blocks over a small net of plain Gluon layers (the test builds the same one and loads these files)
    net = small_net()
    net.initialize(mx.init.Xavier())
    net.save_parameters(job['out'] + '_net.params')
    pic = d['image'][:, :3]
    put('feat_extract', gnn.feature.FeatureExtractor(net, ['conv0_fwd', 'conv1_fwd'])(pic))
    expander = gnn.feature.FeatureExpander(net, ['conv1_fwd'], [16, 8], min_depth=4, global_pool=True)
    expander.initialize()
    put('feat_expand', expander(pic))
    expander.collect_params().save(job['out'] + '_expander.params')  # after the forward: shapes were deferred
    np.savez(job['out'] + '.npz', **out)


def small_net():  # tests/compat/test_cv_nn.py builds the same
    net = mx.gluon.nn.HybridSequential(prefix='net_')
    with net.name_scope():
        net.add(mx.gluon.nn.Conv2D(8, 3, in_channels=3), mx.gluon.nn.Activation('relu'),
                mx.gluon.nn.Conv2D(12, 3, strides=2, in_channels=8))
    return net


if __name__ == '__main__':
    for j in json.loads(sys.argv[2]):
        main(j)
