"""GluonCV's SSD parts with its signatures: `custom_ssd`, an SSD of one's own anchors (sizes, ratios, steps) and
added maps (filters) on one of the registered SSD bodies, optionally starting from GluonCV's checkpoint of that body
and size; and `SSDAnchorGenerator`, one map's anchors as GluonCV's block."""
from mxnet.gluon import nn

from .....errors import BadInputError
from .....registry import get_weights, load_checkpoint
from .....store import fetch
from ....ops.anchors import anchors_like, ssd_anchors
from .ssd import _EXPANDED, _ssd

#: the bodies custom_ssd builds: GluonCV's (its custom_ssd's table) and the ResNet-34 V1b of ssd_300_resnet34_v1b
BODIES = ('vgg16_atrous', 'resnet34_v1b', *_EXPANDED)


def custom_ssd(base_network_name, base_size, filters, sizes, ratios, steps, classes, dataset, pretrained_base,
               pretrained=False, **kwargs):
    """SSD on `base_network_name` for `base_size` pictures: `filters` the channels of the maps added after the body
    (None for vgg16_atrous, whose extras are fixed), `sizes` one more anchor size than maps, `ratios` and `steps`
    one per map, `classes` the class names; `pretrained` loads GluonCV's ssd_{base_size}_{name}_{dataset} (then
    no ImageNet body). Other keyword arguments are SSD's (nms_thresh, nms_topk, post_nms, anchor_alloc_size)."""
    if base_network_name not in BODIES:
        raise BadInputError(f'custom_ssd has no body {base_network_name!r}: one of {sorted(BODIES)}')
    net = _ssd(base_network_name, base_size, sizes, ratios, steps, classes, pretrained_base and not pretrained,
               filters=filters, **kwargs)
    if pretrained:
        load_checkpoint(net, fetch(get_weights(f'ssd_{base_size}_{base_network_name}_{dataset}')), None)
    return net


class SSDAnchorGenerator(nn.HybridBlock):
    """GluonCV's SSDAnchorGenerator: the anchors of map `index` (its constant `anchor_<index>`) for anchor `sizes`
    (this map's, the next one's), `ratios` (the first 1) and `step` pixels between cells, over an `alloc_size`
    grid centred at `offsets`; `clip` clips each coordinate to `im_size` (height, width) as GluonCV does."""

    def __init__(self, index, im_size, sizes, ratios, step, alloc_size=(128, 128), offsets=(0.5, 0.5), clip=False,
                 **kwargs):
        super().__init__(**kwargs)
        if len(im_size) != 2 or len(sizes) != 2:
            raise BadInputError(f'im_size is (height, width) and sizes (this map\'s, the next one\'s), not '
                                f'{im_size!r} and {sizes!r}')
        self._im_size, self._clip, self._index = tuple(im_size), clip, index
        self._sizes, self._ratios = (sizes[0], (sizes[0] * sizes[1]) ** 0.5), tuple(ratios)
        self.anchors = self.params.get_constant(f'anchor_{index}',
                                                ssd_anchors(sizes[0], sizes[1], ratios, step, alloc_size, offsets))

    @property
    def num_depth(self):
        """Anchors a cell."""
        return len(self._sizes) + len(self._ratios) - 1

    def hybrid_forward(self, F, x, anchors):
        a = anchors_like(F, anchors, x)
        if self._clip:
            h, w = self._im_size
            cx, cy, cw, ch = a.split(axis=-1, num_outputs=4)
            a = F.concat(cx.clip(0, w), cy.clip(0, h), cw.clip(0, w), ch.clip(0, h), dim=-1)
        return a
