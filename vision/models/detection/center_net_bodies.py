"""CenterNet's bodies with GluonCV 0.10.5's signatures (its model_zoo.center_net.deconv_resnet and duc_mobilenet):
stride-4 features from a registered classifier, a ResNet V1b with deconvolutions (`DeconvResnet`) or a MobileNetV3
with DUC upsampling (`DUCMobilenet`), and GluonCV's builder functions of them. center_net.py puts the heads on.

Structural names are GluonCV's (`base_network.0.weight`, `deconv.0.weight`, `feature.0.weight`,
`upsampling.0.conv.weight`), so the CenterNet files load strictly.
"""
import math

import mxnet as mx
from mxnet.gluon import nn

from ....errors import BadInputError
from ....registry import get_backbone
from ...layers import DUC

#: He-normal initialization for a MobileNetV3 body built without pretrained weights: under Gluon's default
#: Uniform(0.07) its features shrink ~8x a unit, and the heatmap is its bias everywhere (nothing to rank)
_BODY_INIT = mx.init.Xavier(rnd_type='gaussian', factor_type='in', magnitude=2)
#: transposed-conv kernel -> (padding, output padding) that doubles the map (GluonCV's _get_deconv_cfg)
_DECONV = {4: (1, 0), 3: (1, 1), 2: (0, 0)}


class _BilinearUp(mx.init.Initializer):
    """N(0, 0.01), with a bilinear upsampling kernel from every input channel to output channel 0: GluonCV's
    BilinearUpSample, so that training from scratch starts where GluonCV's recipe does."""

    def _init_weight(self, _, arr):
        mx.nd.random.normal(0, 0.01, arr.shape, out=arr)
        k = arr.shape[2]
        f = math.ceil(k / 2)
        c = (2 * f - 1 - f % 2) / (2. * f)
        ramp = mx.nd.array([1 - abs(i / f - c) for i in range(k)])
        arr[:, 0, :, :] = (ramp.reshape((-1, 1)) * ramp.reshape((1, -1))).reshape((1, k, k))


def _no_dcnv2(use_dcnv2):
    if use_dcnv2:
        raise BadInputError('use_dcnv2=True needs deformable convolutions (the *_dcnv2 CenterNets), which gluonzoo '
                            'does not build: pass use_dcnv2=False')


# -- blocks -------------------------------------------------------------------------------------------------------
class DeconvResnet(nn.HybridBlock):
    """The ResNet V1b `base_network` (stride 32; ImageNet weights with `pretrained_base`) then, per entry of
    `deconv_filters` / `deconv_kernels`, 3x3 conv -> norm -> ReLU -> stride-2 transposed conv (no bias) -> norm ->
    ReLU: stride-4 features of `deconv_filters[-1]` channels."""

    def __init__(self, base_network='resnet18_v1b', deconv_filters=(256, 128, 64), deconv_kernels=(4, 4, 4),
                 pretrained_base=True, norm_layer=nn.BatchNorm, norm_kwargs=None, use_dcnv2=False, **kwargs):
        super().__init__(**kwargs)
        _no_dcnv2(use_dcnv2)
        if len(deconv_filters) != len(deconv_kernels) or any(k not in _DECONV for k in deconv_kernels):
            raise BadInputError(f'deconv_filters {tuple(deconv_filters)} need as many deconv_kernels, each one of '
                                f'{sorted(_DECONV)}; got {tuple(deconv_kernels)}')
        body = get_backbone(base_network, pretrained=pretrained_base, out_indices=('layer4',))
        channels = body.channels[-1]
        norm = dict(momentum=0.9, **(norm_kwargs or {}))
        with self.name_scope():
            self.base_network = body.stages[0]  # conv1, bn1, relu, maxpool, layer1-4: GluonCV's indices 0-7
            self.deconv = nn.HybridSequential(prefix='deconv_')
            for planes, k in zip(deconv_filters, deconv_kernels):
                pad, out_pad = _DECONV[k]
                self.deconv.add(nn.Conv2D(planes, 3, padding=1, in_channels=channels), norm_layer(**norm),
                                nn.Activation('relu'),
                                nn.Conv2DTranspose(planes, k, 2, pad, out_pad, use_bias=False, in_channels=planes,
                                                   weight_initializer=_BilinearUp()),
                                norm_layer(**norm), nn.Activation('relu'))
                channels = planes

    def hybrid_forward(self, F, x):
        return self.deconv(self.base_network(x))


