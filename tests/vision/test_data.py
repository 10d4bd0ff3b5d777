"""Datasets on real files: an ImageFolder of real photos and Fashion-MNIST glyphs, RecordIO packed by the script,
and the Gluon DataLoader with workers."""
import os
import subprocess
import sys
import warnings
from importlib import resources

import cv2
import mxnet as mx
import numpy as np
import pytest

from gluonzoo.errors import BadInputError
from gluonzoo.vision import read_image
from gluonzoo.vision.data import FashionMNIST, ImageFolder, ImageNet, ImageRecordDataset, load_fashion_mnist
from gluonzoo.vision.transforms import from_preprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ASSETS = resources.files('gluonzoo.vision').joinpath('assets')


@pytest.fixture(scope='module')
def folder(tmp_path_factory):
    """photos/ (chelsea, coffee, rocket), glyphs/ (6 Fashion-MNIST test images as PNG), and two non-images."""
    root = tmp_path_factory.mktemp('folder')
    (root / 'photos').mkdir()
    (root / 'glyphs' / 'nested').mkdir(parents=True)
    for name in ('chelsea.jpg', 'coffee.jpg', 'rocket.jpg'):
        (root / 'photos' / name).write_bytes(ASSETS.joinpath(name).read_bytes())
    images, _ = load_fashion_mnist('test')
    for i in range(6):
        cv2.imwrite(str(root / 'glyphs' / ('nested' if i % 2 else '') / f'{i}.png'), images[i])
    (root / 'photos' / 'notes.txt').write_text('not an image')
    (root / 'glyphs' / 'Thumbs.db').write_bytes(b'\x00' * 64)
    return root


def test_image_folder_skips_non_images_once(folder):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        ds = ImageFolder(folder)
    msgs = [str(w.message) for w in caught]
    assert len(msgs) == 1 and 'skipped 2 non-image file(s)' in msgs[0] and 'notes.txt' in msgs[0]
    assert ds.classes == ['glyphs', 'photos'] and len(ds) == 9 and len(ds.skipped) == 2
    img, label = ds[len(ds) - 1]
    assert label == 1 and img.dtype == np.uint8 and img.shape[2] == 3
    glyph, label = ds[0]
    assert label == 0 and glyph.shape == (28, 28, 3)  # grayscale PNG read as RGB


def test_dataloader_with_workers_and_record_transform(folder):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        ds = ImageFolder(folder, transform=from_preprocess({'resize': 36, 'crop': 32}))
    loader = mx.gluon.data.DataLoader(ds, batch_size=4, num_workers=2)
    xs, ys = zip(*[(x.asnumpy(), y.asnumpy()) for x, y in loader])
    assert np.concatenate(xs).shape == (9, 3, 32, 32)
    assert np.concatenate(ys).tolist() == [0] * 6 + [1] * 3


def test_pack_and_read_recordio(folder, tmp_path):
    prefix = tmp_path / 'out' / 'data'
    p = subprocess.run([sys.executable, os.path.join(ROOT, 'scripts', 'vision', 'pack_rec.py'), str(folder),
                        str(prefix), '--quality', '100'], capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    assert '9 images, 2 classes (2 non-image skipped)' in p.stdout
    assert (tmp_path / 'out' / 'data.classes.txt').read_text().split() == ['glyphs', 'photos']
    rec = ImageRecordDataset(str(prefix) + '.rec')
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        ds = ImageFolder(folder)
    assert len(rec) == len(ds)
    for i in (0, 8):
        (a, la), (b, lb) = rec[i], ds[i]
        assert la == lb and a.shape == b.shape and np.abs(a.astype(int) - b).mean() < 2.0  # JPEG q100
    loader = mx.gluon.data.DataLoader(ImageRecordDataset(str(prefix) + '.rec', transform=from_preprocess(
        {'resize': 32, 'crop': 32})), batch_size=3, num_workers=2)
    assert sum(y.shape[0] for _, y in loader) == 9


def test_gluon_dataset_transform_first(folder):
    """Gluon's `transform_first(fn)` (what GluonCV's classification scripts call), not hidden by our `transform=`."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        ds = ImageFolder(folder)
    for d in (ds, FashionMNIST('test')):
        img, label = d[0]
        moved = d.transform_first(lambda x: x.shape)
        assert moved[0] == (img.shape, label)
        assert d.transform(lambda x, y: y)[0] == label


def test_rec_without_idx_and_bad_images(folder, tmp_path):
    prefix = tmp_path / 'd'
    subprocess.run([sys.executable, os.path.join(ROOT, 'scripts', 'vision', 'pack_rec.py'), str(folder),
                    str(prefix)], check=True, capture_output=True, timeout=600)
    os.remove(str(prefix) + '.idx')
    with pytest.raises(BadInputError, match=r'd.rec has no index .*d.idx'):
        ImageRecordDataset(str(prefix) + '.rec')
    bad = tmp_path / 'bad' / 'cls'
    bad.mkdir(parents=True)
    (bad / 'ok.jpg').write_bytes(ASSETS.joinpath('coffee.jpg').read_bytes())
    (bad / 'cut.jpg').write_bytes(ASSETS.joinpath('coffee.jpg').read_bytes()[:300])  # JPEG header, no body
    p = subprocess.run([sys.executable, os.path.join(ROOT, 'scripts', 'vision', 'pack_rec.py'), str(bad.parent),
                        str(tmp_path / 'b')], capture_output=True, text=True, timeout=600)
    assert p.returncode == 1 and 'cut.jpg is not an image OpenCV can decode' in p.stderr
    assert not [f for f in os.listdir(tmp_path) if f.startswith('b.')]  # nothing half-written


def test_folder_errors(tmp_path):
    with pytest.raises(BadInputError, match='not a folder'):
        ImageFolder(tmp_path / 'missing')
    with pytest.raises(BadInputError, match='no class sub-folders'):
        ImageFolder(tmp_path)
    with pytest.raises(BadInputError, match='ImageNet wants root/train'):
        ImageNet(tmp_path, 'val')


def test_fashion_mnist_dataset_in_a_loader():
    ds = FashionMNIST('test', transform=lambda img: img.astype(np.float32)[None] / 255)
    x, y = next(iter(mx.gluon.data.DataLoader(ds, batch_size=16)))
    assert x.shape == (16, 1, 28, 28) and y.shape == (16,) and ds.classes[9] == 'Ankle boot'
