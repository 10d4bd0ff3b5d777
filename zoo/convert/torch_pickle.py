"""Read PyTorch checkpoints (zip and legacy formats) into numpy, without torch and without running pickled code.

A torch checkpoint is a pickle whose tensors point at raw storages kept beside it. Unpickling with the stdlib would
import and call whatever globals the file names, so the unpickler here resolves only an allow-list: the tensor and
parameter rebuild functions, the typed storage classes and OrderedDict. Anything else is refused by name.

Formats (facts from torch/serialization.py):
- zip (torch >= 1.6): `<root>/data.pkl` plus one member `<root>/data/<key>` of raw little-endian bytes per storage.
- legacy: five pickles in a row (magic number, protocol version, sys_info, the object, the list of storage keys),
  then for each key an int64 element count followed by the raw bytes.
"""
import collections
import io
import os
import pickle
import struct
import zipfile

import numpy as np

from ..errors import BadInputError, UnsafeCheckpointError

LEGACY_MAGIC = 0x1950A86A20F9469CFC6C

# torch.<Name>Storage -> numpy dtype; bfloat16 has no numpy dtype and is widened to float32 after reading.
STORAGE_DTYPES = {
    'FloatStorage': np.float32, 'DoubleStorage': np.float64, 'HalfStorage': np.float16,
    'BFloat16Storage': np.uint16, 'LongStorage': np.int64, 'IntStorage': np.int32, 'ShortStorage': np.int16,
    'CharStorage': np.int8, 'ByteStorage': np.uint8, 'BoolStorage': np.bool_,
}


class _StorageType:
    """Stands in for torch.<Name>Storage: only its name is needed."""

    def __init__(self, name):
        self.name = name


class _LazyTensor:
    """A tensor view on a storage that may not have been read yet (legacy files store data after the pickle)."""

    def __init__(self, storage, offset, size, stride):
        self.storage, self.offset, self.size, self.stride = storage, offset, tuple(size), tuple(stride)

    def materialize(self, storages):
        flat, is_bf16 = storages[self.storage]
        item = flat.itemsize
        # a crafted file could point a view past its storage; as_strided would then read foreign memory
        last = self.offset + sum((n - 1) * st for n, st in zip(self.size, self.stride) if n > 0)
        if self.offset < 0 or any(st < 0 for st in self.stride) or (all(self.size) and last >= len(flat)) \
                or (not self.size and self.offset >= len(flat)):
            raise BadInputError(f'a tensor of shape {self.size} at offset {self.offset} does not fit its storage '
                                f'of {len(flat)} elements: the checkpoint is corrupt')
        if not self.size:
            arr = flat[self.offset:self.offset + 1].reshape(())
        else:
            arr = np.lib.stride_tricks.as_strided(
                flat[self.offset:], shape=self.size, strides=[s * item for s in self.stride], writeable=False)
        arr = np.array(arr)  # own the memory, contiguous
        if is_bf16:
            arr = (arr.astype(np.uint32) << 16).view(np.float32)
        return arr


def _rebuild_tensor(storage, storage_offset, size, stride, *_):
    return _LazyTensor(storage, storage_offset, size, stride)


def _rebuild_parameter(data, *_):
    return data


_ALLOWED = {
    ('collections', 'OrderedDict'): collections.OrderedDict,
    ('torch._utils', '_rebuild_tensor'): _rebuild_tensor,
    ('torch._utils', '_rebuild_tensor_v2'): _rebuild_tensor,
    ('torch._utils', '_rebuild_parameter'): _rebuild_parameter,
    ('torch._utils', '_rebuild_parameter_with_state'): _rebuild_parameter,
}


class _AllowListUnpickler(pickle.Unpickler):
    def __init__(self, file, path):
        super().__init__(file)
        self.path = path
        self.storage_refs = {}  # key -> (dtype name, numel)

    def find_class(self, module, name):
        if (module, name) in _ALLOWED:
            return _ALLOWED[(module, name)]
        if module == 'torch' and name in STORAGE_DTYPES:
            return _StorageType(name)
        raise UnsafeCheckpointError(
            f'{self.path}: the checkpoint asks for the global {module}.{name}, which is not on the allow-list '
            '(tensor rebuild functions, storages, OrderedDict); refusing to load it: convert it with torch to a '
            'plain state_dict or safetensors first')

    def persistent_load(self, pid):
        if not isinstance(pid, tuple) or not pid or pid[0] != 'storage':
            raise UnsafeCheckpointError(f'{self.path}: unsupported persistent id {pid!r} in the checkpoint')
        storage_type, key, _location, numel = pid[1], str(pid[2]), pid[3], pid[4]
        if not isinstance(storage_type, _StorageType):
            raise BadInputError(f'{self.path}: storage of unknown type {storage_type!r}')
        self.storage_refs[key] = (storage_type.name, int(numel))
        return key


