"""The feature bodies of GluonCV 0.10.5's SSDs on registry backbones: the maps the SSD heads read, from fine to
coarse, and the names their parameters have in GluonCV's files.

`FeatureExpander` (resnet*_v1, resnet*_v2, mobilenet*). GluonCV builds these bodies as a SymbolBlock: the
classifier is turned into a symbol, cut at named internal outputs (`stage3_activation5`, `relu22_fwd`), and extra
stride-2 layers are appended as symbols. A SymbolBlock's parameters are named by their symbol names, so its files
hold `features.resnetv10_stage1_conv0_weight`, `features.expand_trans_bn0_moving_mean`, where a Gluon block would
have structural paths. Here the body is a plain HybridBlock: the backbone from `registry.get_backbone` (sharing the
registered classifier's parameters) and the added layers as Gluon layers. It reports its parameters under GluonCV's
names through `_collect_params_with_prefix`, the one map that `save_parameters`, `load_parameters` and the
registry's strict loader read. The names need no table: Gluon names a parameter `{prefix}{local name}`, the prefix
being the classifier's class name and counter up to the first '_', the local name counting layers per name scope
(`stage3_conv2_weight`). Our classifiers build the same layers in the same scopes as GluonCV's, so their local names
are the ones GluonCV's classifier gives the same parameters (tests/vision/test_gluoncv_parity.py shows the
structural names agree; the SSD parity test shows these do); GluonCV's prefix in a fresh process (`resnetv10_`,
`resnetv20_`, `mobilenet0_`) is put in front. The added layers get the names GluonCV's symbols have
(`expand_trans_conv{i}`, `expand_trans_bn{i}`, `expand_conv{i}`, `expand_bn{i}`; BatchNorm statistics are
`moving_mean` / `moving_var` in a symbol).

`ResNetV1bSSD` (resnet34_v1b) is a Gluon block in GluonCV too: structural names, `stage1`, `stage2`,
`more_stages`, which the classifier's blocks keep here.
"""
import mxnet as mx
from mxnet.gluon import nn

from .....errors import BadInputError
from .....registry import get_backbone

_XAVIER = mx.init.Xavier(rnd_type='gaussian', factor_type='out', magnitude=2)  # GluonCV's init of added layers
_SYMBOL_STATS = {'running_mean': 'moving_mean', 'running_var': 'moving_var'}


def _symbol_bn():
    # mx.sym.BatchNorm's defaults, which GluonCV's appended layers get: eps 1e-3 and gamma fixed at 1 (scale=False;
    # the gamma is still in the files)
    return nn.BatchNorm(epsilon=1e-3, scale=False)


