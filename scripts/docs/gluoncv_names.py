"""(peers venv) GluonCV 0.10.5's `get_model_list()` as JSON {name: task}, the task read from the module that defines
each builder (GluonCV keeps one module a family). Run by scripts/docs/model_zoo.py for its coverage table."""
import json

from gluoncv.model_zoo import model_zoo

#: module path prefix (after gluoncv.model_zoo.) -> task, first match wins; a top-level family module not listed
#: here is an image classifier (resnet, resnest, hrnet, ..., and pruned_resnet / yolo.darknet)
_TASKS = (
    ('quantized', 'int8'),
    ('action_recognition', 'action-recognition'),
    ('alpha_pose', 'pose-estimation'), ('simple_pose', 'pose-estimation'),
    ('rcnn.mask_rcnn', 'instance-segmentation'),
    ('rcnn', 'object-detection'), ('ssd', 'object-detection'), ('yolo.yolo3', 'object-detection'),
    ('center_net', 'object-detection'),
    ('fcn', 'semantic-segmentation'), ('pspnet', 'semantic-segmentation'), ('deeplabv3', 'semantic-segmentation'),
    ('danet', 'semantic-segmentation'), ('icnet', 'semantic-segmentation'), ('fastscnn', 'semantic-segmentation'),
    ('siamrpn', 'tracking'), ('monodepthv2', 'depth-estimation'),
)


def task_of(builder):
    module = builder.__module__.split('gluoncv.model_zoo.', 1)[1]
    return next((task for prefix, task in _TASKS if module.startswith(prefix)), 'image-classification')


if __name__ == '__main__':
    print(json.dumps({name: task_of(model_zoo._models[name]) for name in model_zoo.get_model_list()}))
