"""Plain JSON of the results of GluonNLP-style functions and batches, in both venvs. `jsonable`: tuples as lists,
namedtuples as dicts, numpy arrays as (shape, dtype, nonzero entries), dicts with tuple keys as sorted [key, value]
pairs; `lists`: arrays whole with their dtype. And the DatasetLoader dataset_fn both data-extras sides use."""
import numpy as np


def jsonable(x):
    if hasattr(x, '_asdict'):
        return {k: jsonable(v) for k, v in x._asdict().items()}
    if isinstance(x, np.ndarray):
        nz = np.nonzero(x)
        return {'shape': list(x.shape), 'dtype': str(x.dtype),
                'nonzero': [[*map(int, i), float(x[i])] for i in zip(*nz)]}
    if isinstance(x, dict):
        return sorted([jsonable(k), jsonable(v)] for k, v in x.items())
    if isinstance(x, (list, tuple)):
        return [jsonable(i) for i in x]
    if isinstance(x, (np.integer, np.floating, np.bool_)):
        return x.item()
    return x


def lists(x):
    """Plain JSON of NDArrays and numpy arrays ({dtype, value}, the dtype kept for the comparison), nested in
    lists and tuples: what the GluonNLP data tests compare batch by batch."""
    if hasattr(x, 'asnumpy'):  # an MXNet NDArray, without importing mxnet here
        x = x.asnumpy()
    if isinstance(x, np.ndarray):
        return {'dtype': str(x.dtype), 'value': x.tolist()}
    if isinstance(x, (list, tuple)):
        return [lists(i) for i in x]
    return x


def dataset_fn(urls):
    """A DatasetLoader dataset_fn for the .npy files test_nlp_data_extras.py writes: their rows, each labelled with
    whether `urls` came as one path (a str); module-level, so worker processes unpickle it on both sides."""
    import mxnet as mx
    paths = [urls] if isinstance(urls, str) else list(urls)
    x = np.concatenate([np.load(p) for p in paths])
    return mx.gluon.data.ArrayDataset(x, np.full(len(x), isinstance(urls, str), dtype='int32'))
