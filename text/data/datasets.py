"""Text datasets, sequence utilities, data streams and the dataset registry with GluonNLP 0.10's signatures.

>>> concat_sequence([['a', 'b'], [], ['c']])
['a', 'b', 'c']
>>> slice_sequence([1, 2, 3, 4, 5], 2, pad_last=True, pad_val=0)
[[1, 2], [3, 4], [5, 0]]
"""
import bisect
import glob
import io
import os
import queue
import threading
import warnings

import numpy as np
from mxnet.gluon import data

from ...errors import BadInputError
from ..vocab import Counter, count_tokens  # noqa: F401


# -- splitters and sequences ---------------------------------------------------------------------------------------
def line_splitter(s):
    """Split a string into lines (str.splitlines)."""
    return s.splitlines()


def whitespace_splitter(s):
    """Split a string at runs of whitespace (str.split)."""
    return s.split()


class Splitter:
    """Split a string at `separator` (str.split(separator); None: runs of whitespace)."""

    def __init__(self, separator=None):
        self._separator = separator

    def __call__(self, s):
        return s.split(self._separator)


def concat_sequence(sequences):
    """The items of all sequences in order, leaving out empty (falsy) items."""
    return [tok for seq in sequences for tok in seq if tok]


def _pad_length(n, length, overlap):
    if length <= overlap:
        raise BadInputError(f'length={length} needs to be larger than overlap={overlap}')
    step = length - overlap
    rest = (n - length) % step
    return step - rest if rest else 0


def slice_sequence(sequence, length, pad_last=False, pad_val='<pad>', overlap=0):
    """Cut `sequence` into windows of `length` items, consecutive windows sharing `overlap` items; the short
    tail is dropped, or padded with `pad_val` when `pad_last`."""
    if length <= overlap:
        raise BadInputError(f'length={length} needs to be larger than overlap={overlap}')
    if pad_last:
        sequence = sequence + [pad_val] * _pad_length(len(sequence), length, overlap)
    step = length - overlap
    count = (len(sequence) - length) // step + 1
    return [sequence[i * step:i * step + length] for i in range(count)]


def train_valid_split(dataset, valid_ratio=0.05, stratify=None):
    """(train, valid) SimpleDatasets, valid taking ceil(ratio * n) random samples (per class of `stratify`, a list
    of labels, when given). Uses numpy's global RNG in GluonNLP's order."""
    SimpleDataset = data.SimpleDataset
    if not 0.0 <= valid_ratio <= 1.0:
        raise BadInputError(f'valid_ratio={valid_ratio} should be in [0, 1]')
    if not stratify:
        n = len(dataset)
        n_valid = int(np.ceil(n * valid_ratio))
        order = np.arange(n)
        np.random.shuffle(order)
        return (SimpleDataset([dataset[order[i]] for i in range(n_valid, n)]),
                SimpleDataset([dataset[order[i]] for i in range(n_valid)]))
    if not isinstance(stratify, list):
        raise BadInputError('stratify should be a list of labels, one per sample')
    if len(stratify) != len(dataset):
        raise BadInputError(f'stratify has {len(stratify)} labels for {len(dataset)} samples')
    classes, digitized = np.unique(stratify, return_inverse=True)
    per_class = np.bincount(digitized)
    n_valid = np.ceil(valid_ratio * per_class).astype('int')
    train, valid = [], []
    labels = np.asarray(stratify)
    for c in range(len(classes)):
        ids = np.nonzero(labels == classes[c])[0]
        np.random.shuffle(ids)
        valid += [dataset[i] for i in ids[:n_valid[c]]]
        train += [dataset[i] for i in ids[n_valid[c]:]]
    np.random.shuffle(valid)
    np.random.shuffle(train)
    return SimpleDataset(train), SimpleDataset(valid)


# -- file datasets ---------------------------------------------------------------------------------------------------
def _read_text(filename, encoding):
    path = os.path.expanduser(filename)
    try:
        with io.open(path, 'r', encoding=encoding) as f:
            return f.read()
    except FileNotFoundError:
        raise BadInputError(f'{filename} does not exist: pass the path of a text file') from None


def _filenames(filename):
    return list(filename) if isinstance(filename, (tuple, list)) else [filename]



class TextLineDataset(data.SimpleDataset):
    """The lines of a text file, stripped of surrounding whitespace."""

    def __init__(self, filename, encoding='utf8'):
        super().__init__([line.strip() for line in io.StringIO(_read_text(filename, encoding))])

