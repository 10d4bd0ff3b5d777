"""(peers venv) For each job {name, shape, kwargs, rpn_test_pre_nms, rpn_test_post_nms, rpn_size_bias, names_only}:
build GluonCV's Faster R-CNN with pretrained=False, pretrained_base=False, random weights and random BN statistics,
run a seeded input and save OUT/<name>.params and OUT/<name>.npz: the input, the feature maps, the RPN's proposals
and scores, the raw class and box predictions and the final (ids, scores, bboxes). A names_only job writes
OUT/<name>.json instead: {parameter name: shape} after one forward (what its file would hold), for archs too big to
save cheaply.

- GluonCV's predefined builders refuse rpn_test_* overrides (they pass them twice): fewer proposals are set on the
  built net's attributes, the ones its inference forward reads.
- The RPN and head outputs are rescaled to a set spread (objectness logits std 2, RPN offsets 0.2, class logits
  1.5, box offsets 0.3): with plain random weights the boxes collapse onto the image border and one class takes
  every score, which would test little. `rpn_size_bias` adds to the RPN's log-width/height offsets (larger
  proposals, pooled from several FPN levels).
- GluonCV's FPN pooling gives the RoIs of other levels batch index -1 and relies on RoIAlign zeroing them (its GPU
  kernel does). MXNet 1.9.1's CPU RoIAlign zeroes element n of the output instead of RoI n's block: skipped RoIs
  keep leftover memory and another RoI loses a value. The reference pools such RoIs from image 0 and zeroes them,
  which is what GluonCV means (and gets on a GPU).
"""
import json
import os
import sys

import mxnet as mx
import numpy as np
from gluoncv import model_zoo

_ROI_ALIGN = mx.nd.contrib.ROIAlign


def _roi_align(data, rois, *args, **kwargs):
    skipped = rois[:, 0] < 0
    rois = mx.nd.concat(mx.nd.where(skipped, mx.nd.zeros_like(skipped), rois[:, 0]).reshape((-1, 1)), rois[:, 1:],
                        dim=1)
    out = _ROI_ALIGN(data, rois, *args, **kwargs)
    return mx.nd.where(skipped, mx.nd.zeros_like(out), out)


mx.nd.contrib.ROIAlign = _roi_align


def randomize(net, rng):
    for name, p in net.collect_params().items():
        if name.endswith('anchor_'):
            continue
        if name.endswith(('running_mean', 'running_var', 'beta', 'gamma')):  # make BN mapping errors visible
            lo = 0.5 if name.endswith(('running_var', 'gamma')) else -0.5
            value = rng.uniform(lo, lo + 1.0, size=p.shape)
        elif name.endswith('bias'):
            value = rng.uniform(-0.1, 0.1, size=p.shape)
        else:
            value = rng.normal(0, np.sqrt(2.0 / np.prod(p.shape[1:])), size=p.shape)
        p.set_data(mx.nd.array(value.astype('float32')))


def spread(run, stds):
    """Scale the weight and bias of each block of `stds` {block: std} so that its outputs in `run()` have that
    standard deviation."""
    seen = {block: [] for block in stds}
    handles = [block.register_forward_hook(lambda b, inputs, output: seen[b].append(output.asnumpy().ravel()))
               for block in stds]
    run()
    for handle in handles:
        handle.detach()
    for block, std in stds.items():
        factor = std / np.concatenate(seen[block]).std()
        for p in block.params.values():
            p.set_data(p.data() * factor)


def prepare(net, job, out, rng):
    """Initialize a GluonCV R-CNN for `job` and make its random weights give a test something to compare: fewer
    proposals (the options GluonCV's bigger builders refuse, set on the blocks), random BN statistics, spread RPN and
    head outputs, larger proposals with `rpn_size_bias`. Returns the seeded input, or None for a `names_only` job
    (its parameter shapes written to OUT/<file or name>.json instead)."""
    name, shape = job['name'], tuple(job['shape'])
    if job.get('rpn_test_post_nms'):
        net.rpn._test_pre_nms = job['rpn_test_pre_nms']
        net.rpn._test_post_nms = net._rpn_test_post_nms = job['rpn_test_post_nms']
        if job.get('rcnn_max_dets'):  # Mask R-CNN's, clamped by the proposals as its constructor does
            net._rcnn_max_dets = min(job['rcnn_max_dets'], job['rpn_test_pre_nms'], job['rpn_test_post_nms'])
    net.initialize()
    x = mx.nd.array(rng.uniform(-1, 1, size=shape).astype('float32'))
    net(x)  # settle deferred shapes
    if job.get('names_only'):
        with open(os.path.join(out, f"{job.get('file', name)}.json"), 'w') as f:
            json.dump({k: p.shape for k, p in net._collect_params_with_prefix().items()}, f)
        print(name, flush=True)
        return None
    randomize(net, rng)
    head = getattr(net.rpn, 'rpn_head', net.rpn)
    features = net.features(x)
    features = features if isinstance(features, (list, tuple)) else [features]
    spread(lambda: net.rpn(x, *features), {head.score: 2.0, head.loc: 0.2})
    if job.get('rpn_size_bias'):  # larger proposals, so that FPN pools RoIs from several levels
        bias = head.loc.bias.data().asnumpy()
        bias.reshape((-1, 4))[:, 2:] += job['rpn_size_bias']
        head.loc.bias.set_data(mx.nd.array(bias))
    spread(lambda: net(x), {net.class_predictor: 1.5, net.box_predictor: 0.3})
    return x


def main(out, jobs):
    for job in jobs:
        name = job['name']
        mx.random.seed(0)
        rng = np.random.RandomState(0)
        net = model_zoo.get_model(name, pretrained=False, pretrained_base=False, **job.get('kwargs', {}))
        x = prepare(net, job, out, rng)
        if x is None:
            continue
        seen = {}
        for key in ('features', 'rpn', 'class_predictor', 'box_predictor'):
            getattr(net, key).register_forward_hook(lambda block, inputs, output, key=key: seen.setdefault(key, output))
        ids, scores, bboxes = net(x)
        features = seen['features'] if isinstance(seen['features'], (list, tuple)) else [seen['features']]
        net.save_parameters(os.path.join(out, f'{name}.params'))
        np.savez(os.path.join(out, f'{name}.npz'), x=x.asnumpy(), ids=ids.asnumpy(), scores=scores.asnumpy(),
                 bboxes=bboxes.asnumpy(), rpn_scores=seen['rpn'][0].asnumpy(), rpn_boxes=seen['rpn'][1].asnumpy(),
                 cls_pred=seen['class_predictor'].asnumpy(), box_pred=seen['box_predictor'].asnumpy(),
                 **{f'feature{i}': f.asnumpy() for i, f in enumerate(features)})
        print(name, flush=True)


if __name__ == '__main__':
    main(sys.argv[1], json.loads(sys.argv[2]))
