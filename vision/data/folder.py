"""Image datasets on folders: ImageFolder (one sub-folder a class) and the ImageNet train/val layout.

Files are recognised as images by their first bytes (JPEG, PNG, BMP, GIF, TIFF, WebP, PNM), not decoded up front;
anything else is skipped, counted in `skipped`, and named once in a warning.
"""
import os
import warnings

from mxnet.gluon.data import Dataset

from ...errors import BadInputError
from ..image import read_image

_MAGIC = (b'\xff\xd8\xff', b'\x89PNG', b'BM', b'GIF8', b'II*\x00', b'MM\x00*', b'P5', b'P6')


def looks_like_image(path):
    """Whether the file starts like an image format OpenCV decodes."""
    try:
        with open(path, 'rb') as f:
            head = f.read(12)
    except OSError:
        return False
    return head.startswith(_MAGIC) or (head[:4] == b'RIFF' and head[8:12] == b'WEBP')


class ImageFolder(Dataset):
    """`root/<class>/<file>` as (image, label) samples; classes are the sorted sub-folder names.

    `transform(img) -> x` is applied to the RGB uint8 image (e.g. `transforms.from_preprocess(record.preprocess)`).
    Gluon DataLoader friendly, multi-worker included: samples are read lazily by path.
    """

    def __init__(self, root, transform=None):
        root = os.fspath(root)
        if not os.path.isdir(root):
            raise BadInputError(f'{root} is not a folder; an ImageFolder is root/<class>/<image files>')
        self.root, self._transform = root, transform
        self.classes = sorted(d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d)))
        if not self.classes:
            raise BadInputError(f'{root} has no class sub-folders; an ImageFolder is root/<class>/<image files>')
        self.items, self.skipped = [], []
        for label, cls in enumerate(self.classes):
            folder = os.path.join(root, cls)
            for dirpath, _, files in sorted(os.walk(folder, followlinks=True)):
                for name in sorted(files):
                    path = os.path.join(dirpath, name)
                    (self.items.append((path, label)) if looks_like_image(path) else self.skipped.append(path))
        if self.skipped:
            names = ', '.join(os.path.relpath(p, root) for p in self.skipped[:5])
            more = f' and {len(self.skipped) - 5} more' if len(self.skipped) > 5 else ''
            warnings.warn(f'{root}: skipped {len(self.skipped)} non-image file(s): {names}{more}', stacklevel=2)
        if not self.items:
            raise BadInputError(f'{root} holds no image files under its class folders {self.classes[:5]}')

    def __len__(self):
        return len(self.items)

    def __getitem__(self, idx):
        path, label = self.items[idx]
        img = read_image(path)
        return (self._transform(img) if self._transform else img), label


class ImageNet(ImageFolder):
    """The ImageNet layout `root/{train,val}/<wnid>/*.JPEG`; sorted wnids give the standard 1000-class order."""

    def __init__(self, root, split='val', transform=None):
        if split not in ('train', 'val'):
            raise ValueError(f'ImageNet split {split!r} is not train or val')
        folder = os.path.join(os.fspath(root), split)
        if not os.path.isdir(folder):
            raise BadInputError(f'{folder} is missing: ImageNet wants root/train/<wnid>/ and root/val/<wnid>/ '
                                f'(val sorted into class folders)')
        super().__init__(folder, transform)