class TSVDataset(data.SimpleDataset):
    """Samples are lines (`sample_splitter`), fields split by `field_separator` (a tab), optionally only
    `field_indices`; the first `num_discard_samples` lines (a header) are skipped. A line with too few fields
    for `field_indices` is an error, or skipped with one warning when `allow_missing`."""

    def __init__(self, filename, encoding='utf8', sample_splitter=line_splitter, field_separator=Splitter('\t'),
                 num_discard_samples=0, field_indices=None, allow_missing=False):
        if not sample_splitter:
            raise BadInputError('TSVDataset needs a sample_splitter')
        self._field_indices = field_indices
        samples = []
        for name in _filenames(filename):
            lines = sample_splitter(_read_text(name, encoding))[num_discard_samples:]
            if not field_separator:
                samples += lines
                continue
            missing = 0
            for lineno, line in enumerate(lines, 1 + num_discard_samples):
                fields = field_separator(line)
                if field_indices and max(field_indices) >= len(fields) or \
                        field_indices and min(field_indices) < -len(fields):
                    if allow_missing:
                        missing += 1
                        continue
                    raise BadInputError(f'{name}: sample {lineno} has {len(fields)} field(s), field_indices '
                                        f'{list(field_indices)} need more: fix the row or pass '
                                        'allow_missing=True to skip such rows')
                samples.append([fields[i] for i in field_indices] if field_indices else fields)
            if missing:
                warnings.warn(f'{missing} incomplete samples in {name}')
        super().__init__(samples)

class CorpusDataset(data.SimpleDataset):
    """Samples (lines) of text files, each tokenized (whitespace) with optional `bos`/`eos` tokens;
    `flatten` joins them into one token list; empty samples are skipped unless `skip_empty=False`."""

    def __init__(self, filename, encoding='utf8', flatten=False, skip_empty=True, sample_splitter=line_splitter,
                 tokenizer=whitespace_splitter, bos=None, eos=None):
        if not sample_splitter:
            raise BadInputError('CorpusDataset needs a sample_splitter')
        out = []
        for name in _filenames(filename):
            samples = [s.strip() for s in sample_splitter(_read_text(name, encoding))]
            if tokenizer:
                samples = [([bos] if bos else []) + list(tokenizer(s)) + ([eos] if eos else [])
                           for s in samples if s or not skip_empty]
                if flatten:
                    samples = concat_sequence(samples)
            elif skip_empty:
                samples = [s for s in samples if s]
            out += samples
        super().__init__(out)

class ConcatDataset(data.Dataset):
    """The samples of several datasets, one after the other."""

    def __init__(self, datasets):
        self.datasets = datasets
        self.cum_sizes = np.cumsum([0] + [len(d) for d in datasets])

    def __getitem__(self, i):
        which = bisect.bisect_right(self.cum_sizes, i)
        return self.datasets[which - 1][i - self.cum_sizes[which - 1]]

    def __len__(self):
        return self.cum_sizes[-1]

class NumpyDataset(data.ArrayDataset):
    """The array of a .npy file, or the arrays of a .npz file (sorted by key) as the fields of each sample."""

    def __init__(self, filename, **kwargs):
        if not filename.endswith(('.npy', '.npz')):
            raise BadInputError(f'NumpyDataset reads .npy or .npz files, not {filename}')
        if not os.path.isfile(filename):
            raise BadInputError(f'{filename} does not exist')
        arrs = np.load(filename, **kwargs)
        self._keys = sorted(arrs.keys()) if filename.endswith('.npz') else None
        super().__init__(*([arrs[k] for k in self._keys] if self._keys else [arrs]))

    @property
    def keys(self):
        return self._keys

    def get_field(self, field):
        return self._data[self._keys.index(field)]


# -- streams ----------------------------------------------------------------------------------------------------------
class DataStream:
    """An iterable of samples (or of datasets); `transform(fn)` maps fn lazily (tuple samples are unpacked)."""

    def __iter__(self):
        raise NotImplementedError

    def transform(self, fn):
        return _TransformedStream(self, fn)


class SimpleDataStream(DataStream):
    """A DataStream over any re-iterable."""

    def __init__(self, iterable):
        self._stream = iterable

    def __iter__(self):
        return iter(self._stream)


