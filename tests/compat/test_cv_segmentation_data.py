"""gluonzoo.cv.data's VOCSegmentation and ADE20KSegmentation against GluonCV 0.10's (the peers venv, one run) on
the same folders: every split and mode, the training crops under the same random.seed; bad inputs. The pictures are
PNG bytes under .jpg names, so both libraries decode the same pixels (JPEG decoders differ by a grey level or so);
images match within one grey level (Pillow's resampling redone in numpy), masks exactly."""
import io
import os
import random

import numpy as np
import pytest
from PIL import Image

from gluonzoo.cv import data
from gluonzoo.errors import BadInputError
from tests.peers import run_peer

SIZES = [(40, 60), (70, 50), (33, 33)]
BASE, CROP, SEED = 48, 32, 7
CASES = [['voc', 'train', 'train'], ['voc', 'val', 'val'], ['voc', 'val', 'testval'], ['voc', 'test', 'test'],
         ['ade', 'train', 'train'], ['ade', 'val', 'val'], ['ade', 'val', 'testval']]


def _png(array, palette=None):
    img = Image.fromarray(array.astype(np.uint8), 'P' if palette is not None else None)
    if palette is not None:
        img.putpalette(palette)
    buf = io.BytesIO()
    img.save(buf, format='PNG')
    return buf.getvalue()


@pytest.fixture(scope='module')
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp('seg')
    rng = np.random.RandomState(0)
    palette = [int(v) for v in rng.randint(0, 256, size=768)]
    voc = root / 'voc' / 'VOC2012'
    for sub in ('JPEGImages', 'SegmentationClass', 'ImageSets/Segmentation'):
        (voc / sub).mkdir(parents=True)
    ade = root / 'ade' / 'ADEChallengeData2016'
    for part in ('training', 'validation'):
        (ade / 'images' / part).mkdir(parents=True)
        (ade / 'annotations' / part).mkdir(parents=True)
    for i, (h, w) in enumerate(SIZES):
        photo = _png(rng.randint(0, 256, size=(h, w, 3)))
        (voc / 'JPEGImages' / f'im{i}.jpg').write_bytes(photo)
        mask = rng.randint(0, 21, size=(h, w))
        mask[rng.rand(h, w) < 0.1] = 255
        (voc / 'SegmentationClass' / f'im{i}.png').write_bytes(_png(mask, palette))
        for part in ('training', 'validation'):
            (ade / 'images' / part / f'ADE_{i}.jpg').write_bytes(photo)
            (ade / 'annotations' / part / f'ADE_{i}.png').write_bytes(_png(rng.randint(0, 151, size=(h, w))))
    lists = voc / 'ImageSets' / 'Segmentation'
    (lists / 'trainval.txt').write_text('im0\nim1\nim2\n')
    (lists / 'val.txt').write_text('im2\nim0\n')
    (lists / 'test.txt').write_text('im1\n')
    return root


@pytest.fixture(scope='module')
def ref(folders):
    run_peer('gluoncv_segmentation_data.py', folders, [dict(voc=str(folders / 'voc'), ade=str(folders / 'ade'),
                                                            base_size=BASE, crop_size=CROP, seed=SEED, cases=CASES)],
             timeout=120)
    return dict(np.load(folders / 'seg.npz'))


@pytest.mark.parametrize('dataset, split, mode', CASES)
def test_samples_are_gluoncvs(folders, ref, dataset, split, mode):
    cls, root = (data.VOCSegmentation, folders / 'voc') if dataset == 'voc' else (data.ADE20KSegmentation,
                                                                                  folders / 'ade')
    ds = cls(root=str(root), split=split, mode=mode, base_size=BASE, crop_size=CROP)
    # GluonCV's ADE20K order is os.listdir's; ours is by name: samples are matched by file name
    theirs = ref[f'{dataset}_{split}_{mode}_names'].tolist()
    assert sorted(os.path.basename(p) for p in ds.images) == sorted(theirs)
    for i in range(len(ds)):
        j = theirs.index(os.path.basename(ds.images[i]))
        random.seed(SEED + j)
        img, second = ds[i]
        key = f'{dataset}_{split}_{mode}_{j}'
        want = ref[key + '_img']
        assert img.dtype == want.dtype and img.shape == want.shape
        assert np.abs(img.asnumpy() - want).max() <= 1, key
        if mode == 'test':
            assert second == str(ref[key + '_name'])
        else:
            assert second.dtype == np.int32
            np.testing.assert_array_equal(second.asnumpy(), ref[key + '_mask'], err_msg=key)


def test_classes_and_helpers_are_gluoncvs(folders, ref):
    voc = data.get_segmentation_dataset('pascal_voc', root=str(folders / 'voc'), split='val')
    assert voc.num_class == 21 and voc.classes[0] == 'background' and voc.pred_offset == 0
    ade = data.ADE20KSegmentation(root=str(folders / 'ade'))
    assert ade.num_class == 150 == len(ade.classes) and ade.pred_offset == 1
    img = ade[0][0]
    assert [len(f) for f in data.ms_batchify_fn([(img, 'a'), (img, 'b')])] == ref['batch'].tolist()


def test_bad_inputs(folders, tmp_path):
    with pytest.raises(BadInputError, match='is not a folder'):
        data.VOCSegmentation(root=str(tmp_path / 'nowhere'))
    with pytest.raises(BadInputError, match='split'):
        data.VOCSegmentation(root=str(folders / 'voc'), split='trainval')
    with pytest.raises(BadInputError, match='mode'):
        data.VOCSegmentation(root=str(folders / 'voc'), mode='eval')
    with pytest.raises(BadInputError, match='is missing'):
        data.ADE20KSegmentation(root=str(folders / 'voc'))
    with pytest.raises(BadInputError, match='pascal_voc'):
        data.get_segmentation_dataset('coco')
