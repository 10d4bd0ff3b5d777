"""INT8: `quantize(net, calib_data)` turns a Gluon net into MXNet's oneDNN INT8 graph, calibrated on real inputs.

    >>> net = gz.get_model('mobilenetv2_1.0', pretrained=True)             # doctest: +SKIP
    >>> qnet = gz.quantize(net, photos, calib_mode='entropy', exclude=('conv0', 'dense'))   # doctest: +SKIP

A wrapper of `mx.contrib.quantization.quantize_net_v2`: the net is fused (conv + BN + activation) and its convs and
dense layers run in INT8 with per-layer thresholds measured on the calibration data ('naive': the min/max seen;
'entropy': the threshold that keeps the KL divergence to the fp32 histogram smallest; it clips the rare large
activations, which cost MobileNetV2 more than naive's coarser steps: docs/vision.md "INT8").
What it asks of its caller is checked here, because MXNet's own checks fail late with messages about its
internals: calibration data must exist and fit the net. `calib_data` is one batch (NDArray or numpy, N x input
shape), or an iterable of batches or of (batch, label, ...) tuples (a gluon DataLoader, a list), or of single
samples. The result is a new SymbolBlock (inference only) carrying the net's `weights` and `classes`.
"""
import logging

from .errors import BadInputError, GluonzooError

log = logging.getLogger(__name__)

MODES = ('naive', 'entropy')
DTYPES = ('auto', 'int8', 'uint8')


def quantize(net, calib_data, calib_mode='naive', exclude=(), num_calib_batches=None, quantized_dtype='auto',
             exclude_operators=()):
    """The INT8 SymbolBlock of `net` calibrated on `calib_data` (see the module docstring for its forms).

    `exclude`: layers kept in fp32, each a substring of their symbol names (e.g. 'conv0' for the first conv,
    'dense' for the classifier); `exclude_operators`: MXNet operator names kept in fp32 (e.g. 'Concat').
    `num_calib_batches`: calibrate on the first that many batches only. `net` itself is left hybridized, unfused.
    """
    import mxnet as mx
    import numpy as np
    from .optimizing import _first_line, backend_available

    if calib_mode not in MODES:
        raise BadInputError(f'calib_mode={calib_mode!r}: use one of {", ".join(MODES)}')
    if quantized_dtype not in DTYPES:
        raise BadInputError(f'quantized_dtype={quantized_dtype!r}: use one of {", ".join(DTYPES)}')
    if not backend_available(mx.cpu()):
        raise GluonzooError('this MXNet build has no oneDNN backend (a GPU build?): INT8 quantization needs the CPU '
                            'build, pip install gluonzoo[cpu]')
    exclude, exclude_operators = _names(exclude), _names(exclude_operators)
    w = getattr(net, 'weights', None)
    batches = calibration_batches(calib_data, w.input_shape if w is not None else None, num_calib_batches)
    data = mx.nd.array(batches[0][:1])
    try:
        net(data)  # the shape checks above cannot know a net without a record
    except mx.base.MXNetError as e:
        raise BadInputError(f'calibration images of shape {batches[0].shape[1:]} do not fit the net '
                            f'({_first_line(e)}): pass batches of what the net takes') from None
    stacked = np.concatenate(batches)
    calib = mx.io.NDArrayIter(stacked, batch_size=min(len(batches[0]), len(stacked)), last_batch_handle='pad',
                              data_name='data')
    qnet = mx.contrib.quantization.quantize_net_v2(
        net, quantized_dtype=quantized_dtype, quantize_mode='full', calib_mode=calib_mode, calib_data=calib,
        exclude_layers=[], exclude_layers_match=list(exclude),  # lists: MXNet appends to them
        exclude_operators=list(exclude_operators), num_calib_examples=len(stacked), ctx=mx.cpu(), logger=None)
    qnet.hybridize(static_alloc=True, static_shape=True)
    qnet.weights, qnet.classes = w, getattr(net, 'classes', None)
    qnet.int8 = {'calib_mode': calib_mode, 'calib_examples': len(stacked), 'exclude': tuple(exclude)}
    log.info('%s: INT8 (%s calibration on %d inputs)', getattr(w, 'name', type(net).__name__), calib_mode,
             len(stacked))
    return qnet


def calibration_batches(calib_data, input_shape=None, limit=None):
    """`calib_data` as a list of float32 numpy batches of one sample shape (`input_shape[1:]` when given); one
    BadInputError when there are none, or their shapes differ from the net's or from each other's."""
    import numpy as np
    if calib_data is None:
        raise BadInputError('quantize needs calibration data: a batch or a DataLoader of real inputs (a few hundred '
                            'images of the kind the net will see), preprocessed as for the net')
    sample = tuple(input_shape[1:]) if input_shape else None
    one = _as_numpy(calib_data)
    items = [one] if one is not None else calib_data
    batches = []
    for item in items:
        if limit is not None and len(batches) >= limit:
            break
        if isinstance(item, (tuple, list)) and item and _as_numpy(item) is None:
            item = item[0]  # (data, label, ...) from a DataLoader
        x = _as_numpy(item)
        if x is None:
            raise BadInputError(f'calibration data holds a {type(item).__name__}: pass NDArrays or numpy arrays')
        want = sample or (batches[0].shape[1:] if batches else None)
        if want is not None and x.shape == want:
            x = x[None]  # one sample
        elif want is None and len(x.shape) in (1, 3):  # a CHW image or a token vector on its own
            x = x[None]
        if want is not None and x.shape[1:] != want:
            raise BadInputError(f'calibration batch {len(batches)} has shape {x.shape}: the net takes (N, '
                                f'{", ".join(map(str, want))}); resize/crop the images as its preprocess says')
        if len(x):
            batches.append(x.astype(np.float32, copy=False))
    if not batches:
        raise BadInputError('quantize got empty calibration data: pass a batch or a DataLoader of real inputs')
    return batches


def _names(names):
    """A name or names as a tuple (a lone string is one name, not its letters)."""
    return (names,) if isinstance(names, str) else tuple(names)


def _as_numpy(x):
    """`x` as a numpy array when it is one (an NDArray or numpy array), else None."""
    import mxnet as mx
    import numpy as np
    if isinstance(x, mx.nd.NDArray):
        return x.asnumpy()
    if isinstance(x, np.ndarray):
        return x
    return None
