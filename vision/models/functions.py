"""Every registered vision model as a function of its own name, the way GluonCV's model_zoo spells them
(`resnet50_v1b()`, `ssd_512_resnet50_v1_voc(pretrained=True)`, `mobilenet1_0()`), and the registry's lists of
names. Each function is made here from the registry, not written out: `fn(pretrained=False, ctx=None, root=None,
**kwargs)` is `get_model(<its registered name>, pretrained=pretrained, ctx=ctx, root=root, **kwargs)`.

    from gluonzoo.vision.models.functions import resnet50_v1b, gluoncv_function_name
    net = resnet50_v1b(classes=10)           # a fresh ResNet-50 v1b with a 10-way head
    gluoncv_function_name('mobilenetv2_1.0') # 'mobilenet_v2_1_0'
"""
import re
import sys

from ...registry import get_model, list_models

#: registered names whose GluonCV function is not the name with '.' -> '_' (GluonCV's own spellings, typo included)
_SPELLED = {'inceptionv3': 'inception_v3', 'xception': 'get_xcetption', 'xception71': 'get_xcetption_71'}
#: registered names GluonCV does not have: the registry serves them, but they get no GluonCV-style function
_OURS_ONLY = ('efficientnet_lite0', 'fcn_mobilenetv2_1.0', 'ssd_128_mobilenetv2_1.0_scenes', 'yolo3_tiny_darknet_coco')


def gluoncv_function_name(name):
    """The name of GluonCV's function that builds registered model `name`."""
    if name in _SPELLED:
        return _SPELLED[name]
    if re.match(r'(fcn|psp|deeplab)_', name) and not name.endswith('_int8'):
        return 'get_' + name  # GluonCV's segmentation functions: get_fcn_resnet50_voc
    mobilenet = re.fullmatch(r'mobilenetv([23])_(.+)', name)
    if mobilenet:
        return f'mobilenet_v{mobilenet[1]}_{mobilenet[2]}'.replace('.', '_')
    pruned = re.fullmatch(r'(resnet\d+_v1[bd])_0\.(\d+)', name)
    if pruned:
        return f'{pruned[1]}_{pruned[2]}'  # resnet50_v1d_0.86 -> resnet50_v1d_86
    return name.replace('.', '_')


def model_function(name, function_name=None):
    """A function `function_name(pretrained=False, ctx=None, root=None, **kwargs)` that builds registered `name`."""
    function_name = function_name or gluoncv_function_name(name)

    def build(pretrained=False, *, ctx=None, root=None, **kwargs):
        return get_model(name, pretrained=pretrained, ctx=ctx, root=root, **kwargs)
    build.__name__ = build.__qualname__ = function_name
    build.__module__ = __name__
    build.__doc__ = (f'The registered model {name!r}: get_model({name!r}, pretrained=pretrained, ctx=ctx, '
                     f'root=root, **kwargs).\n\n`pretrained` is False, True (the default checkpoint) or a tag; '
                     f'`ctx` defaults to the CPU; `root` is the cache folder (default $GLUONZOO_HOME/models); '
                     f'`classes` and the builder\'s options go in **kwargs.')
    return build


def get_model_list():
    """Every registered vision model name, sorted (what get_model builds)."""
    return list_models(task='vision')


def pretrained_model_list():
    """The registered vision model names that have published weights (get_model(name, pretrained=True))."""
    return list_models(task='vision', pretrained=True)


#: {GluonCV function name: registered model name} of the functions below
FUNCTIONS = {gluoncv_function_name(n): n for n in get_model_list() if n not in _OURS_ONLY}
_module = sys.modules[__name__]
for _fn, _name in FUNCTIONS.items():
    setattr(_module, _fn, model_function(_name, _fn))
del _module, _fn, _name

__all__ = ['get_model', 'get_model_list', 'pretrained_model_list', 'gluoncv_function_name', 'model_function',
           *sorted(FUNCTIONS)]
