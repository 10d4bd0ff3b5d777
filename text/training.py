"""What GluonNLP's training scripts import from `gluonnlp.utils` and `gluonnlp.metric`: gradient norms and
clipping, parameter and trainer-state files, seeds, files, version checks, and the masked-accuracy /
length-normalized-loss metrics (GluonNLP's Parallel is gluonzoo.parallel's, which GluonCV's utils share).

Files are written under a temporary name and renamed into place, so a failed save leaves the old file (or none);
`s3://` paths, which GluonNLP hands to boto3, are refused with one error (nothing here talks to S3).
"""
import glob as _glob
import os
import random
import tempfile
import warnings

import mxnet as mx
import numpy as np

from ..errors import BadInputError
from ..filesystem import check_version as _check_version, makedirs

__all__ = ['LengthNormalizedLoss', 'MaskedAccuracy', 'check_version',
           'clip_grad_global_norm', 'glob', 'grad_global_norm', 'load_parameters', 'load_states', 'mkdir', 'remove',
           'save_parameters', 'save_states', 'set_seed']

#: the GluonNLP release whose public API gluonzoo.nlp mirrors (nlp/gluonnlp_api.json)
GLUONNLP_API_VERSION = '0.10.0'


def check_version(min_version, warning_only=False, library=None):
    """AssertionError (or a warning) when `library` (a module with __version__; default: the GluonNLP API that
    gluonzoo.nlp provides, 0.10.0, since GluonNLP scripts pass GluonNLP version numbers) is older."""
    if library is None:
        _check_version(min_version, warning_only, version=GLUONNLP_API_VERSION, what='GluonNLP API (gluonzoo.nlp)')
    else:
        _check_version(min_version, warning_only, version=library.__version__, what=library.__name__)


# -- gradients ----------------------------------------------------------------------------------------------------
def _grads(parameters):
    """One gradient array a trainable parameter (its first device's: after the trainer's allreduce they agree)."""
    grads = [p.list_grad()[0] for p in parameters if p.grad_req != 'null']
    if not grads:
        raise BadInputError('grad_global_norm: none of the parameters has a gradient (all grad_req="null")')
    return grads


def grad_global_norm(parameters, max_norm=None):
    """The L2 norm over all the parameters' gradients, a (1,) NDArray. With `max_norm`: (norm, the divisor that
    brings it to max_norm (1 when already below; the norm ratio when that is not finite), whether it is finite),
    as GluonNLP returns them."""
    grads = _grads(parameters)
    ctx = grads[0].context
    total = mx.nd.add_n(*[mx.nd.sum(mx.nd.square(g.astype('float32'))).as_in_context(ctx).reshape((1,))
                          for g in grads]).sqrt()
    if max_norm is None:
        return total
    ratio = total / max_norm
    finite = mx.nd.contrib.isfinite(ratio)
    scale = mx.nd.where(finite, mx.nd.maximum(ratio, mx.nd.ones((1,), ctx=ctx)), ratio)
    return total, scale, finite


def clip_grad_global_norm(parameters, max_norm, check_isfinite=True):
    """Scale every gradient (on every device) so that their global norm is at most `max_norm`; returns the norm
    before clipping. A nan/inf norm is a warning with `check_isfinite` (the gradients are then undefined)."""
    total, scale, finite = grad_global_norm(parameters, max_norm)
    if check_isfinite and finite.asscalar() != 1:
        warnings.warn('nan or inf is detected in the gradients: clipping results will be undefined', stacklevel=2)
    inverse = 1 / scale
    for p in parameters:
        if p.grad_req != 'null':
            for g in p.list_grad():
                g *= inverse.as_in_context(g.context)
    return total


# -- files --------------------------------------------------------------------------------------------------------
def _local(path, what):
    path = os.fspath(path)
    if path.startswith('s3://'):
        raise BadInputError(f'{what}: {path} is on S3, which gluonzoo does not reach (GluonNLP uses boto3): copy it '
                            'to a local path first')
    return os.path.expanduser(path)


