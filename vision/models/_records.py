"""What the vision families' weights records share: ImageNet preprocessing and the GluonCV-mirror record."""
from ...weights import GLUONCV_REPO, Source, Weights

#: GluonCV's ImageNet eval preset (presets.imagenet.transform_eval): resize short side 256 (bilinear), center crop 224
IMAGENET = dict(resize=256, crop=224, mean=(0.485, 0.456, 0.406), std=(0.229, 0.224, 0.225), layout='NCHW',
                color='RGB', scale=1 / 255.0, interp='linear')
#: Inception v3 is evaluated at 299 (GluonCV: resize 342 = 299 / 0.875)
IMAGENET_299 = dict(IMAGENET, resize=342, crop=299)


def gluoncv(arch, sha1, num_params, paper, default=True, preprocess=IMAGENET, metrics=None, **kwargs):
    """The record of a checkpoint GluonCV 0.10.5 publishes (sha1 from its model_store.py), fetched from its mirror.

    Top-1/top-5 are left empty unless GluonCV's model zoo table was at hand: no figure is copied unseen.
    """
    crop = preprocess['crop']
    return Weights(
        arch=arch, tag='gluoncv', default=default, task='image-classification', sha1=sha1, num_params=num_params,
        num_classes=1000, classes='imagenet1k', preprocess=preprocess, source=Source(kind='mirror', url=GLUONCV_REPO),
        recipe='GluonCV 0.10.5 scripts/classification/imagenet/train_imagenet.py', license='Apache-2.0 (GluonCV)',
        paper=paper, metrics=metrics or {}, input_shape=(1, 3, crop, crop), **kwargs)


def gluoncv_weights(arch, sha1s, params, paper, **kwargs):
    """[the GluonCV record of `arch`] when GluonCV publishes one (its sha1 in `sha1s`), else []."""
    return [gluoncv(arch, sha1s[arch], params[arch], paper, **kwargs)] if arch in sha1s else []


def register_arch(name, make, doc, weights=(), head='output', test_input=(1, 3, 32, 32), **options):
    """Register the builder `name`: make(classes=1000, in_channels=3, **options), each overridable by keyword.

    The builder gets an explicit signature (classes, in_channels, *options), so get_model names the options of
    an arch and refuses unknown ones; in_channels is protected for checkpoints.
    """
    import inspect
    from ...registry import register_model
    defaults = dict(classes=1000, in_channels=3, **options)

    def build(**kwargs):
        return make(**{**defaults, **kwargs})
    build.__name__ = build.__qualname__ = name.replace('.', '_')
    build.__module__ = make.__module__  # the family file: what tests group archs by
    build.__doc__ = doc
    build.__signature__ = inspect.Signature(
        [inspect.Parameter(k, inspect.Parameter.KEYWORD_ONLY, default=v) for k, v in defaults.items()])
    return register_model(name, task='image-classification', weights=list(weights), head=head,
                          protected=('in_channels',), test_input=test_input)(build)