class DUCMobilenet(nn.HybridBlock):
    """The MobileNet `base_network` up to its last stride-32 map (before the global pool; ImageNet weights with
    `pretrained_base`), then one DUC per entry of `up_filters` / `up_scales`: stride-4 features."""

    def __init__(self, base_network='mobilenetv3_small', up_filters=(512, 256, 128), up_scales=(2, 2, 2),
                 pretrained_base=True, norm_layer=nn.BatchNorm, norm_kwargs=None, **kwargs):
        super().__init__(**kwargs)
        if norm_layer is not nn.BatchNorm or norm_kwargs:
            raise BadInputError('DUCMobilenet takes the standard BatchNorm only (as GluonCV\'s DUC module)')
        body = get_backbone(base_network, pretrained=pretrained_base, out_indices=(-1,))
        if not pretrained_base:
            body.collect_params('.*weight').setattr('init', _BODY_INIT)
        with self.name_scope():
            self.feature = body.stages[0]  # the classifier's features.0 .. its last stage, same indices
            self.upsampling = nn.HybridSequential(prefix='upsampling_')
            for f, scale in zip(up_filters, up_scales):
                self.upsampling.add(DUC(f, scale))

    def hybrid_forward(self, F, x):
        return self.upsampling(self.feature(x))


# -- GluonCV's builders -------------------------------------------------------------------------------------------
def get_deconv_resnet(base_network, pretrained=False, ctx=None, use_dcnv2=False, **kwargs):
    """DeconvResnet on `base_network`; `pretrained` loads its ImageNet body (GluonCV's meaning here). `ctx` is
    GluonCV's argument: the parameters are made where MXNet's current context is."""
    del ctx
    return DeconvResnet(base_network, pretrained_base=pretrained, use_dcnv2=use_dcnv2, **kwargs)


def resnet18_v1b_deconv(**kwargs):
    return get_deconv_resnet('resnet18_v1b', **kwargs)


def resnet50_v1b_deconv(**kwargs):
    return get_deconv_resnet('resnet50_v1b', **kwargs)


def resnet101_v1b_deconv(**kwargs):
    return get_deconv_resnet('resnet101_v1b', **kwargs)


def get_duc_mobilenet(base_network, pretrained=False, ctx=None, **kwargs):
    """DUCMobilenet on `base_network`; `pretrained` loads its ImageNet body, as get_deconv_resnet's."""
    del ctx
    return DUCMobilenet(base_network, pretrained_base=pretrained, **kwargs)


def mobilenetv3_large_duc(**kwargs):
    return get_duc_mobilenet('mobilenetv3_large', up_filters=(512, 256, 256), **kwargs)


def mobilenetv3_small_duc(**kwargs):
    return get_duc_mobilenet('mobilenetv3_small', up_filters=(512, 256, 128), **kwargs)


def get_base_network(name, **kwargs):
    """GluonCV's CenterNet body by name: a ResNet V1b with deconvolutions for `resnet18_v1b[_deconv]` (its first two
    parts name the classifier, as GluonCV reads them), and gluonzoo's `mobilenetv3_{small,large}_duc` (a `_dcnv2`
    name is GluonCV's deformable variant, which gluonzoo does not build)."""
    _no_dcnv2('dcnv2' in name)
    if 'resnet' in name:
        return get_deconv_resnet('_'.join(name.split('_')[:2]), **kwargs)
    duc = {'mobilenetv3_large_duc': mobilenetv3_large_duc, 'mobilenetv3_small_duc': mobilenetv3_small_duc}
    if name not in duc:
        raise BadInputError(f'no CenterNet body {name!r}: resnet*_v1b[_deconv] or one of {sorted(duc)}')
    return duc[name](**kwargs)
