"""One registry for every model, vision and text: register_model, get_model, list_models, get_weights.

A name is an architecture (`mobilenetv2_1.0`) or a checkpoint (`mobilenetv2_1.0.in1k`). `get_model` is the one
loading path: resolve the checkpoint, check the caller's options against it, build, fetch, load, and hand a
different class list to the model's own `reset_class`. Families register by decorating one builder per name;
the registry finds them through discovery.py, and checks each record against its task (gluonzoo.tasks).
"""
import dataclasses
import difflib
import fnmatch
import inspect
import re
import warnings
from typing import Callable, Dict, Tuple

from .discovery import discover
from .errors import BadInputError, UnknownModelError
from .tasks import get_task
from .weights import Weights

_HASHTAG = re.compile(r'^[0-9a-f]{8}$')


@dataclasses.dataclass
class ModelEntry:
    name: str
    builder: Callable
    task: str
    weights: Dict[str, Weights]
    protected: Tuple[str, ...]  # builder kwargs that define parameter shapes
    test_input: object  # a small input shape, or a callable returning the tuple of NDArrays to call the net with
    test_kwargs: Dict[str, object]  # builder kwargs that shrink the net for the registry-wide tests

    @property
    def domain(self):
        """The domain ('vision', 'text') whose task this model performs."""
        return get_task(self.task).domain

    def example_inputs(self):
        """The inputs the registry tests call the net with (its task makes them from `test_input`)."""
        return tuple(get_task(self.task).example_inputs(self))

    @property
    def default_weights(self):
        return next((w for w in self.weights.values() if w.default), None)

    def resolve(self, pretrained):
        """The Weights record for pretrained = True, a tag, or an 8-hex hashtag (None for False/None)."""
        if pretrained is None or pretrained is False:
            return None
        if not self.weights:
            raise UnknownModelError(f'{self.name} has no pretrained weights; use pretrained=False, or pick one of '
                                    f'list_models(pretrained=True)')
        if pretrained is True:
            return self.default_weights
        key = str(pretrained)
        if key in self.weights:
            return self.weights[key]
        same = [w for tag, w in self.weights.items() if tag.lower() == key.lower()]  # a tag in any case, too
        if same:
            return same[0]
        found = [w for w in self.weights.values() if _HASHTAG.match(key) and w.sha1.startswith(key)]
        if found:
            return found[0]
        raise UnknownModelError(f'{self.name} has no weights {key!r}; its tags are {sorted(self.weights)} '
                                f'(or give the first 8 hex digits of a sha1)')


_REGISTRY: Dict[str, ModelEntry] = {}


def register_model(name=None, *, task, weights=(), protected=(), test_input=(1, 3, 64, 64), test_kwargs=None):
    """Register the decorated builder under `name` (default: the function's name); a duplicate is an error.

    `task` is a registered task (gluonzoo.tasks). `weights` lists the Weights records of this arch, each of that
    task and checked against it (an unknown preprocess key is refused here); exactly one has default=True when
    there are any. `protected` names the options that change parameter shapes. `test_input` / `test_kwargs` give
    the registry-wide tests a small run. A model whose task has classes changes them with its own
    `reset_class(classes, reuse_weights=None)`.
    """
    spec = get_task(task)

    def deco(fn):
        key = name or fn.__name__
        if key in _REGISTRY:
            raise ValueError(f'model {key!r} is already registered (by {_REGISTRY[key].builder.__module__})')
        records = {}
        for w in weights:
            if w.arch != key:
                raise ValueError(f'weights {w.name} registered under arch {key}')
            if w.task != task:
                raise ValueError(f'weights {w.name} are for task {w.task!r}, the arch {key} for {task!r}')
            if w.tag in records:
                raise ValueError(f'{key} has two weights tagged {w.tag!r}')
            problems = spec.record_problems(w)
            if problems:
                raise ValueError(f'bad weights record {w.name}: ' + '; '.join(problems))
            records[w.tag] = w
        if records and sum(w.default for w in records.values()) != 1:
            raise ValueError(f'{key} must mark exactly one weights record default=True')
        _REGISTRY[key] = ModelEntry(key, fn, task, records, tuple(protected),
                                    test_input if callable(test_input) else tuple(test_input), dict(test_kwargs or {}))
        return fn
    return deco