def load_torch_checkpoint(path):
    """Read a torch checkpoint into an ordered dict of name -> numpy array; nested dicts are joined with '.'.

    >>> load_torch_checkpoint('mobilenet_v2-b0353104.pth')['classifier.1.weight'].shape  # doctest: +SKIP
    (1000, 1280)
    """
    path = str(path)
    try:
        with open(path, 'rb') as f:
            head = f.read(4)
    except OSError as e:
        raise BadInputError(f'cannot read checkpoint {path}: {e.strerror or e}') from None
    try:
        if head.startswith(b'PK'):
            obj, storages = _load_zip(path)
        else:
            obj, storages = _load_legacy(path)
    # what a corrupt pickle or zip can raise while being read (MemoryError: a length field flipped to billions,
    # found by tests/fuzz; TypeError/IndexError/AttributeError: opcodes applied to the wrong stack items)
    except (pickle.UnpicklingError, EOFError, struct.error, zipfile.BadZipFile, KeyError, ValueError, MemoryError,
            OverflowError, TypeError, IndexError, AttributeError, RecursionError) as e:
        if isinstance(e, (UnsafeCheckpointError, BadInputError)):
            raise
        raise BadInputError(f'{path} is not a readable torch checkpoint (truncated or corrupt?): {e}') from None
    out = collections.OrderedDict()
    _flatten(obj, '', storages, out)
    if not out:
        raise BadInputError(f'{path} holds no tensors')
    return out


def _flatten(obj, prefix, storages, out):
    if isinstance(obj, _LazyTensor):
        out[prefix[:-1]] = obj.materialize(storages)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            _flatten(v, f'{prefix}{k}.', storages, out)


def _as_flat(raw, dtype_name, numel, path, key):
    dtype = np.dtype(STORAGE_DTYPES[dtype_name]).newbyteorder('<')
    if len(raw) < numel * dtype.itemsize:
        raise BadInputError(f'{path}: storage {key} is truncated ({len(raw)} of {numel * dtype.itemsize} bytes)')
    return np.frombuffer(raw, dtype=dtype, count=numel), dtype_name == 'BFloat16Storage'


def _load_zip(path):
    with zipfile.ZipFile(path) as zf:
        pkl = [n for n in zf.namelist() if n.endswith('/data.pkl') or n == 'data.pkl']
        if not pkl:
            raise BadInputError(f'{path} is a zip file but not a torch checkpoint (no data.pkl)')
        root = pkl[0][:-len('data.pkl')]
        up = _AllowListUnpickler(io.BytesIO(zf.read(pkl[0])), path)
        obj = up.load()
        storages = {key: _as_flat(zf.read(f'{root}data/{key}'), name, numel, path, key)
                    for key, (name, numel) in up.storage_refs.items()}
    return obj, storages


def _load_legacy(path):
    with open(path, 'rb') as f:
        def plain():
            return _AllowListUnpickler(f, path).load()
        if plain() != LEGACY_MAGIC:
            raise BadInputError(f'{path} is neither a zip nor a legacy torch checkpoint (wrong magic number)')
        plain()  # protocol version
        sys_info = plain()
        if isinstance(sys_info, dict) and not sys_info.get('little_endian', True):
            raise BadInputError(f'{path} was written on a big-endian machine; that is not supported')
        up = _AllowListUnpickler(f, path)
        obj = up.load()
        keys = plain()
        storages = {}
        for key in keys:
            key = str(key)
            name, numel = up.storage_refs[key]
            count = struct.unpack('<q', f.read(8))[0]
            itemsize = np.dtype(STORAGE_DTYPES[name]).itemsize
            left = os.fstat(f.fileno()).st_size - f.tell()
            if not 0 <= count * itemsize <= left:
                raise BadInputError(f'{path}: storage {key} claims {count} elements, more than the file has left')
            storages[key] = _as_flat(f.read(count * itemsize), name, count, path, key)
    return obj, storages
