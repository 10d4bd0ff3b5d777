"""Top-down pose estimation in the training engine (gluonzoo.train.protocol), as GluonCV 0.10.5's
scripts/pose/simple_pose/train_simple_pose.py trains SimplePose and MobilePose:

    data     one sample a person (data.keypoints.COCOKeyPoints). Train: GluonCV's SimplePoseDefaultTrainTransform
             (transforms.pose.simple_pose_train: the box's window, 1.25 x, at the crop's aspect ratio, randomly
             scaled (0.25), turned (30 degrees, 6 times in 10) and mirrored with the joint pairs swapped; Gaussian
             heatmaps, sigma 2, at a quarter of the crop). `--augment none` trains on the unscaled, unturned crop.
             The crop is `--data-shape H`: H x 3H/4 (GluonCV's 4:3, 256x192 by default); the nets are fully
             convolutional and have no input-size option, so the data decides it and settle() checks the heatmaps
             the net makes at that size.
    loss     GluonCV's L2Loss with the target weights as sample weights: per person 0.5 x the mean over joints and
             heatmap cells of w * (pred - target)^2 (w is 0 for an unlabelled joint or one the crop lost, else 1,
             so it is 0.5 * mean((pred * w - target * w)^2)); summed over the batch, the Trainer steps by the
             batch size (GluonCV's mean).
    eval     each epoch, the OKS AP of COCOeval (metrics.coco.KeypointAP: AP, AP50, AP75, APm, APl, AR) over the
             eval split with the people cut out by their ground-truth boxes (box score 1; no person detector and
             no flip test), heatmaps decoded by vision.pose.heatmap_to_coord with GluonCV's quarter-cell shift,
             and HeatmapAccuracy (GluonCV's training metric) against the eval crops' targets.

The augmentation of batch b draws from numpy's default_rng([seed, epoch, b, 1 + rank]), person after person, so a
run is reproducible byte for byte on one thread and resumes exactly.

The data: the generated figures (`figures`: vision.data.figures) and `coco_keypoints:PATH` folders
(datasets.py picks this task by the model's task).
"""
import os

import numpy as np

from ...errors import BadInputError
from ...train.data import epoch_indices
from ..meta import IMAGENET_MEAN, IMAGENET_STD
from ..metrics.pose import HeatmapAccuracy
from ..pose import heatmap_to_coord
from ..transforms.pose import box_to_center_scale, crop_box, pose_crop, simple_pose_train
from .classification import refuse_classification_options

TASK = 'pose-estimation'
STRIDE = 4  # the zoo's pose nets make heatmaps at a quarter of the crop


def is_pose_net(model):
    """Whether registered model `model` (an arch or `arch.tag`) is a pose estimation net."""
    from ...registry import get_entry
    return get_entry(model).task == TASK


def check_config(cfg):
    """Refuse, before any data is read, what pose training does not take."""
    refuse_classification_options(cfg, 'pose training')
    if cfg.classes is not None:
        raise BadInputError('--classes: pose training learns the joints its data labels (17 COCO keypoints)')
    if cfg.val_limit:
        raise BadInputError('--val-limit: the OKS AP is measured over every person of the eval split (a cut would '
                            'count the people left out as missed); make a smaller eval split instead')
    if cfg.pretrained:
        raise BadInputError('--pretrained 1: the zoo\'s pose weights are GluonCV\'s COCO ones; this recipe trains '
                            'a fresh head on the ImageNet body (pretrained_base)')
    if not is_pose_net(cfg.model):
        raise BadInputError(f'{cfg.model} is not a {TASK} model')
    input_size(cfg)


def input_size(cfg):
    """(h, w) of the crops: --data-shape H gives H x 3H/4, GluonCV's aspect (default 256 x 192)."""
    h = cfg.data_shape or 256
    if h % 4 or (h * 3) % 16:
        raise BadInputError(f'--data-shape {h}: the crop is H x 3H/4 with heatmaps of a quarter of it, so H must be '
                            'a multiple of 16 (MobilePose: of 128, e.g. 128 or 256)')
    return h, h * 3 // 4


def pose_loss(pred, target, weight):
    """Per-person loss (N,) of heatmaps `pred`, `target` (N, K, h, w) and `weight` (N, K, 1, 1) (NDArrays):
    GluonCV's L2Loss(pred, target, weight) = 0.5 x the mean over (K, h, w) of weight * (pred - target)^2."""
    return 0.5 * (((pred - target) ** 2) * weight).mean(axis=(1, 2, 3))


