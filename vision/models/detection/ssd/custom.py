"""GluonCV's `custom_ssd`: an SSD of one's own anchors (sizes, ratios, steps) and added maps (filters) on one of
the registered SSD bodies, optionally starting from GluonCV's checkpoint of that body and size."""
from .....errors import BadInputError
from .....registry import get_weights, load_checkpoint
from .....store import fetch
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
