"""What GluonCV's action-recognition families share: the datasets their names end in, GluonCV's sha1s and published
top-1 (data, read from its model_store.py and model-zoo tables), the one factory of their weights records, the
class count and views checks, the Kinetics start, the feature head, and the 3D convs and BatchNorm their blocks use.

A name ends in its dataset (`i3d_resnet50_v1_kinetics400`); `_custom` builders have no checkpoint of their own
(GluonCV builds them on a Kinetics-400 one, for the user's classes).
"""
import warnings

from mxnet.gluon import nn

from ....errors import BadInputError
from ....weights import GLUONCV_REPO, ONE_THREAD, Source, Weights
from ...layers import norm_factory
from ...meta import ACTION_CLASSES, IMAGENET_MEAN, IMAGENET_STD, MOTIONS, VIDEO

#: GluonCV 0.10.5 model_store.py sha1 of each action-recognition checkpoint (None: GluonCV publishes none)
GLUONCV_SHA1 = {
    'vgg16_ucf101': 'd6dc1bbaaf3cbe0be19f02362706393f62ce76fa',
    'vgg16_hmdb51': None,
    'vgg16_kinetics400': None,
    'vgg16_sthsthv2': None,
    'inceptionv1_ucf101': None,
    'inceptionv1_hmdb51': None,
    'inceptionv1_kinetics400': '6dcdafb1dd19866fdd3116cbe3689adb85824b2c',
    'inceptionv1_sthsthv2': None,
    'inceptionv3_ucf101': '13ef5c3bd40141f11c5b4e471f8f2ad0c1ac6299',
    'inceptionv3_hmdb51': None,
    'inceptionv3_kinetics400': '8a4a6946893de23937b5e5e4a1a449800d57ff71',
    'inceptionv3_sthsthv2': None,
    'c3d_kinetics400': 'a007b5faf2927c5c4afe78db40756273f33a84e6',
    'p3d_resnet50_kinetics400': '671ba81c2b287ce3b9aa2393e15ff1562b705c4d',
    'p3d_resnet101_kinetics400': 'b30e3a6389c3a12867fe41bb3838f407d47aed2b',
    'r2plus1d_resnet18_kinetics400': '5a14d1f9772e523bbeae8484ec382feb30b74ffa',
    'r2plus1d_resnet34_kinetics400': 'de2e592b450b9007705507d5167859d45e782695',
    'r2plus1d_resnet50_kinetics400': 'deaefb14d31c703115a911828534d24ac68c7fb0',
    'r2plus1d_resnet101_kinetics400': None,
    'r2plus1d_resnet152_kinetics400': None,
    'i3d_resnet50_v1_ucf101': '760d0981094787b8789ee4a8c382d09d493c7413',
    'i3d_resnet50_v1_hmdb51': '2ec6bf01a55af38579380e6531d0ecc816862abe',
    'i3d_resnet50_v1_kinetics400': '568a722eb61da663e11b582886ddbef9ef8f6ac6',
    'i3d_resnet50_v1_sthsthv2': '01961e4cccf6405cd1342670b9525c21c578c9d4',
    'i3d_resnet50_v1_custom': None,
    'i3d_resnet101_v1_kinetics400': '6b69f655c60823bd05a83fe076c61d6c297add0d',
    'i3d_inceptionv1_kinetics400': '81e0be1043ea4c68a4a0a439918c7b888ee5545b',
    'i3d_inceptionv3_kinetics400': 'f14f8a99007200ef56521b6a844f662784a8f5de',
    'i3d_nl5_resnet50_v1_kinetics400': '3c0e47ea5ee699c3e1f706c9df7a74dbd6321b11',
    'i3d_nl10_resnet50_v1_kinetics400': 'bfb58c4127705ad6e98f4916abde0c849e2f1288',
    'i3d_nl5_resnet101_v1_kinetics400': 'fbfc1d30d90c304295dedd6c70b037d100e43d5f',
    'i3d_nl10_resnet101_v1_kinetics400': '59186c31dea2f20940a358fc8ea5199cd6d4303c',
    'slowfast_4x16_resnet50_kinetics400': '9d650f5186ffc08348f8d7384d6994a8f39a03b1',
    'slowfast_4x16_resnet50_custom': None,
    'slowfast_8x8_resnet50_kinetics400': 'd6b253398615a21d8b2a827ddfb09c0d8827f79c',
    'slowfast_4x16_resnet101_kinetics400': None,
    'slowfast_8x8_resnet101_kinetics400': 'fbde1a7cfdaeeba7190dd15f284b91036bf5f3f6',
    'slowfast_16x8_resnet101_kinetics400': None,
    'slowfast_16x8_resnet101_50_50_kinetics400': None,
    'resnet18_v1b_kinetics400': '46d5a9850cdb884eb9c9a95d48269c3d60c94d77',
    'resnet34_v1b_kinetics400': '8a8d0d8d395882f836d379aefb4136dce8763d0c',
    'resnet50_v1b_kinetics400': 'cc757e5c94fdaaea64a8cb5acfbd655ddf6ffa96',
    'resnet101_v1b_kinetics400': '5bb6098ea5343dc0f4bf8536b3771b8ddfe231d7',
    'resnet152_v1b_kinetics400': '9bc70c66059854a22e935b42f783ef2bec0377d8',
    'resnet18_v1b_sthsthv2': None,
    'resnet34_v1b_sthsthv2': None,
    'resnet50_v1b_sthsthv2': '80ee0c6bef8b0240ec88273531cd7f43e3f6b65d',
    'resnet101_v1b_sthsthv2': None,
    'resnet152_v1b_sthsthv2': None,
    'resnet50_v1b_ucf101': None,
    'resnet50_v1b_hmdb51': '682591e23ce4b92fbd3222c0710ebb52166fddca',
    'resnet50_v1b_custom': None,
    'resnet18_v1b_custom': None,
    'i3d_slow_resnet101_f16s4_kinetics700': '299b1d9d8a2bcf7c122acd0d23606af4fdfbe7e1',
}
#: GluonCV's published top-1 (%) with the table's hashtag, segments and clip length (its docs/model_zoo/csv_tables/
#: Action_Recognitions/<dataset>.csv at v0.10.0: the row of each name whose hashtag is its sha1[:8]; a figure counts only
#: where they agree)
GLUONCV_TABLE = {
    'vgg16_ucf101': (83.4, 'd6dc1bba', '3', '1'),
    'inceptionv1_kinetics400': (69.1, '6dcdafb1', '7', '1'),
    'inceptionv3_ucf101': (88.1, '13ef5c3b', '3', '1'),
    'inceptionv3_kinetics400': (72.5, '8a4a6946', '7', '1'),
    'c3d_kinetics400': (59.5, 'a007b5fa', '1', '16 (32/2)'),
    'p3d_resnet50_kinetics400': (71.6, '671ba81c', '1', '16 (32/2)'),
    'p3d_resnet101_kinetics400': (72.6, 'b30e3a63', '1', '16 (32/2)'),
    'r2plus1d_resnet18_kinetics400': (70.8, '5a14d1f9', '1', '16 (32/2)'),
    'r2plus1d_resnet34_kinetics400': (71.6, 'de2e592b', '1', '16 (32/2)'),
    'r2plus1d_resnet50_kinetics400': (73.9, 'deaefb14', '1', '16 (32/2)'),
    'i3d_resnet50_v1_ucf101': (95.4, '760d0981', '1', '32 (64/2)'),
    'i3d_resnet50_v1_hmdb51': (70.9, '2ec6bf01', '1', '32 (64/2)'),
    'i3d_resnet50_v1_kinetics400': (74.0, '568a722e', '1', '32 (64/2)'),
    'i3d_resnet50_v1_sthsthv2': (50.6, '01961e4c', '1', '16 (32/2)'),
    'i3d_resnet101_v1_kinetics400': (75.1, '6b69f655', '1', '32 (64/2)'),
    'i3d_inceptionv1_kinetics400': (71.8, '81e0be10', '1', '32 (64/2)'),
    'i3d_inceptionv3_kinetics400': (73.6, 'f14f8a99', '1', '32 (64/2)'),
    'i3d_nl5_resnet50_v1_kinetics400': (75.2, '3c0e47ea', '1', '32 (64/2)'),
    'i3d_nl10_resnet50_v1_kinetics400': (75.3, 'bfb58c41', '1', '32 (64/2)'),
    'i3d_nl5_resnet101_v1_kinetics400': (76.0, 'fbfc1d30', '1', '32 (64/2)'),
    'i3d_nl10_resnet101_v1_kinetics400': (76.1, '59186c31', '1', '32 (64/2)'),
    'slowfast_4x16_resnet50_kinetics400': (75.3, '9d650f51', '1', '36 (64/1)'),
    'slowfast_8x8_resnet50_kinetics400': (76.6, 'd6b25339', '1', '40 (64/1)'),
    'slowfast_8x8_resnet101_kinetics400': (77.2, 'fbde1a7c', '1', '40 (64/1)'),
    'resnet18_v1b_kinetics400': (65.5, '46d5a985', '7', '1'),
    'resnet34_v1b_kinetics400': (69.1, '8a8d0d8d', '7', '1'),
    'resnet50_v1b_kinetics400': (69.9, 'cc757e5c', '7', '1'),
    'resnet101_v1b_kinetics400': (71.3, '5bb6098e', '7', '1'),
    'resnet152_v1b_kinetics400': (71.5, '9bc70c66', '7', '1'),
    'resnet50_v1b_sthsthv2': (35.5, '80ee0c6b', '8', '1'),
    'resnet50_v1b_hmdb51': (55.2, '682591e2', '3', '1'),
    'i3d_slow_resnet101_f16s4_kinetics700': (67.65, '299b1d9d', '1', '16 (64/4)'),
}