def unregister_model(name):
    """Remove a model (tests register throwaway models and remove them)."""
    _REGISTRY.pop(name, None)


def _arch(name):
    """The registered arch spelled `name` in any case (GluonCV lower-cases the names it is given), or None."""
    if name in _REGISTRY:
        return name
    if not isinstance(name, str):
        return None
    return next((key for key in _REGISTRY if key.lower() == name.lower()), None)


def _entry(name):
    discover()
    key = _arch(name)
    if key is not None:
        return _REGISTRY[key], None
    arch, _, tag = name.rpartition('.')
    key = _arch(arch)
    if key is not None and tag:
        return _REGISTRY[key], tag
    candidates = list(_REGISTRY) + [w.name for e in _REGISTRY.values() for w in e.weights.values()]
    close = difflib.get_close_matches(str(name).lower(), candidates, n=3, cutoff=0.0)
    raise UnknownModelError(f'unknown model {name!r}; closest: {", ".join(close)} (see gluonzoo list)')


def get_entry(name):
    """The ModelEntry of an arch or checkpoint name."""
    return _entry(name)[0]


def get_weights(name, tag=None):
    """The Weights record of `arch` (its default), `arch.tag`, `arch.<hashtag>` or get_weights(arch, tag)."""
    entry, name_tag = _entry(name)
    w = entry.resolve(tag or name_tag or True)
    return w


def list_models(pattern=None, task=None, pretrained=None, tags=False):
    """Sorted registered names matching an fnmatch `pattern`, a `task`, and whether they have weights.

    `task` is a task name (`image-classification`) or a domain (`vision`, `text`). With tags=True the names are
    checkpoints (`arch.tag`) instead of architectures.
    """
    discover()
    out = []
    for entry in _REGISTRY.values():
        if task and task not in (entry.task, entry.domain):
            continue
        if pretrained is not None and bool(entry.weights) != bool(pretrained):
            continue
        names = [w.name for w in entry.weights.values()] if tags else [entry.name]
        out += [n for n in names if pattern is None or fnmatch.fnmatchcase(n, pattern)]
    return sorted(out)


def get_model(name, pretrained=False, classes=None, ctx=None, root=None, features_only=False, out_indices=None,
              **kwargs):
    """Build a registered model, loading its weights when `pretrained` is True, a tag or a hashtag.

    Without weights the net comes back uninitialized, as GluonCV's and GluonNLP's do: call `net.initialize(init,
    ctx=ctx)` next (parameters a builder filled itself, e.g. a `pretrained_base` backbone, are kept, with MXNet's
    "already initialized" warning for each). A name is found in any case (GluonCV lower-cases it).
    A checkpoint name (`arch.tag`) picks the weights whose shapes and options the net takes; they are loaded when
    pretrained is not False. `classes` is a count or a list of class names: a model of a task with classes is
    built with them; a pretrained one is loaded whole, then its own `reset_class(classes)` swaps in a fresh head
    when they differ from the checkpoint's (with a warning). `root` is the cache folder (default
    `$GLUONZOO_HOME/models`). `features_only=True` returns the backbone's stage feature maps (`out_indices` picks
    them, by position or name) after the full net was built and loaded strictly.
    """
    import mxnet as mx

    if out_indices is not None and not features_only:
        raise ValueError('out_indices selects feature maps: pass features_only=True with it')
    net, w, load, (names, count) = _construct(name, pretrained, classes, kwargs)
    ctx = ctx or mx.cpu()
    if not load:  # uninitialized, as GluonCV's and GluonNLP's: the caller's net.initialize(init) is the one that counts
        return _features(net, out_indices) if features_only else net
    load_weights(net, w, root, ctx)
    net.classes = list(w.classes) if w.classes else None
    if count is not None and (names != net.classes if names else count != w.num_classes):
        if not callable(getattr(net, 'reset_class', None)):
            raise ValueError(f'{type(net).__name__} ({w.name}) has no reset_class: its head cannot take '
                             f'classes={classes!r}; drop classes= or use pretrained=False')
        net.reset_class(names if names else count)
        warnings.warn(f'{w.name}: head re-initialized for classes={classes!r} (the checkpoint has '
                      f'{w.num_classes}); all other layers are pretrained', stacklevel=2)
    net.weights = w
    if features_only:
        net = _features(net, out_indices)
        net.weights = w
    return net


