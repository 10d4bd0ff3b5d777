"""Semantic segmentation in the training engine (gluonzoo.train.protocol), as GluonCV 0.10.5's
scripts/segmentation/train.py trains FCN, PSPNet and DeepLabV3:

    data     train: GluonCV's _sync_transform (transforms.segmentation.segmentation_train: flip, a random long side
             in [base_size / 2, 2 base_size], pad, a random crop_size crop, a random blur), eval: its
             _val_sync_transform (short side to crop_size, center crop); ImageNet mean/std. `--augment none` trains
             on the eval transform. base_size and crop_size are the net's options (GluonCV's script hands the same
             values to the net and the data): --model-kwargs, else the checkpoint's record, else the builder's.
    loss     per-pixel softmax cross-entropy, pixels labelled -1 ignored, plus 0.2 x the same loss of the
             auxiliary head when the net has one (GluonCV's MixSoftmaxCrossEntropyLoss default; its script's
             --aux-weight flag defaults to 0.5). The gradient is GluonCV's: its loss is MXNet's SoftmaxOutput
             with normalization 'valid', whose backward is (softmax - one-hot) / the batch's labelled pixels,
             then the Trainer steps by the batch size. One difference: SoftmaxOutput ignores the weight it is
             multiplied by, so GluonCV's auxiliary head trains at weight 1 whatever --aux-weight says; here it
             trains at the 0.2 the loss names.
    heads    `head` and `auxlayer` at 10x the learning rate (lr_mult 10, which GluonCV's FCN and PSPNet set)
    eval     each epoch, pixAcc and mIoU (metrics.segmentation.SegmentationMetric) of the main scores at the
             crop size over the eval split.

Use `--lr-mode poly` (GluonCV's schedule, power 0.9), SGD, momentum 0.9, weight decay 1e-4 as its script does. The
augmentation of batch b draws from numpy's default_rng([seed, epoch, b, 1 + rank]), sample after sample, so a run
is reproducible byte for byte on one thread and resumes exactly.

The data: the generated scenes (`scenes`, `scenes_digits`: their SegmentationClass masks, class 0 the background)
and `voc:PATH` folders (VOCSegmentation) when the model is a semantic segmentation net (datasets.py picks this
task by the model's task).
"""
import inspect
import os

import numpy as np

from ...errors import BadInputError
from ...train.data import epoch_indices
from ..meta import IMAGENET_MEAN, IMAGENET_STD
from ..metrics.segmentation import SegmentationMetric
from ..transforms.segmentation import segmentation_eval, segmentation_train
from .classification import refuse_classification_options

TASK = 'semantic-segmentation'
AUX_WEIGHT = 0.2
HEAD_LR_MULT = 10


def is_segmenter(model):
    """Whether registered model `model` (an arch or `arch.tag`) is a semantic segmentation net."""
    from ...registry import get_entry
    return get_entry(model).task == TASK


def check_config(cfg):
    """Refuse, before any data is read, what segmentation training does not take."""
    refuse_classification_options(cfg, 'segmentation training')
    if cfg.data_shape is not None:
        raise BadInputError('--data-shape is for detection: a segmentation net takes GluonCV\'s crop_size and '
                            'base_size, --model-kwargs \'{"crop_size": 128, "base_size": 128}\'')
    if cfg.classes is not None:
        raise BadInputError('--classes: segmentation trains every class of its data (the masks name them)')
    if not is_segmenter(cfg.model):
        raise BadInputError(f'{cfg.model} is not a {TASK} model')


def input_sizes(cfg):
    """(crop_size, base_size) the net and the data use: --model-kwargs, else the record of the checkpoint that
    --pretrained starts from (its config), else the builder's defaults."""
    from ...registry import get_entry
    entry = get_entry(cfg.model)
    tag = cfg.model[len(entry.name) + 1:]
    records = [w for w in entry.weights.values() if (w.tag == tag if tag else w.default)] if cfg.pretrained else []
    defaults = {k: p.default for k, p in inspect.signature(entry.builder).parameters.items()}
    config = records[0].config if records else {}
    crop, base = (cfg.model_kwargs.get(k, config.get(k, defaults.get(k))) for k in ('crop_size', 'base_size'))
    if not (isinstance(crop, int) and isinstance(base, int) and crop > 0 and base > 0):
        raise BadInputError(f'{cfg.model}: crop_size and base_size must be positive integers, not {crop!r} and '
                            f'{base!r}')
    return crop, base