class _TransformedStream(DataStream):
    def __init__(self, stream, fn):
        self._stream, self._fn = stream, fn

    def __iter__(self):
        it = iter(self._stream)

        def gen():
            for item in it:
                yield self._fn(*item) if isinstance(item, tuple) else self._fn(item)
        return gen()


class DatasetStream(DataStream):
    """A DataStream whose items are datasets (chunks of a large corpus)."""


def _glob_files(file_pattern):
    if not isinstance(file_pattern, str):
        raise BadInputError(f'file_pattern must be a str, got {type(file_pattern).__name__}')
    files = sorted(f for p in file_pattern.split(',') for f in glob.glob(os.path.expanduser(p.strip())))
    if not files:
        raise BadInputError(f'no file matches {file_pattern!r}')
    return files


class SimpleDatasetStream(DatasetStream):
    """One `dataset(file, **kwargs)` per file matching `file_pattern` (comma-separated globs), in the order of
    `file_sampler`: 'random', 'sequential' or a Sampler over the sorted file list."""

    def __init__(self, dataset, file_pattern, file_sampler='random', **kwargs):
        self._dataset, self._kwargs = dataset, kwargs
        self._files = _glob_files(file_pattern)
        self._file_sampler = self._sampler(file_sampler)

    def _sampler(self, sampler):
        if isinstance(sampler, data.Sampler):
            return sampler
        if sampler == 'random':
            return data.RandomSampler(len(self._files))
        if sampler == 'sequential':
            return data.SequentialSampler(len(self._files))
        raise BadInputError(f'file_sampler={sampler!r}: use "random", "sequential" or a Sampler')

    def __iter__(self):
        for i in self._file_sampler:
            yield self._dataset(self._files[i], **self._kwargs)


class PrefetchingStream(DataStream):
    """Read `num_prefetch` items of `stream` ahead in a background thread (worker_type='thread'; 'process' is
    accepted and also uses a thread)."""

    def __init__(self, stream, num_prefetch=1, worker_type='thread'):
        if num_prefetch < 1:
            raise BadInputError(f'num_prefetch={num_prefetch} must be at least 1')
        if worker_type not in ('thread', 'process'):
            raise BadInputError(f'worker_type={worker_type!r}: use "thread" or "process"')
        self._stream, self._num_prefetch = stream, num_prefetch

    def __iter__(self):
        q = queue.Queue(self._num_prefetch)
        done = object()

        def work():
            try:
                for item in self._stream:
                    q.put((item, None))
            except Exception as e:  # noqa: BLE001  handed to the consumer
                q.put((None, e))
            q.put((done, None))
        threading.Thread(target=work, daemon=True).start()
        while True:
            item, err = q.get()
            if err is not None:
                raise err
            if item is done:
                return
            yield item


# -- registry -----------------------------------------------------------------------------------------------------------
_DATASETS = {}
_DATASET_KWARGS = {}


def register(class_=None, **kwargs):
    """Register a dataset class under its lower-cased name, with the valid values of its arguments
    (`@register(segment=['train', 'test'])`), as gluonnlp.data.register."""
    import inspect

    def real(cls):
        params = inspect.signature(cls).parameters
        for name, values in kwargs.items():
            if name not in params:
                raise BadInputError(f'{name} is not an argument of {cls.__name__}: only its arguments register')
            if not isinstance(values, (list, tuple)):
                raise BadInputError(f'{name}={values!r} should be a list of the valid values')
        _DATASETS[cls.__name__.lower()] = cls
        _DATASET_KWARGS[cls] = kwargs
        return cls
    return real(class_) if class_ is not None else real


def create(name, **kwargs):
    """An instance of the registered dataset `name` (any case)."""
    cls = _DATASETS.get(str(name).lower())
    if cls is None:
        raise BadInputError(f'no dataset named {name!r}; registered: {", ".join(sorted(_DATASETS))}')
    return cls(**kwargs)


def list_datasets(name=None):
    """{name: valid argument values} of the registered datasets, or those of one dataset."""
    if name is not None:
        cls = _DATASETS.get(name.lower())
        if cls is None:
            raise BadInputError(f'no dataset named {name!r}; registered: {", ".join(sorted(_DATASETS))}')
        return _DATASET_KWARGS[cls]
    return {n: _DATASET_KWARGS[c] for n, c in _DATASETS.items()}