def load_weights(net, w, root=None, ctx=None):
    """Load the file of weights record `w` (fetched into `root`, verified) strictly into `net`: get_model's loading,
    for nets a caller built itself (GluonCV's custom_ssd / custom_yolov3 from a registered checkpoint)."""
    import mxnet as mx
    from . import store
    load_checkpoint(net, store.fetch(w, root=root), ctx or mx.cpu())


def initialize_unset(net, ctx=None):
    """Initialize every parameter that has no value and no deferred init yet, with its own or Gluon's default
    initializer, in parameter order, leaving alone the ones a builder filled (a pretrained backbone): what
    `net.initialize()` does, without its warning for each of those. Until issue 26 get_model(name) did this itself;
    the training recipes call it where they did, so their random draws, and so their logs, stay as they were."""
    import mxnet as mx
    for p in net.collect_params().values():
        if p._data is None and not p._deferred_init:
            p.initialize(ctx=ctx or mx.cpu())


def get_backbone(name, pretrained=True, out_indices=None, ctx=None, **kwargs):
    """The stage feature maps of registered classifier `name`, for a detection / segmentation / pose builder
    (GluonCV's `pretrained_base`): with `pretrained`, its default (or named) weights are loaded; without, the
    parameters are left for the model that holds the backbone to initialize."""
    if pretrained:
        return get_model(name, pretrained=pretrained, ctx=ctx, features_only=True, out_indices=out_indices, **kwargs)
    return _features(_construct(name, False, None, kwargs)[0], out_indices)


def _construct(name, pretrained, classes, kwargs):
    """(the built, uninitialized net, its weights record, whether to load it, (class names, count)) of a call."""
    entry, tag = _entry(name)
    if tag is not None and pretrained is not False and pretrained is not True:
        raise ValueError(f'{name} already names a checkpoint; pass pretrained=True, not {pretrained!r}')
    w = entry.resolve(tag or pretrained) if (tag or pretrained) else None
    load = w is not None and pretrained is not False
    options = _options(entry, w, kwargs)
    names, count = _classes(entry, classes)
    if count is not None and not load:
        # a builder that takes class names (GluonCV's detectors) gets placeholders for a bare count
        options['classes'] = (names or [f'class{i}' for i in range(count)]) if _takes_names(entry) else count
    elif w is not None and w.classes:
        options['classes'] = list(w.classes) if _takes_names(entry) else w.num_classes
    if load and 'pretrained_base' in inspect.signature(entry.builder).parameters:
        options.setdefault('pretrained_base', False)  # the checkpoint holds the backbone too (GluonCV's rule)
    net = _build(entry, options)
    if count is not None and not load:
        net.classes = list(options['classes']) if _takes_names(entry) else names
    return net, w, load, (names, count)


def _classes(entry, classes):
    """(class names or None, count or None) of a `classes=` argument, refusing what no head can take."""
    if classes is None:
        return None, None
    if not get_task(entry.task).has_classes:
        raise ValueError(f'{entry.name} is a {entry.task} model: it has no classes to set (classes={classes!r})')
    if isinstance(classes, bool) or not isinstance(classes, (int, list, tuple)):
        raise ValueError(f'classes= takes a count or a list of class names, not {classes!r}')
    if isinstance(classes, int):
        if classes < 1:
            raise ValueError(f'classes={classes} must be at least 1')
        return None, classes
    names = list(classes)
    if not names or not all(isinstance(c, str) and c for c in names):
        raise ValueError(f'classes= must be a non-empty list of class names (strings), not {classes!r}')
    return names, len(names)