_TABLE_FILE = {'kinetics400': 'Kinetics400', 'kinetics700': 'Kinetics700', 'ucf101': 'UCF101', 'hmdb51': 'HMDB51',
               'sthsthv2': 'Something-Something-V2'}


def dataset_of(arch):
    """'i3d_resnet50_v1_kinetics400' -> 'kinetics400' (None for a `_custom` builder)."""
    suffix = arch.rsplit('_', 1)[-1]
    return suffix if suffix in ACTION_CLASSES else None


def published(arch):
    """GluonCV's published top-1 of `arch`'s checkpoint, where its table row is that checkpoint."""
    row, sha1 = GLUONCV_TABLE.get(arch), GLUONCV_SHA1.get(arch)
    if row is None or not sha1 or row[1] != sha1[:8]:
        return {}
    ds = dataset_of(arch)
    return {'top1': row[0], 'split': f'{ds} val; trained on {row[2]} segment(s) of {row[3]} frame(s) (GluonCV\'s '
                                     'table; its test protocol: docs/model_zoo)',
            'source': f'GluonCV 0.10 docs/model_zoo/csv_tables/Action_Recognitions/{_TABLE_FILE[ds]}.csv '
                      '(published, not re-measured)'}


def action_weights(arch, num_params, input_shape, paper, preprocess=None, recipe=None, config=None):
    """[GluonCV's record of `arch`] (its mirror, sha1 from model_store.py), or [] where GluonCV publishes none.
    `preprocess` adds the clip sampling (frames, step, segments, slowfast) to GluonCV's 256x340 -> 224 eval; the
    test views are those its published top-1 averages (docs/model_zoo/action_recognition_mxnet.rst: "250 views for
    2D networks (25 frames and 10-crop) and 30 views for 3D networks (10 clips and 3-crop)")."""
    sha1 = GLUONCV_SHA1.get(arch)
    if not sha1:
        return []
    ds = dataset_of(arch)
    views = {'test_views': (25, 10) if len(input_shape) == 4 else (10, 3)}
    return [Weights(
        arch=arch, tag='gluoncv', default=True, task='action-recognition', sha1=sha1, num_params=num_params,
        classes=ACTION_CLASSES[ds], preprocess=dict(VIDEO, **views, **(preprocess or {})),
        input_shape=tuple(input_shape),
        source=Source(kind='mirror', url=GLUONCV_REPO), metrics=published(arch), config=dict(config or {}),
        license='Apache-2.0 (GluonCV)', paper=paper,
        recipe=recipe or f'GluonCV 0.10.5 scripts/action-recognition/train_recognizer.py (its {arch} shell script, '
                         'linked from the table)')]


