"""GluonCV's SSD parts with its signatures: `custom_ssd`, an SSD of one's own anchors (sizes, ratios, steps) and
added maps (filters) on one of the registered SSD bodies, optionally starting from GluonCV's checkpoint of that body
and size; and `SSDAnchorGenerator`, one map's anchors as GluonCV's block."""
from .....errors import BadInputError
from .....registry import get_weights, load_weights
from .ssd import _EXPANDED, AnchorGenerator, _ssd

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
        load_weights(net, get_weights(f'ssd_{base_size}_{base_network_name}_{dataset}'))
    return net


class SSDAnchorGenerator(AnchorGenerator):
    """GluonCV's SSDAnchorGenerator over the SSDs' AnchorGenerator: the anchors of map `index` (its constant
    `anchor_<index>`) for anchor `sizes` (this map's, the next one's), `ratios` (the first 1) and `step` pixels
    between cells, over an `alloc_size` grid centred at `offsets`; `clip` clips each coordinate to `im_size`
    (height, width) as GluonCV does."""

    def __init__(self, index, im_size, sizes, ratios, step, alloc_size=(128, 128), offsets=(0.5, 0.5), clip=False,
                 **kwargs):
        if len(im_size) != 2 or len(sizes) != 2:
            raise BadInputError(f'im_size is (height, width) and sizes (this map\'s, the next one\'s), not '
                                f'{im_size!r} and {sizes!r}')
        super().__init__(sizes[0], sizes[1], ratios, step, alloc_size, offsets, f'anchor_{index}', **kwargs)
        self._im_size, self._clip = tuple(im_size), clip

    @property
    def num_depth(self):
        """Anchors a cell (GluonCV's name of num_anchors)."""
        return self.num_anchors

    def hybrid_forward(self, F, x, anchors):
        a = super().hybrid_forward(F, x, anchors)
        if self._clip:
            h, w = self._im_size
            cx, cy, cw, ch = a.split(axis=-1, num_outputs=4)
            a = F.concat(cx.clip(0, w), cy.clip(0, h), cw.clip(0, w), ch.clip(0, h), dim=-1)
        return a