# -- the task -----------------------------------------------------------------------------------------------------
class PoseEstimation:
    """A keypoint dataset pair (COCOKeyPoints: `sample(i) -> (image, label, image_id)`, `len`, `coco`) trained and
    evaluated as the module docstring says; `image_size` the crop (h, w)."""

    def __init__(self, train, val, info, image_size, mean=IMAGENET_MEAN, std=IMAGENET_STD, augment=True,
                 eval_split='test', eval_batch_size=32):
        self.train, self.val, self.info, self.augment = train, val, info, augment
        self.classes = tuple(info.get('joints') or ())  # run_recipe hands them to build_pose_net
        self.image_size = tuple(image_size)
        self.heatmap_size = (self.image_size[0] // STRIDE, self.image_size[1] // STRIDE)
        self.norm = {'mean': tuple(mean), 'std': tuple(std)}
        self.eval_split, self.eval_batch_size = eval_split, eval_batch_size
        self.joint_pairs = train.joint_pairs
        self.lost = {}  # joints the training crops lost (weight 0, as GluonCV), counted per epoch

    def dataset_info(self):
        return dict(self.info, train_size=len(self.train), eval_size=len(self.val), eval_split=self.eval_split,
                    input_size=list(self.image_size), heatmap_size=list(self.heatmap_size),
                    mean=list(self.norm['mean']), std=list(self.norm['std']),
                    evaluation='OKS AP (COCOeval) of the ground-truth person boxes, box score 1, no flip test')

    def settle(self, net, ctx):
        """Check the net against the data and run it once."""
        import mxnet as mx
        if net.num_joints != self.train.num_joints:
            raise BadInputError(f'the net predicts {net.num_joints} joints, the data labels {self.train.num_joints}')
        shape = net(mx.nd.zeros((1, 3) + self.image_size, ctx=ctx)).shape[2:]
        if tuple(shape) != self.heatmap_size:
            h, w = self.image_size
            raise BadInputError(f'{type(net).__name__} makes {shape[0]}x{shape[1]} heatmaps of a {h}x{w} crop, not '
                                f'{self.heatmap_size[0]}x{self.heatmap_size[1]}: choose --data-shape so that the '
                                'crop divides by its stride (MobilePose: a multiple of 128)')

    def num_batches(self, batch_size, workers):
        return len(self.train) // (batch_size * workers)

    def _train_sample(self, i, rng, stats):
        img, label, _ = self.train.sample(i)
        kw = dict(image_size=self.image_size, heatmap_size=self.heatmap_size, joint_pairs=self.joint_pairs,
                  stats=stats, **self.norm)
        if self.augment:
            return simple_pose_train(img, label, rng, **kw)
        return pose_crop(img, label, **kw)

    def batches(self, epoch, cfg, rank, workers):
        for b, idx in epoch_indices(len(self.train), epoch, cfg.batch_size, cfg.seed, rank, workers):
            rng = np.random.default_rng([cfg.seed, epoch, b, 1 + rank])
            stats = self.lost.setdefault(epoch, {})
            xs, targets, weights = zip(*[self._train_sample(i, rng, stats) for i in idx])
            yield b, (np.stack(xs), np.stack(targets), np.stack(weights))

    def train_step(self, net, batch, cfg, epoch, ctx):
        import mxnet as mx
        from mxnet import autograd
        x, target, weight = (mx.nd.array(a, ctx=ctx) for a in batch)
        with autograd.record():
            loss = pose_loss(net(x), target, weight)
        loss.backward()
        return {'loss': float(loss.sum().asscalar()), 'n': len(batch[0])}

    def evaluate(self, net, ctx):
        """{'AP', 'AP50', 'AP75', 'APm', 'APl', 'AR', 'heatmap_accuracy'} over the eval split (see above)."""
        import mxnet as mx
        from ..metrics.coco import KeypointAP
        ap, acc = KeypointAP(self.val.coco), HeatmapAccuracy()
        for at in range(0, len(self.val), self.eval_batch_size):
            people = [self.val.sample(i) for i in range(at, min(at + self.eval_batch_size, len(self.val)))]
            xs, targets, centers, scales = [], [], [], []
            for img, label, _ in people:
                # simple_pose_eval's crop (the unaugmented window), with its targets for the heatmap accuracy
                x, target, _ = pose_crop(img, label, image_size=self.image_size, heatmap_size=self.heatmap_size,
                                         **self.norm)
                center, scale = box_to_center_scale(label['bbox'], self.image_size[1] / self.image_size[0])
                xs.append(x), targets.append(target), centers.append(center), scales.append(scale)
            heatmaps = net(mx.nd.array(np.stack(xs), ctx=ctx)).asnumpy()
            acc.update(np.stack(targets), heatmaps)
            coords, maxvals = heatmap_to_coord(heatmaps, crop_box(centers, scales), shift=True)
            ap.update([p[2] for p in people], coords, maxvals, np.ones(len(people), np.float32))
        return dict(ap.results(), **acc.results())


# -- the data -----------------------------------------------------------------------------------------------------
def _cut(ds, n):
    """The first n people of a COCOKeyPoints (all when n is 0)."""
    if n and n < len(ds):
        for name in ('items', 'labels', 'image_ids', 'ann_ids'):
            setattr(ds, name, getattr(ds, name)[:n])
    return ds


def keypoints_data(path, cfg):
    """(train, eval, info) of a COCO keypoints folder: images in PATH/JPEGImages, people in
    PATH/annotations/person_keypoints_<split>.json; trains on trainval (else train), evaluates on test (else
    val). The checksum covers the two annotation files and every image they name."""
    from ..data.keypoints import COCOKeyPoints
    from .detection.data import files_checksum
    ann = os.path.join(path, 'annotations', 'person_keypoints_{}.json')
    pick = [next((s for s in splits if os.path.isfile(ann.format(s))), None)
            for splits in (('trainval', 'train'), ('test', 'val'))]
    if None in pick:
        missing = ann.format('trainval|train' if pick[0] is None else 'test|val')
        raise BadInputError(f'COCO keypoints folder {path}: no {missing}: write the people there (COCO format)')
    train, val = (COCOKeyPoints(os.path.join(path, 'JPEGImages'), ann.format(s)) for s in pick)
    for ds, split in zip((train, val), pick):
        if not len(ds):
            raise BadInputError(f'{ann.format(split)} has no person with a labelled joint')
    files = [ann.format(s) for s in pick] + sorted(set(train.items) | set(val.items))
    info = {'train_split': pick[0], 'eval_split': pick[1], 'checksum': files_checksum(files, path)}
    return _cut(train, cfg.train_limit), val, info


def pose_task(cfg, name, source, data):
    """The PoseEstimation task of `data`, (train, eval, {train_split, eval_split, checksum})."""
    from ..meta import COCO_KEYPOINTS
    check_config(cfg)
    train, val, split_info = data
    joints = COCO_KEYPOINTS if train.num_joints == len(COCO_KEYPOINTS) else [f'joint{j}' for j in
                                                                            range(train.num_joints)]
    info = {'name': name, 'source': source, 'checksum': split_info['checksum'],
            'train_split': split_info['train_split'], 'joints': list(joints)}
    return PoseEstimation(train, val, info, input_size(cfg), augment=cfg.augment != 'none',
                          eval_split=split_info['eval_split'])


def build_pose_net(cfg, joints, ctx=None):
    """The net a pose recipe trains: the registered net for len(`joints`) joints on its pretrained ImageNet body
    (`pretrained_base`, unless model_kwargs turns it off), the rest initialized from the seed by `--init` (the
    engine's Xavier; a layer with its own initializer keeps it: MobilePose's last conv, Normal(0.001), as GluonCV's).
    """
    import mxnet as mx
    from ...registry import get_model, initialize_unset
    from ...train.engine import _context
    ctx = ctx or _context(cfg)
    mx.random.seed(cfg.seed)
    np.random.seed(cfg.seed)
    init = {'xavier': mx.init.Xavier(rnd_type='gaussian', factor_type='in', magnitude=2),
            'uniform': mx.init.Uniform()}.get(cfg.init)  # the engine's (train.engine.build_net)
    if init is None:
        raise ValueError(f"init {cfg.init!r} is not 'xavier' or 'uniform'")
    kwargs = dict({'pretrained_base': True}, **cfg.model_kwargs)
    net = get_model(cfg.model, num_joints=len(joints), joints=tuple(joints), ctx=ctx, pretrained_ctx=ctx, **kwargs)
    initialize_unset(net, ctx)  # the draws get_model made before issue 26: the recipes' logs stay reproducible
    if kwargs['pretrained_base'] is False:
        net.initialize(init, ctx=ctx, force_reinit=True)
    else:  # the heads: MobilePose's upsampling, SimplePose's deconv_layers and final_layer
        for name in ('upsampling', 'deconv_layers', 'final_layer'):
            if getattr(net, name, None) is not None:
                getattr(net, name).initialize(init, ctx=ctx, force_reinit=True)
    return net


__all__ = ['PoseEstimation', 'build_pose_net', 'check_config', 'input_size', 'is_pose_net', 'keypoints_data',
           'pose_loss', 'pose_task']