def motions_weights(arch, sha1, num_params, top1, recipe_args, out, config, preprocess, input_shape, paper):
    """[the record of `arch` trained by gluonzoo on the generated motion videos] (gluonzoo.vision.data.motions'
    default spec, from scratch, one thread: scripts/vision/action/train.py `recipe_args` into out/`out`; its log in
    logs/). Over 5 MB, so rebuilt by its recipe (make weights), not shipped. Frames are the videos' own 48x48,
    centre-cropped."""
    log = f'logs/{arch}.motions.jsonl'
    return [Weights(
        arch=arch, tag='motions', default=True, task='action-recognition', sha1=sha1, num_params=num_params,
        classes=MOTIONS,
        metrics={'top1': top1, 'source': log,
                 'split': 'generated motions (gluonzoo.vision.data.motions v1, default spec), test split: 480 videos, '
                          'one centred clip each'},
        recipe=' '.join([ONE_THREAD, 'scripts/vision/action/train.py --progress 0', *recipe_args, f'--out out/{out}',
                         f'--log out/{arch}.motions.jsonl']),
        log=log, check={'log': {'top1': 0.003}, 'rerun': {'top1': 0.01}}, config=dict(config),
        preprocess=dict(mean=IMAGENET_MEAN, std=IMAGENET_STD, scale=1 / 255.0, layout='NCHW', color='RGB',
                        **preprocess),
        input_shape=tuple(input_shape), source=Source(kind='recipe'),
        license="Apache-2.0 (OpenCV's sample photos and digits: Debian opencv-doc)", paper=paper)]