class FeatureExpander(nn.HybridBlock):
    """The maps of `body` (a block returning a list of maps), then one more per `filters` entry: a 1x1 transition
    conv to max(min_depth, round(f * reduce_ratio)) channels and a stride-2 3x3 conv to f, each without bias and
    followed by BatchNorm and ReLU. Parameters are reported under GluonCV's names (module docstring), the body's with
    `gluoncv_prefix` in front."""

    def __init__(self, body, filters, gluoncv_prefix, min_depth=128, reduce_ratio=1.0, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.body = body
            self.expand = nn.HybridSequential()
            for f in filters:
                stage = nn.HybridSequential(prefix='')
                stage.add(nn.Conv2D(max(min_depth, int(round(f * reduce_ratio))), 1, use_bias=False,
                                    weight_initializer=_XAVIER), _symbol_bn(), nn.Activation('relu'),
                          nn.Conv2D(f, 3, 2, 1, use_bias=False, weight_initializer=_XAVIER), _symbol_bn(),
                          nn.Activation('relu'))
                self.expand.add(stage)
        self._file_names = self._gluoncv_names(gluoncv_prefix)

    def _gluoncv_names(self, prefix):
        names = {prefix + p.name.split('_', 1)[1]: p for p in self.body.collect_params().values()}
        for i, stage in enumerate(self.expand):
            for layer, kind in zip((stage[0], stage[1], stage[3], stage[4]),
                                   ('expand_trans_conv', 'expand_trans_bn', 'expand_conv', 'expand_bn')):
                names.update({f'{kind}{i}_{_SYMBOL_STATS.get(k, k)}': p for k, p in layer._reg_params.items()})
        count = len(self.collect_params().keys())
        if len(names) != count:  # two parameters under one name: a naming rule broke
            raise RuntimeError(f'{type(self).__name__}: the GluonCV names of its {count} parameters are not distinct '
                               f'({len(names)})')
        return names

    def _collect_params_with_prefix(self, prefix=''):
        prefix = prefix + '.' if prefix else ''
        return {prefix + name: p for name, p in self._file_names.items()}

    def hybrid_forward(self, F, x):
        maps = list(self.body(x))
        x = maps[-1]
        for stage in self.expand:
            x = stage(x)
            maps.append(x)
        return maps


def _relus(F, layers, x):
    """The ReLU outputs along a ResNet v2 bottleneck's main path `layers` (bn1, conv1, bn2, conv2, bn3, or a
    prefix of them): a ReLU follows each BatchNorm."""
    out = []
    for layer in layers:
        x = layer(x)
        if isinstance(layer, nn.BatchNorm):
            x = F.Activation(x, act_type='relu')
            out.append(x)
    return out


class PreActTaps(nn.HybridBlock):
    """A ResNet v2 classifier's `features` run up to GluonCV's SSD taps, given as (stage, n): the n-th ReLU of that
    stage (0-based), counted over its bottleneck blocks, three each (after bn1, bn2, bn3): GluonCV's symbols
    `stage{s}_activation{n}`. They lie inside blocks, so a tapped block runs spelled out here (the classifier's own
    bottleneck forward: relus, then conv3 plus the shortcut). The last tap ends the body: of its block only the
    layers up to it are kept, as GluonCV's SymbolBlock keeps only what its outputs use, so strict loading finds no
    parameter the file leaves out."""

    def __init__(self, features, taps, **kwargs):
        super().__init__(**kwargs)
        children = list(features._children.values())
        stages = [i for i, c in enumerate(children) if isinstance(c, nn.HybridSequential)]
        (last_stage, last_n), self._taps = taps[-1], {}
        with self.name_scope():
            self.units = nn.HybridSequential(prefix='')
            self.units.add(*children[:stages[0]])  # the stem
            for s, i in enumerate(stages[:last_stage], 1):
                for b, block in enumerate(children[i]._children.values()):
                    if (s, b) == (last_stage, last_n // 3):
                        break
                    tapped = [n % 3 for stage, n in taps[:-1] if (stage, n // 3) == (s, b)]
                    if tapped:
                        self._taps[len(self.units)] = tapped[0]
                    self.units.add(block)
            self.cut = nn.HybridSequential(prefix='')
            self.cut.add(*(block.bn1, block.conv1, block.bn2, block.conv2, block.bn3)[:2 * (last_n % 3) + 1])

    def hybrid_forward(self, F, x):
        maps = []
        for i, unit in enumerate(self.units):
            if i not in self._taps:
                x = unit(x)
                continue
            relus = _relus(F, (unit.bn1, unit.conv1, unit.bn2, unit.conv2, unit.bn3), x)
            maps.append(relus[self._taps[i]])
            shortcut = unit.downsample(relus[0]) if unit.downsample is not None else x
            x = unit.conv3(relus[2]) + shortcut
        return maps + [_relus(F, self.cut, x)[-1]]


class ResNetV1bSSD(nn.HybridBlock):
    """GluonCV's ResNetV1bSSD: the ResNet V1b `network` (other keyword arguments are its builder's: `pretrained`)
    cut into `stage1` (the stem to layer2, stride 8) and `stage2` (layer3 without its stride, then layer4: stride
    16); then per `add_filters` entry a 1x1 conv to max(min_depth, f * reduce_ratio) channels and a stride-2 3x3
    conv (the last unpadded), each with ReLU, a norm (`use_bn`) or a bias."""

    def __init__(self, network, add_filters, norm_layer=nn.BatchNorm, norm_kwargs=None, use_bn=False,
                 reduce_ratio=1.0, min_depth=128, **kwargs):
        super().__init__()
        if not network.endswith('v1b'):
            raise BadInputError(f'ResNetV1bSSD takes a ResNet V1b network (resnet34_v1b, ...), not {network!r}')
        stages = get_backbone(network, pretrained=kwargs.pop('pretrained', False), out_indices=('layer2', 'layer4'),
                              **kwargs).stages
        first = stages[1][0][0]  # layer3's first block: GluonCV sets its stride to 1 after building it, as here
        first.conv1._kwargs['stride'] = (1, 1)
        first.downsample[0]._kwargs['stride'] = (1, 1)
        with self.name_scope():
            self.stage1, self.stage2 = stages[0], stages[1]
            self.more_stages = nn.HybridSequential()
            for i, f in enumerate(add_filters):
                stage = nn.HybridSequential(prefix='')
                for channels, kernel, stride, pad in ((max(min_depth, int(round(f * reduce_ratio))), 1, 1, 0),
                                                      (f, 3, 2, 0 if i == len(add_filters) - 1 else 1)):
                    stage.add(nn.Conv2D(channels, kernel, stride, pad, use_bias=not use_bn,
                                        weight_initializer=_XAVIER))
                    if use_bn:
                        stage.add(norm_layer(**(norm_kwargs or {})))
                    stage.add(nn.Activation('relu'))
                self.more_stages.add(stage)

    def hybrid_forward(self, F, x):
        maps = [self.stage1(x)]
        maps.append(self.stage2(maps[0]))
        for stage in self.more_stages:
            maps.append(stage(maps[-1]))
        return maps


def resnet34_v1b_ssd(**kwargs):
    """ssd_300_resnet34_v1b's body (GluonCV's builder): ResNet-34 V1b, added maps of 256, 256, 128, 128."""
    return ResNetV1bSSD('resnet34_v1b', [256, 256, 128, 128], **kwargs)
