"""The gluoncv.data dataset calls of tests/compat/test_cv_data.py, written once for both sides: `cases(data, roots)`
builds GluonCV's datasets through the module `data` (gluoncv.data in the peers venv, gluonzoo.cv.data in ours) over
the folders the test wrote and returns {case: numpy array}: every sample's image and label, lengths and classes."""
import numpy as np


def _all(out, name, ds):
    out[f'{name}.len'] = np.array(len(ds))
    for i in range(len(ds)):
        img, label = ds[i]
        out[f'{name}.image{i}'], out[f'{name}.label{i}'] = img.asnumpy(), np.asarray(label, np.float64)


def cases(data, roots):
    out = {}
    voc = data.VOCDetection(root=roots['voc'], splits=((2007, 'trainval'), (2012, 'trainval')))
    _all(out, 'voc', voc)
    out['voc.classes'] = np.array(voc.classes)

    class VOCLike(data.VOCDetection):  # GluonCV's "prepare a custom dataset" tutorial
        CLASSES = ['person', 'dog']

        def __init__(self, root, splits, transform=None, index_map=None, preload_label=True):
            super().__init__(root, splits, transform, index_map, preload_label)
    _all(out, 'voclike', VOCLike(roots['voc'], splits=((2007, 'trainval'),)))
    _all(out, 'voclike_map', VOCLike(roots['voc'], splits=((2007, 'trainval'),), index_map={'person': 3, 'dog': 1}))
    # GluonCV's custom-VOC base: (sub-folder, split) pairs, pictures with a box outside them left out
    _all(out, 'custom_base', data.CustomVOCDetectionBase(classes=['car', 'dog'], root=roots['vocbad'],
                                                         splits=[('', 'all')]))
    _all(out, 'custom', data.CustomVOCDetection(root=roots['voc'], splits=((2007, 'trainval'),)))
    sized = data.VOCDetection(roots['voc'], splits=((2007, 'trainval'),),
                              transform=lambda img, label: (img.astype('float32') / 2, label[:, :4]))
    _all(out, 'voc_transform', sized)
    first = voc.transform_first(lambda img: img[::2, ::3])
    out['voc_transform_first'] = first[0][0].asnumpy()
    for name, kwargs in (('coco', {}), ('coco_all', dict(skip_empty=False, use_crowd=False))):
        ds = data.COCODetection(root=roots['coco'], splits=['instances_val2017'], **kwargs)
        _all(out, name, ds)
        out[f'{name}.num_class'] = np.array(ds.num_class)
    inst = data.COCOInstance(root=roots['coco'], splits=['instances_val2017'])
    out['coco_inst.len'] = np.array(len(inst))
    out['coco_inst.aspect'] = np.array(inst.get_im_aspect_ratio())
    for i in range(len(inst)):
        img, label, segm = inst[i]
        out[f'coco_inst.image{i}'], out[f'coco_inst.label{i}'] = img.asnumpy(), np.asarray(label, np.float64)
        out[f'coco_inst.segm{i}'] = np.concatenate([np.vstack(p) for p in segm]) if segm else np.zeros((0, 2))
        out[f'coco_inst.polygons{i}'] = np.array([[len(p), sum(len(x) for x in p)] for p in segm])
    _all(out, 'lst', data.LstDetection(roots['lst']))
    _all(out, 'rec', data.RecordFileDetection(roots['rec']))
    for train in (True, False):
        ds = data.ImageNet(roots['imagenet'], train=train)
        _all(out, f'imagenet_{train}', ds)
        out[f'imagenet_{train}.synsets'] = np.array(ds.synsets)
    return out
