"""RecordIO image datasets (.rec + .idx, MXNet's im2rec format) through `mx.recordio`, and the packer behind
scripts/vision/pack_rec.py.

A record is `mx.recordio.pack(IRHeader(flag=0, label, id, 0), encoded image bytes)`; the .idx file maps record
ids to byte offsets, so samples are read at random and by several DataLoader workers.
"""
import contextlib
import os

import cv2
import numpy as np
from mxnet.gluon.data import Dataset

from ...errors import BadInputError
from ..image import decode_rgb, read_image


class ImageRecordDataset(Dataset):
    """(image, label) samples of `path.rec` with its index `path.idx` (or `idx=` elsewhere)."""

    def __init__(self, rec, idx=None, transform=None):
        import mxnet as mx
        rec = os.fspath(rec)
        idx = os.fspath(idx) if idx else os.path.splitext(rec)[0] + '.idx'
        if not os.path.isfile(rec):
            raise BadInputError(f'{rec} does not exist')
        if not os.path.isfile(idx):
            raise BadInputError(f'{rec} has no index {idx}: repack with `python scripts/vision/pack_rec.py` or '
                                f'rebuild the .idx with MXNet\'s tools/rec2idx.py')
        self.rec, self.idx, self._transform = rec, idx, transform
        self._io = mx.recordio.MXIndexedRecordIO(idx, rec, 'r')  # reopens itself in forked workers
        self.keys = list(self._io.keys)

    def __len__(self):
        return len(self.keys)

    def __getitem__(self, i):
        import mxnet as mx
        header, data = mx.recordio.unpack(self._io.read_idx(self.keys[i]))
        img = decode_rgb(data)
        if img is None:
            raise BadInputError(f'{self.rec}: record {self.keys[i]} does not hold a decodable image')
        label = header.label if np.isscalar(header.label) else header.label[0]
        return (self._transform(img) if self._transform else img), int(label)


@contextlib.contextmanager
def packing(prefix):
    """(record writer, .lst file) writing `prefix.rec`, `prefix.idx` and `prefix.lst` under temporary names, renamed
    into place when the block ends; if it raises, every temporary file is removed: an interrupted run leaves no
    half-written .rec behind."""
    import mxnet as mx
    prefix = os.fspath(prefix)
    tmp = {ext: f'{prefix}.{ext}.part' for ext in ('rec', 'idx', 'lst')}
    writer = mx.recordio.MXIndexedRecordIO(tmp['idx'], tmp['rec'], 'w')
    try:
        with open(tmp['lst'], 'w') as lst:
            yield writer, lst
        writer.close()
    except BaseException:
        writer.close()
        for p in tmp.values():
            if os.path.exists(p):
                os.remove(p)
        raise
    for ext, p in tmp.items():
        os.replace(p, f'{prefix}.{ext}')


def pack(samples, prefix, resize=None, quality=95):
    """Write `prefix.rec`, `prefix.idx` and `prefix.lst` from (path, label) samples; returns the record count.

    Images are decoded (so unreadable files fail before anything is written), optionally resized so the shorter
    side is `resize`, and re-encoded as JPEG, through `packing` (nothing half-written is left behind).
    """
    import mxnet as mx
    from ..transforms.functional import resize_short
    n = 0
    with packing(prefix) as (writer, lst):
        for i, (path, label) in enumerate(samples):
            img = read_image(path)
            if resize:
                img = resize_short(img, resize)
            ok, buf = cv2.imencode('.jpg', cv2.cvtColor(img, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, quality])
            writer.write_idx(i, mx.recordio.pack(mx.recordio.IRHeader(0, float(label), i, 0), buf.tobytes()))
            lst.write(f'{i}\t{float(label)}\t{path}\n')
            n += 1
    return n