# -- what every action net shares ---------------------------------------------------------------------------------
def resolve_nclass(nclass, classes, default):
    """The head's class count from GluonCV's `nclass` and the registry's `classes` (get_model passes that one when it
    loads a checkpoint); `default` is the builder's own nclass, i.e. nclass not given.

    >>> resolve_nclass(400, None, 400), resolve_nclass(400, 7, 400), resolve_nclass(7, 7, 400)
    (400, 7, 7)
    """
    if classes is None:
        return nclass
    if nclass not in (default, classes):
        raise BadInputError(f'classes={classes!r} and nclass={nclass!r} disagree (nclass is GluonCV\'s name for '
                            'classes): pass one of them')
    return classes


def check_views(owner, num_segments, num_crop):
    """Refuse num_segments / num_crop (the clips or frames of one video the net averages) that are not positive ints."""
    for key, value in (('num_segments', num_segments), ('num_crop', num_crop)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise BadInputError(f'{owner}: {key}={value!r} must be a positive int (views of a video the net averages)')


def copy_all_but_head(net, source, head):
    """Load every parameter of `source` (a loaded net of the same layout) into `net` but those under the child (or
    children, a tuple) `head`: GluonCV's `use_kinetics_pretrain` start, its Kinetics-400 checkpoint under a head for
    other classes."""
    skip = tuple(h + '.' for h in ((head,) if isinstance(head, str) else head))
    theirs = source._collect_params_with_prefix()
    for name, p in net._collect_params_with_prefix().items():
        if name.startswith(skip):
            continue
        mine, src = tuple(p.shape), tuple(theirs[name].shape) if name in theirs else None
        if src is None or len(mine) != len(src) or any(a not in (0, b) for a, b in zip(mine, src)):  # 0: deferred
            raise BadInputError(f'{type(source).__name__} has no parameter {name} of shape {p.shape}: not the '
                                f'architecture of this {type(net).__name__}')
        p._load_init(theirs[name].data(), theirs[name].list_ctx()[0])


class FeatureHead:
    """Mixed into the action nets: with `feat_ext` their head stays (checkpoints load strictly) but out of the
    graph, so Gluon's "parameter not used by any computation" warning at hybridization is expected and silenced."""
    feat_ext = False

    def _build_cache(self, *args):
        with warnings.catch_warnings():
            if self.feat_ext:
                warnings.filterwarnings('ignore', r'Parameter .* is not used by any computation')
            super()._build_cache(*args)


def make_norm(norm_layer, norm_kwargs, channels, **kwargs):
    """A norm layer over `channels` from GluonCV's `norm_layer` / `norm_kwargs` pair (vision.layers.norm_factory)."""
    return norm_factory(norm_layer, norm_kwargs)(in_channels=channels, **kwargs)


def conv1x3x3(in_planes, out_planes, spatial_stride=1, temporal_stride=1, dilation=1):
    """A 1x3x3 (spatial) convolution without bias, padded in H and W (GluonCV's helper of the 3D ResNets)."""
    return nn.Conv3D(out_planes, (1, 3, 3), (temporal_stride, spatial_stride, spatial_stride),
                     (0, dilation, dilation), dilation, use_bias=False, in_channels=in_planes)


def conv3x1x1(in_planes, out_planes, spatial_stride=1, temporal_stride=1, dilation=1):
    """A 3x1x1 (temporal) convolution without bias, padded in time."""
    return nn.Conv3D(out_planes, (3, 1, 1), (temporal_stride, spatial_stride, spatial_stride), (dilation, 0, 0),
                     dilation, use_bias=False, in_channels=in_planes)


class BatchNorm(nn.BatchNorm):
    """nn.BatchNorm that runs a clip's (N, C, T, H, W) as (N, C, 1, T*H*W): the same per-channel statistics, so the
    outputs are the op's own, but MXNet 1.9.1's oneDNN BatchNorm never takes its non-4D path. That path writes into a
    reshaped view of the output and dereferences a null memory when oneDNN's primitive cache (which compares layouts
    ignoring size-1 dims) hands it a channels-last dst: a segfault for T*H*W == 1 after a 4D BatchNorm of the same
    (N, C, eps) (a 2D ResNet's layer4 at 32x32, then I3D's layer4); its backward on views fails too
    (apache/mxnet#20858). Same class name, so parameter names and GluonCV's files are unchanged."""

    def hybrid_forward(self, F, x, gamma, beta, running_mean, running_var):
        if self._kwargs['axis'] != 1:
            return super().hybrid_forward(F, x, gamma, beta, running_mean, running_var)
        y = super().hybrid_forward(F, F.reshape(x, shape=(0, 0, 1, -1)), gamma, beta, running_mean, running_var)
        return F.reshape_like(y, x)
