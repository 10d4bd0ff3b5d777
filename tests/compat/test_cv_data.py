"""gluonzoo.cv.data's datasets against GluonCV 0.10.5's: the same calls (tests/peers/cv_dataset_cases.py) over the
same VOC, COCO, .lst/.rec and ImageNet folders give the same images (NDArrays), labels, lengths and classes,
GluonCV's subclassing hooks (CLASSES, index_map) and Gluon's transform_first included."""
import os
import shutil

import mxnet as mx
import numpy as np
import pytest

import gluonzoo.cv as gcv
from gluonzoo.errors import BadInputError
from gluonzoo.vision.data import VOCDetection as OurVOC, pack_detection

from ..peers import run_peer
from ..peers.cv_dataset_cases import cases
from ..vision.detection.test_data import BAD, CLEAN, write_coco, write_voc


@pytest.fixture(scope='module')
def both(tmp_path_factory):
    root = tmp_path_factory.mktemp('cvdata')
    rng = np.random.default_rng(0)
    write_voc(root / 'voc' / 'VOC2007', CLEAN, {'trainval': ['000001', '000002'], 'test': ['000003']}, rng)
    write_voc(root / 'voc' / 'VOC2012', {'2012_000001': CLEAN['000003']}, {'trainval': ['2012_000001']}, rng)
    write_voc(root / 'vocbad', {**CLEAN, **BAD}, {'all': sorted({**CLEAN, **BAD})}, rng)
    write_coco(root / 'coco', rng)
    pack_detection(OurVOC(root / 'voc', splits=(('2007', 'trainval'),)), root / 'packed', encoding='.png')
    for split, ids in (('train', ['000001', '000002', '000003']), ('val', ['000002'])):
        for k, image_id in enumerate(ids):
            folder = root / 'imagenet' / split / f'n0{k % 2}'
            folder.mkdir(parents=True, exist_ok=True)
            shutil.copy(root / 'voc' / 'VOC2007' / 'JPEGImages' / f'{image_id}.jpg', folder / f'{image_id}.JPEG')
    roots = {'voc': str(root / 'voc'), 'vocbad': str(root / 'vocbad'), 'coco': str(root / 'coco'),
             'lst': str(root / 'packed.lst'), 'rec': str(root / 'packed.rec'), 'imagenet': str(root / 'imagenet')}
    run_peer('gluoncv_datasets.py', root, [{'roots': roots, 'out': str(root / 'ref.npz')}], timeout=300)
    return cases(gcv.data, roots), dict(np.load(root / 'ref.npz')), roots


def test_datasets_give_gluoncvs_samples(both):
    ours, ref, _ = both
    assert sorted(ours) == sorted(ref)
    for name, want in ref.items():
        got = ours[name]
        if want.dtype.kind in 'US':
            assert got.tolist() == want.tolist(), name
        elif want.size == 0 and want.ndim == 1:  # an image without objects: GluonCV's label is (0,), ours (0, 6)
            assert got.shape == (0, 6), name
        else:
            assert got.shape == want.shape, name
            np.testing.assert_allclose(got, want, atol=1e-4, err_msg=name)
    assert ours['custom_base.len'] == 3  # 000004 and 000005 have boxes outside the picture
    assert ours['voc.len'] == 3 and ours['voclike_map.label0'][:, 4].tolist() == [1, 3]  # dog, person


def test_custom_voc_generates_its_classes_from_the_annotations(both, tmp_path):
    _, _, roots = both
    ds = gcv.data.CustomVOCDetection(generate_classes=True, root=roots['voc'], splits=((2007, 'trainval'),))
    assert ds.classes == ['car', 'dog', 'person'] and ds.num_class == 3
    # the labels index the generated classes (GluonCV's keep the VOC ids: its classes stay VOC's)
    assert [ds[i][1][:, 4].tolist() for i in range(len(ds))] == [[1, 2], [0]]
    assert gcv.data.CustomVOCDetectionBase.CLASSES == gcv.data.VOCDetection.CLASSES  # classes= is per dataset
    with pytest.raises(BadInputError, match='VOC2012/Annotations is missing'):
        gcv.data.CustomVOCDetection(generate_classes=True, root=str(tmp_path), splits=((2012, 'train'),))


def test_images_are_ndarrays_and_bad_roots_name_the_folder(both, tmp_path):
    _, _, roots = both
    img, label = gcv.data.VOCDetection(roots['voc'], splits=((2007, 'trainval'),))[0]
    assert isinstance(img, mx.nd.NDArray) and img.dtype == np.uint8 and label.shape[1] == 6
    with pytest.raises(BadInputError, match=f'{tmp_path}/VOC2007/Annotations is missing'):
        gcv.data.VOCDetection(str(tmp_path), splits=((2007, 'trainval'),))
    with pytest.raises(BadInputError, match='ImageNet wants root/train/<wnid>/'):
        gcv.data.ImageNet(str(tmp_path))
    coco = gcv.data.COCODetection(roots['coco'], splits=['instances_val2017', 'instances_val2017'])
    assert len(coco) == 2 * len(gcv.data.COCODetection(roots['coco']))
    with pytest.raises(ValueError, match='holds 2 splits'):
        coco.coco  # noqa: B018
    with pytest.raises(IndexError):
        coco[len(coco)]
    assert os.path.isdir(roots['voc'])