def _takes_names(entry):
    """Whether the builder's `classes` option is a list of names (GluonCV's detectors) rather than a count."""
    p = inspect.signature(entry.builder).parameters.get('classes')
    return p is not None and isinstance(p.default, (list, tuple))


def _features(net, out_indices):
    """The stage feature maps of a vision classifier (its `feature_extractor`, sharing its parameters)."""
    make = getattr(net, 'feature_extractor', None)
    if make is None:
        raise ValueError(f'{type(net).__name__} declares no feature stages: features_only=True is for vision backbones')
    return make(out_indices)


def _options(entry, w, kwargs):
    """The builder kwargs: the checkpoint's config, then the caller's, refusing shape changes to a checkpoint."""
    options = dict(w.config) if w is not None else {}
    if w is not None:
        defaults = {k: p.default for k, p in inspect.signature(entry.builder).parameters.items()}
        for k in entry.protected:
            if k in kwargs and kwargs[k] != options.get(k, defaults.get(k)):
                raise ValueError(f'{w.name} was trained with {k}={options.get(k, defaults.get(k))!r}; '
                                 f'{k}={kwargs[k]!r} changes parameter shapes: drop it or use pretrained=False')
    options.update(kwargs)
    return options


def _build(entry, options):
    params = inspect.signature(entry.builder).parameters
    if not any(p.kind == p.VAR_KEYWORD for p in params.values()):
        unknown = sorted(set(options) - set(params))
        if unknown:
            close = difflib.get_close_matches(unknown[0], list(params), n=1)
            hint = f'did you mean {close[0]!r}? ' if close else ''
            raise ValueError(f'{entry.name} has no option {unknown[0]!r}; {hint}its options are '
                             f'{", ".join(params)}')
    return entry.builder(**options)


def load_checkpoint(net, path, ctx):
    """Load a Gluon .params file strictly into `net`: no missing, no extra parameters, the same shapes."""
    import mxnet as mx
    from .params_file import check_params_file
    check_params_file(path)  # lengths checked first: MXNet hangs or bad_allocs on some corrupt files
    try:
        loaded = mx.nd.load(str(path))
    except mx.base.MXNetError as e:
        raise BadInputError(f'{path} is not a readable MXNet parameter file: {str(e).splitlines()[0]}') from None
    loaded = {k.split(':', 1)[-1]: v for k, v in loaded.items()}  # 'arg:'/'aux:' prefixes of exported files
    params = net._collect_params_with_prefix()
    if loaded and not any('.' in k for k in loaded):  # keyed by full Gluon names (GluonCV's pruned nets), as MXNet's
        structural = {p.name: k for k, p in params.items()}  # own load_parameters accepts them
        loaded = {structural.get(k, k): v for k, v in loaded.items()}
    missing, extra = sorted(set(params) - set(loaded)), sorted(set(loaded) - set(params))
    if missing or extra:
        raise BadInputError(f'{path} does not fit {type(net).__name__}: missing {missing[:3]}, '
                            f'unexpected {extra[:3]} ({len(missing)} missing, {len(extra)} unexpected)')
    for k, p in params.items():
        if p.shape and all(p.shape) and tuple(p.shape) != loaded[k].shape:
            raise BadInputError(f'{path}: {k} has shape {loaded[k].shape}, the net wants {p.shape}')
        p._load_init(loaded[k], ctx)


def count_params(net):
    """Trainable parameters (BatchNorm running statistics excluded), as torchvision and timm count them."""
    return sum(p.data().size for p in net.collect_params().values() if p.grad_req != 'null')
