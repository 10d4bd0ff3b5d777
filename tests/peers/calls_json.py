"""Plain JSON for the results of GluonNLP-style pure functions, in both venvs: tuples as lists, namedtuples as
dicts, numpy arrays as (shape, dtype, nonzero entries) and dicts with tuple keys as sorted [key, value] pairs."""
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
