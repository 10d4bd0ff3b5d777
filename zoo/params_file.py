"""Check an MXNet .params file's structure in Python before MXNet reads it.

`mx.nd.load` trusts the lengths a file states: fuzzing it with bit-flipped files (tests/fuzz) made it hang or
throw std::bad_alloc when a flipped bit turned a shape or name length into billions. This walks the same layout
(MXNet 1.9's NDArray::Save / dmlc::Stream) and checks every length against the file's size first, so a truncated
or corrupt file is one BadInputError naming the byte where it breaks:

    uint64 0x112 (list magic), uint64 reserved, uint64 array count, the arrays, uint64 name count, the names
    array:  uint32 magic (0xF993FAC9 v2, 0xF993FACA v3) or a legacy v1 shape; int32 storage type (0: dense);
            shape: int32 ndim, int64 dims (v1: uint32 ndim, uint32 dims); none-shaped arrays end there;
            int32 dev_type, int32 dev_id, int32 dtype flag, then the data: prod(dims) * itemsize bytes
    name:   uint64 length, that many bytes
"""
import os
import struct

from .errors import BadInputError

LIST_MAGIC = 0x112
V2_MAGIC, V3_MAGIC = 0xF993FAC9, 0xF993FACA
#: mshadow dtype flag -> bytes per element (float32, float64, float16, uint8, int32, int8, int64, bool, int16,
#: uint16, uint32, uint64, bfloat16)
ITEMSIZE = {0: 4, 1: 8, 2: 2, 3: 1, 4: 4, 5: 1, 6: 8, 7: 1, 8: 2, 9: 2, 10: 4, 11: 8, 12: 2}
MAX_NDIM = 32


class _Reader:
    """Reads the small fields and seeks over the data, so a 200 MB file costs a few hundred reads."""

    def __init__(self, f, size, path):
        self.f, self.size, self.pos, self.path = f, size, 0, path

    def fail(self, what):
        raise BadInputError(f'{self.path} is not a valid MXNet parameter file: {what} at byte {self.pos} of '
                            f'{self.size} (truncated or corrupt); fetch or save it again')

    def take(self, fmt):
        size = struct.calcsize(fmt)
        if self.pos + size > self.size:
            self.fail(f'it ends inside a {size}-byte field')
        values = struct.unpack('<' + fmt, self.f.read(size))
        self.pos += size
        return values if len(values) > 1 else values[0]

    def skip(self, n, what):
        if n < 0 or self.pos + n > self.size:
            self.fail(f'{what} claims {n} bytes, more than the file has left')
        self.pos += n
        self.f.seek(self.pos)


def _array(r):
    magic = r.take('I')
    if magic in (V2_MAGIC, V3_MAGIC):
        stype = r.take('i')
        if stype != 0:
            r.fail(f'storage type {stype} (only dense arrays are read)')
        ndim = r.take('i')
        dim_fmt = 'q'
    else:  # legacy v1: the magic was the shape's ndim
        ndim, dim_fmt = magic, 'I'
    if ndim == -1 or ndim == 0:  # an unknown (none) shape: nothing follows
        return
    if not 0 < ndim <= MAX_NDIM:
        r.fail(f'an array of {ndim} dimensions')
    dims = [r.take(dim_fmt) for _ in range(ndim)]
    if min(dims) < 0:
        r.fail(f'a negative dimension in shape {dims}')
    r.take('ii')  # context: dev_type, dev_id
    dtype = r.take('i')
    if dtype not in ITEMSIZE:
        r.fail(f'unknown dtype flag {dtype}')
    size = ITEMSIZE[dtype]
    for d in dims:
        size *= d
    r.skip(size, f'an array of shape {tuple(dims)}')


def check_params_file(path):
    """Raise BadInputError unless `path` is structurally a whole MXNet parameter (NDArray list) file."""
    try:
        with open(path, 'rb') as f:
            _check(_Reader(f, os.fstat(f.fileno()).st_size, path))
    except OSError as e:
        raise BadInputError(f'cannot read parameter file {path}: {e.strerror or e}') from None


def _check(r):
    if r.take('Q') != LIST_MAGIC:
        r.pos = 0
        r.fail('no NDArray-list header (0x112)')
    r.take('Q')
    count = r.take('Q')
    if count > r.size // 8:
        r.fail(f'{count} arrays claimed')
    for _ in range(count):
        _array(r)
    names = r.take('Q')
    if names not in (0, count):
        r.fail(f'{names} names for {count} arrays')
    for _ in range(names):
        r.skip(r.take('Q'), 'a parameter name')
    if r.pos != r.size:
        r.fail(f'{r.size - r.pos} bytes after the last name')
