"""The feature pyramid (Lin et al., arXiv:1612.03144) on a ResNet V1b/V1d backbone, as GluonCV 0.10.5's
`FPNFeatureExpander` builds it for Faster R-CNN: 1x1 laterals on C2..C5, a top-down path of nearest x2 upsampling
and sums, a 3x3 conv on every sum (P2..P5), and P6 as a stride-2 3x3 conv on C5's lateral.

GluonCV builds it as a SymbolBlock, so its files name every parameter by its MXNet symbol name, flat under
`features.` (`features.resnetv1b_layers1_conv0_weight`, `features.P2_conv_lat_weight`). The block below is made of
ordinary layers and reports those names to save_parameters / load_parameters (`_collect_params_with_prefix`), so
GluonCV's files load into it strictly and files it saves load into GluonCV's.
"""
import mxnet as mx
from mxnet.gluon import nn

from ...classification.resnetv1b import BlockV1b

_KINDS = ((nn.Conv2D, 'conv'), (nn.BatchNorm, 'batchnorm'))


def _symbol_names(block, scope, counters, out):
    """Give each Conv2D / BatchNorm under `block` the name Gluon's automatic naming gave it in GluonCV's ResNet:
    `{scope}{kind}{n}_{param}`, n counting that kind within the scope in creation order."""
    kind = next((k for cls, k in _KINDS if isinstance(block, cls)), None)
    if kind is not None:
        n = counters[kind] = counters.get(kind, -1) + 1
        out.update({id(p): f'{scope}{kind}{n}_{attr}' for attr, p in block._reg_params.items()})
        return
    for child in block._children.values():
        _symbol_names(child, scope, counters, out)


def resnet_symbol_names(stages, prefix):
    """{id(parameter): GluonCV's symbol name} for the backbone blocks in `stages` (a FeatureExtractor's, in order):
    the stem in the net's scope (`resnetv1b_conv0`), residual stage i's blocks in `layers{i}_` and its shortcut in
    `down{i}_` (GluonCV's `_make_layer` scopes)."""
    out, stem, stage = {}, {}, 0
    for block in (b for segment in stages for b in segment._children.values()):
        if isinstance(block, nn.HybridSequential) and len(block) and isinstance(block[0], BlockV1b):
            stage += 1
            counters = {}
            for unit in block:
                for key, child in unit._children.items():
                    if key == 'downsample':
                        _symbol_names(child, f'{prefix}down{stage}_', {}, out)
                    else:
                        _symbol_names(child, f'{prefix}layers{stage}_', counters, out)
        else:
            _symbol_names(block, prefix, stem, out)
    return out


class FPN(nn.HybridBlock):
    """[P2, P3, P4, P5, P6] (`channels` each, strides 4..64) of a backbone returning [C2, C3, C4, C5].

    `symbol_prefix` is the prefix GluonCV's ResNet gave its symbols (`resnetv1b_`, `resnetv1d_`).
    """

    def __init__(self, backbone, symbol_prefix, channels=256):
        super().__init__()
        init = mx.init.Xavier(rnd_type='uniform', factor_type='in', magnitude=1.0)  # GluonCV's, for training
        with self.name_scope():
            self.backbone = backbone
            self.lateral = nn.HybridSequential()
            self.output = nn.HybridSequential()
            for _ in range(4):
                self.lateral.add(nn.Conv2D(channels, 1, weight_initializer=init))
                self.output.add(nn.Conv2D(channels, 3, 1, 1, weight_initializer=init))
            self.p6 = nn.Conv2D(channels, 3, 2, 1, weight_initializer=init)
        self._names = resnet_symbol_names(backbone.stages, symbol_prefix)
        for level in range(2, 6):
            for block, kind in ((self.lateral[level - 2], 'conv_lat'), (self.output[level - 2], 'conv1')):
                self._names.update({id(p): f'P{level}_{kind}_{attr}' for attr, p in block._reg_params.items()})
        self._names.update({id(p): f'P6_conv1_{attr}' for attr, p in self.p6._reg_params.items()})

    def _collect_params_with_prefix(self, prefix=''):
        own = super()._collect_params_with_prefix()
        prefix = prefix + '.' if prefix else ''
        return {prefix + self._names[id(p)]: p for p in own.values()}

    def hybrid_forward(self, F, x):
        c2, c3, c4, c5 = self.backbone(x)
        top = self.lateral[3](c5)
        outs, p6 = [self.output[3](top)], self.p6(top)
        for i, c in ((2, c4), (1, c3), (0, c2)):
            lateral = self.lateral[i](c)
            up = F.slice_like(F.UpSampling(top, scale=2, sample_type='nearest', num_args=1), lateral, axes=(2, 3))
            top = lateral + up
            outs.insert(0, self.output[i](top))
        return outs + [p6]