def segmentation_loss(outputs, label, aux_weight=AUX_WEIGHT):
    """(the loss to backpropagate, {'seg': main part, 'aux': auxiliary part}) of one batch (NDArrays): the mean
    softmax cross-entropy over the batch's labelled pixels (label >= 0) of the main scores, plus `aux_weight` x
    that of the auxiliary ones (outputs[1]) when there are any."""
    import mxnet as mx
    valid = label >= 0
    count = max(float(valid.sum().asscalar()), 1.0)
    target = mx.nd.maximum(label, 0)
    parts = {}
    for name, scores in zip(('seg', 'aux'), outputs):
        ce = -mx.nd.pick(mx.nd.log_softmax(scores, axis=1), target, axis=1)
        parts[name] = (ce * valid).sum() / count
    total = parts['seg'] + aux_weight * parts['aux'] if 'aux' in parts else parts['seg']
    return total, parts


# -- the task -----------------------------------------------------------------------------------------------------
class SemanticSegmentation:
    """A segmentation dataset pair (objects with `sample(i) -> (image, mask)` and `len`, as
    data.segmentation.VOCSegmentation) trained and evaluated as the module docstring says; `classes` the class
    names (class 0 first), `crop_size` / `base_size` GluonCV's."""

    def __init__(self, train, val, classes, info, crop_size, base_size, mean=IMAGENET_MEAN, std=IMAGENET_STD,
                 augment=True, eval_split='test', eval_batch_size=16):
        self.train, self.val, self.classes, self.info = train, val, tuple(classes), info
        self.crop_size, self.base_size, self.augment = int(crop_size), int(base_size), augment
        self.norm = {'mean': tuple(mean), 'std': tuple(std)}
        self.eval_split, self.eval_batch_size = eval_split, eval_batch_size

    def dataset_info(self):
        return dict(self.info, train_size=len(self.train), eval_size=len(self.val), eval_split=self.eval_split,
                    classes=list(self.classes), crop_size=self.crop_size, base_size=self.base_size,
                    mean=list(self.norm['mean']), std=list(self.norm['std']))

    def settle(self, net, ctx):
        """Check the net against the data, run it once, and give its heads GluonCV's 10x learning rate."""
        import mxnet as mx
        if net.nclass != len(self.classes):
            raise BadInputError(f'the net predicts {net.nclass} classes, the data has {len(self.classes)} '
                                f'({", ".join(self.classes[:5])}...)')
        size = (net._up_kwargs['height'], net._up_kwargs['width'])
        if size != (self.crop_size, self.crop_size):
            raise BadInputError(f'the net scores {size[0]}x{size[1]} maps, the data are {self.crop_size}-pixel '
                                'crops: build it with that crop_size')
        net(mx.nd.zeros((1, 3, self.crop_size, self.crop_size), ctx=ctx))
        for name in ('head', 'auxlayer'):
            if getattr(net, name, None) is not None:
                getattr(net, name).collect_params().setattr('lr_mult', HEAD_LR_MULT)

    def num_batches(self, batch_size, workers):
        return len(self.train) // (batch_size * workers)

    def _train_sample(self, i, rng):
        img, mask = self.train.sample(i)
        if self.augment:
            return segmentation_train(img, mask, rng, self.base_size, self.crop_size, **self.norm)
        return segmentation_eval(img, mask, self.crop_size, **self.norm)

    def batches(self, epoch, cfg, rank, workers):
        for b, idx in epoch_indices(len(self.train), epoch, cfg.batch_size, cfg.seed, rank, workers):
            rng = np.random.default_rng([cfg.seed, epoch, b, 1 + rank])
            xs, masks = zip(*[self._train_sample(i, rng) for i in idx])
            yield b, (np.stack(xs), np.stack(masks))

    def train_step(self, net, batch, cfg, epoch, ctx):
        import mxnet as mx
        from mxnet import autograd
        x, mask = batch
        label = mx.nd.array(mask, ctx=ctx)
        with autograd.record():
            outputs = net(mx.nd.array(x, ctx=ctx))
            loss, parts = segmentation_loss(outputs, label)
        loss.backward()
        n = len(x)
        stats = {k: float(v.asscalar()) * n for k, v in parts.items()}
        stats.update(loss=float(loss.asscalar()) * n, n=n)
        return stats

    def evaluate(self, net, ctx):
        """{'pixAcc', 'mIoU'} of the main scores over the eval split (GluonCV's SegmentationMetric)."""
        import mxnet as mx
        metric = SegmentationMetric(len(self.classes))
        for at in range(0, len(self.val), self.eval_batch_size):
            xs, masks = zip(*[segmentation_eval(*self.val.sample(i), self.crop_size, **self.norm)
                              for i in range(at, min(at + self.eval_batch_size, len(self.val)))])
            scores = net(mx.nd.array(np.stack(xs), ctx=ctx))[0]
            metric.update(np.stack(masks), scores)
        return metric.results()