def save_atomically(save, filename, what):
    """`save(tmp)` to a temporary file beside `filename`, renamed into place; removed if save fails."""
    filename = _local(filename, what)
    folder = os.path.dirname(os.path.abspath(filename))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix='.' + os.path.basename(filename) + '.')
    os.close(fd)
    try:
        save(tmp)
        os.replace(tmp, filename)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def save_parameters(model, filename):
    """`model.save_parameters(filename)`, written under a temporary name first."""
    save_atomically(model.save_parameters, filename, 'save_parameters')


def load_parameters(model, filename, ctx=None, allow_missing=False, ignore_extra=False, cast_dtype=None):
    """`model.load_parameters` with GluonNLP's arguments (cast_dtype passed only when given)."""
    extra = {} if cast_dtype is None else {'cast_dtype': cast_dtype}
    model.load_parameters(_local(filename, 'load_parameters'), ctx=ctx, allow_missing=allow_missing,
                          ignore_extra=ignore_extra, **extra)


def save_states(trainer, fname):
    """`trainer.save_states(fname)` (the optimizer's state), written under a temporary name first."""
    save_atomically(trainer.save_states, fname, 'save_states')


def load_states(trainer, fname):
    trainer.load_states(_local(fname, 'load_states'))


def mkdir(dirname):
    """`mkdir -p`."""
    makedirs(_local(dirname, 'mkdir'))


def remove(filename):
    """Remove a file; one that is not there is fine."""
    try:
        os.remove(_local(filename, 'remove'))
    except FileNotFoundError:
        pass


def glob(url, separator=','):
    """The files matching any of the `separator`-separated patterns (each ~-expanded), in pattern order."""
    patterns = [url] if separator is None else url.split(separator)
    return [f for p in patterns for f in _glob.glob(os.path.expanduser(p.strip()))]


def set_seed(seed=0):
    """Seed Python's, NumPy's and MXNet's generators."""
    random.seed(seed)
    np.random.seed(seed)
    mx.random.seed(seed)


# -- metrics ------------------------------------------------------------------------------------------------------
class MaskedAccuracy(mx.metric.EvalMetric):
    """Accuracy over the positions where `masks` is non-zero (all without masks); predictions of the label's shape
    are ids, others are scores whose argmax over `axis` is taken."""

    def __init__(self, axis=1, name='masked-accuracy', output_names=None, label_names=None):
        super().__init__(name, axis=axis, output_names=output_names, label_names=label_names,
                         has_global_stats=True)
        self.axis = axis

    def update(self, labels, preds, masks=None):
        labels, preds = mx.metric.check_label_shapes(labels, preds, True)
        for label, pred, mask in zip(labels, preds, masks if masks is not None else [None] * len(labels)):
            if pred.shape != label.shape:
                pred = mx.nd.argmax(pred.astype('float32'), axis=self.axis)
            pred = pred.astype('int32').reshape((-1,))
            label = label.astype('int32').reshape((-1,))
            mx.metric.check_label_shapes(label, pred)
            hit = pred == label
            if mask is None:
                correct, count = hit.sum().asscalar(), label.size
            else:
                mask = mask.astype('int32').reshape((-1,))
                mx.metric.check_label_shapes(label, mask)
                correct, count = (hit * mask).sum().asscalar(), mask.sum().asscalar()
            self.sum_metric += correct
            self.global_sum_metric += correct
            self.num_inst += count
            self.global_num_inst += count


class LengthNormalizedLoss(mx.metric.EvalMetric):
    """The summed loss over the summed sequence lengths: `update([target, valid_length], loss)`; each may be one
    array (or number) or a list of them."""

    def __init__(self, axis=0, name='length-normalized-loss', output_names=None, label_names=None):
        super().__init__(name, axis=axis, output_names=output_names, label_names=label_names,
                         has_global_stats=True)

    def update(self, labels, preds):
        if not isinstance(labels, (list, tuple)) or len(labels) != 2:
            raise ValueError('LengthNormalizedLoss.update: labels must be [target sequence, valid length]')

        def total(values):
            return sum(float(v.sum().asscalar()) if hasattr(v, 'asscalar') else float(v)
                       for v in (values if isinstance(values, list) else [values]))
        length, loss = total(labels[1]), total(preds)
        self.num_inst += length
        self.global_num_inst += length
        self.sum_metric += loss
        self.global_sum_metric += loss
