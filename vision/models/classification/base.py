"""What every image classifier shares: the input check, `reset_class`, and named feature stages that detection,
segmentation and pose builders tap through `gluonzoo.registry.get_backbone` (timm's `features_only`).

A family declares `feature_info`: one `Stage(name, channels, stride)` per feature map a head can tap, `name` being
the structural path of the block whose output it is (`features.6`, `layer2`), and `stages()` lists the blocks from
the image to the last feature map in order, by the same names.
"""
import collections

import mxnet as mx
from mxnet.gluon import nn

from ....errors import BadInputError
from ....heads import _output_layer, reset_head

Stage = collections.namedtuple('Stage', 'name channels stride')


def saved_parameters(filename):
    """{structural name: shape} of a Gluon parameter file (the 'arg:'/'aux:' prefixes of exported ones dropped)."""
    return {k.split(':', 1)[-1]: v.shape for k, v in mx.nd.load(str(filename)).items()}


class Classifier(nn.HybridBlock):
    """A classification net made of `stages()` run in order, then the head `output` (`head_name`).

    Subclasses set `in_channels`, `fixed_input` ((H, W) when a fixed-size pool or Dense needs it, else None),
    `input_stride` and `feature_info` (Stage tuples).
    """
    in_channels = 3
    fixed_input = None
    input_stride = 1  # sizes that agree with fixed_input after integer division by this are accepted too
    feature_info = ()
    head_name = 'output'
    classes = None  # class names, set by get_model from the weights record or by reset_class

    def stages(self):
        """[(name, block)] from the image to the last feature map, in order."""
        return [(f'features.{k}', b) for k, b in self.features._children.items()]

    def hybrid_forward(self, F, x):
        return self.output(self.features(x))

    def forward(self, x, *args):
        if isinstance(x, mx.nd.NDArray):
            self.check_input(x.shape)
        return super().forward(x, *args)

    def check_input(self, shape):
        """Raise BadInputError naming the expected shape when `shape` cannot run through this net."""
        want_hw, k = self.fixed_input, self.input_stride
        bad = len(shape) != 4 or shape[1] != self.in_channels or \
            (want_hw and [d // k for d in shape[2:]] != [d // k for d in want_hw])
        if bad:
            hw = 'x'.join(map(str, want_hw)) if want_hw else 'HxW'
            raise BadInputError(f'{type(self).__name__} takes batches of shape Nx{self.in_channels}x{hw} '
                                f'(NCHW), got {"x".join(map(str, shape))}; resize/convert the images '
                                f'(the weights record\'s preprocess says how)')

    def load_parameters(self, filename, ctx=None, allow_missing=False, ignore_extra=False, cast_dtype=False,
                        dtype_source='current'):
        """Gluon's load_parameters; a file whose head does not fit says which option would build a net it fits
        (`classes=N`, or the family's own, e.g. MobileNetV2's `head_bias`)."""
        try:
            return super().load_parameters(filename, ctx=ctx, allow_missing=allow_missing, ignore_extra=ignore_extra,
                                           cast_dtype=cast_dtype, dtype_source=dtype_source)
        except (AssertionError, ValueError) as e:
            hint = self._fitting_options(saved_parameters(filename))
            if not hint:
                raise
            raise BadInputError(f'{filename} does not fit this {type(self).__name__} '
                                f'({str(e).splitlines()[0].rstrip(".")}): it was saved from one built with {hint}; '
                                f'pass that to get_model') from None

    def _fitting_options(self, saved):
        """The builder options (text, e.g. 'classes=10') under which this net's head would fit the `saved`
        {structural name: shape} of a parameter file, or '' when the head is not what differs."""
        _, _, layer = _output_layer(self, self.head_name)
        own = {id(p): k for k, p in self._collect_params_with_prefix().items()}
        key = own.get(id(layer.weight))
        if key is None or key not in saved:
            return ''
        classes = saved[key][0]
        return f'classes={classes}' if classes != layer.weight.shape[0] else ''

    def reset_class(self, classes, reuse_weights=None):
        """A fresh output layer for `classes` (a count or a list of names), GluonCV's detection API: the rows of
        classes named in `reuse_weights` ({new: old} by name or index, or a list of names kept) are copied over."""
        self.classes = reset_head(self, self.head_name, classes, reuse_weights, self.classes)

    def feature_extractor(self, out_indices=None):
        """A block returning the stage feature maps of `out_indices` (positions in feature_info or stage names;
        default all)."""
        if not self.feature_info:
            raise ValueError(f'{type(self).__name__} declares no feature stages; features_only is not available')
        n, names = len(self.feature_info), [s.name for s in self.feature_info]
        picked = tuple(range(n)) if out_indices is None else tuple(out_indices)
        resolved = []
        for i in picked:
            if isinstance(i, str) and i in names:
                resolved.append(names.index(i))
            elif isinstance(i, int) and not isinstance(i, bool) and -n <= i < n:
                resolved.append(i % n)
            else:
                raise ValueError(f'out_indices {out_indices} out of range: {type(self).__name__} has {n} feature '
                                 f'stages {names} (channels {[s.channels for s in self.feature_info]})')
        if not resolved:
            raise ValueError(f'out_indices is empty: pick some of the feature stages {names}')
        return FeatureExtractor(self, sorted(set(resolved)))


class FeatureExtractor(nn.HybridBlock):
    """The stages of a Classifier up to the deepest requested one, returning a list of feature maps.

    `stages` holds one HybridSequential per returned map: the classifier's blocks after the previous tap up to
    this one (the structure GluonCV's YOLOv3 gives its darknet stages). It shares the classifier's parameters;
    the head is left out, so nothing unused sits in the hybridized graph. `names`, `channels` and `strides`
    describe the outputs.
    """

    def __init__(self, net, out_indices, **kwargs):
        super().__init__(**kwargs)
        info = [net.feature_info[i] for i in out_indices]
        self.names = [s.name for s in info]
        self.channels = [s.channels for s in info]
        self.strides = [s.stride for s in info]
        self.in_channels, self.fixed_input = net.in_channels, None
        self._check = net.check_input
        order = [name for name, _ in net.stages()]
        missing = [n for n in self.names if n not in order]
        if missing:
            raise ValueError(f'{type(net).__name__}: feature stage {missing[0]!r} is not one of its stages {order}')
        blocks = dict(net.stages())
        self.stages = nn.HybridSequential(prefix='')
        start = 0
        for name in self.names:
            end = order.index(name) + 1
            segment = nn.HybridSequential(prefix='')
            for block_name in order[start:end]:
                segment.add(blocks[block_name])
            self.stages.add(segment)
            start = end

    def forward(self, x, *args):
        if isinstance(x, mx.nd.NDArray) and len(x.shape) == 4 and x.shape[1] != self.in_channels:
            self._check(x.shape)
        return super().forward(x, *args)

    def hybrid_forward(self, F, x):
        outs = []
        for segment in self.stages:
            x = segment(x)
            outs.append(x)
        return outs


def last_per_stride(candidates):
    """feature_info from (stage name, channels, cumulative stride) candidates: the deepest one at each stride."""
    out = {}
    for name, channels, stride in candidates:
        out[stride] = Stage(name, channels, stride)
    return [out[s] for s in sorted(out)]