# -- the data -----------------------------------------------------------------------------------------------------
def _cut(ds, n):
    """The first n samples of a segmentation dataset (all when n is 0)."""
    if n and n < len(ds):
        ds.ids, ds.items, ds.masks = ds.ids[:n], ds.items[:n], ds.masks[:n]
    return ds


def voc_data(path, cfg):
    """(train, eval, classes, info) of a VOC folder: VOCSegmentation's 'train' (the trainval list, GluonCV's
    rule) and test when the folder lists one (the generated scenes do), else val (which trainval holds, as in
    GluonCV's VOC setup). Classes: background, then path/classes.txt (one a line) when there is one, else
    VOC's 21."""
    from ..data.segmentation import VOCSegmentation
    from ..meta import VOC_SEGMENTATION
    from .detection.data import files_checksum
    where = f'VOC folder {path}'
    listed = os.path.join(path, 'classes.txt')
    if os.path.isfile(listed):
        with open(listed) as f:
            classes = ('background',) + tuple(line.strip() for line in f if line.strip())
    else:
        classes = VOC_SEGMENTATION
    train = VOCSegmentation(path, 'train', classes=classes)
    folder = os.path.join(train.folder, 'ImageSets')
    has_test = any(os.path.isfile(os.path.join(folder, sub, 'test.txt')) for sub in ('Segmentation', 'Main'))
    eval_split = 'test' if has_test else 'val'
    val = VOCSegmentation(path, eval_split, classes=classes)
    if not len(train) or not len(val):
        raise BadInputError(f'{where}: the {"trainval" if not len(train) else eval_split} list names no image')
    files = [p for ds in (train, val) for pair in zip(ds.items, ds.masks) for p in pair]
    files += [listed] if os.path.isfile(listed) else []
    info = {'train_split': 'trainval', 'eval_split': eval_split, 'checksum': files_checksum(files, path)}
    return _cut(train, cfg.train_limit), _cut(val, cfg.val_limit), classes, info


def segmentation_task(cfg, name, source, data):
    """The SemanticSegmentation task of `data`, (train, eval, classes, {train_split, eval_split, checksum})."""
    check_config(cfg)
    train, val, classes, split_info = data
    info = {'name': name, 'source': source, 'checksum': split_info['checksum'],
            'train_split': split_info['train_split']}
    crop, base = input_sizes(cfg)
    return SemanticSegmentation(train, val, classes, info, crop, base, augment=cfg.augment != 'none',
                                eval_split=split_info['eval_split'])


def build_segmenter(cfg, classes, ctx=None):
    """The net a segmentation recipe trains: the registered net for `classes`. With --pretrained 1 its default
    weights, `reset_class` to `classes` when they differ (the classes both have keep their rows). Otherwise a
    fresh net on its pretrained body (`pretrained_base`, unless model_kwargs turns it off), the rest (the heads,
    or everything without a pretrained body) initialized from the seed by `--init` (the engine's: Xavier,
    magnitude 2). Not Gluon's default uniform(0.07), which GluonCV's heads get: on fcn_mobilenetv2_1.0's narrow
    heads (24 and 8 channels) it left the digit classes at chance after 60 steps, where Xavier separated them."""
    import mxnet as mx
    from ...registry import get_model, initialize_unset
    from ...train.engine import _context
    ctx = ctx or _context(cfg)
    mx.random.seed(cfg.seed)
    np.random.seed(cfg.seed)
    classes = list(classes)
    if cfg.pretrained:
        net = get_model(cfg.model, pretrained=True, ctx=ctx, **cfg.model_kwargs)
        if list(net.classes or []) != classes:
            net.reset_class(classes, reuse_weights=[c for c in classes if c in (net.classes or [])])
        return net
    net = get_model(cfg.model, classes=classes, ctx=ctx, **cfg.model_kwargs)
    initialize_unset(net, ctx)  # the draws get_model made before issue 26: the recipes' logs stay reproducible
    init = {'xavier': mx.init.Xavier(rnd_type='gaussian', factor_type='in', magnitude=2),
            'uniform': mx.init.Uniform()}.get(cfg.init)  # the engine's (train.engine.build_net)
    if init is None:
        raise ValueError(f"init {cfg.init!r} is not 'xavier' or 'uniform'")
    if cfg.model_kwargs.get('pretrained_base', True) is False:
        net.initialize(init, ctx=ctx, force_reinit=True)
    else:
        for name in ('head', 'auxlayer'):
            if getattr(net, name, None) is not None:
                getattr(net, name).initialize(init, ctx=ctx, force_reinit=True)
    return net


__all__ = ['SemanticSegmentation', 'build_segmenter', 'check_config', 'input_sizes', 'is_segmenter',
           'segmentation_loss', 'segmentation_task', 'voc_data']
