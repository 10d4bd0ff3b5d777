"""gluonzoo.cv's sub-packages that hold only what GluonCV's leaf modules import (ssd.target's matchers, rcnn's
coders, mobilenetv3's blocks, data.base): each name is the one object gluonzoo has, the rest of the package comes
from the package above, GluonCV's moved module names are the modules they name, and data.base's dataset bases
behave as GluonCV's."""
import mxnet as mx
import numpy as np
import pytest

import gluonzoo.cv as gcv
from gluonzoo.cv import data, model_zoo


def test_leaf_modules_hand_out_the_one_object():
    assert model_zoo.ssd.target.BipartiteMatcher is gcv.nn.matcher.BipartiteMatcher
    assert model_zoo.yolo.yolo_target.BBoxBatchIOU is gcv.nn.bbox.BBoxBatchIOU
    assert model_zoo.rcnn.rpn.rpn_target.SigmoidClassEncoder is gcv.nn.coder.SigmoidClassEncoder
    assert model_zoo.rcnn.faster_rcnn.rcnn_target.NormalizedPerClassBoxCenterEncoder is \
        gcv.nn.coder.NormalizedPerClassBoxCenterEncoder
    assert data.mscoco.keypoints.bbox_xywh_to_xyxy is gcv.utils.bbox.bbox_xywh_to_xyxy
    # what the sub-package lacks comes from the package above: the SSD builders are model_zoo's
    assert model_zoo.ssd.ssd_300_vgg16_atrous_voc is model_zoo.ssd_300_vgg16_atrous_voc
    assert model_zoo.ssd.presets.ssd_512_resnet50_v1_voc is model_zoo.ssd_512_resnet50_v1_voc
    assert model_zoo.rcnn.faster_rcnn.faster_rcnn_resnet50_v1b_voc is model_zoo.faster_rcnn_resnet50_v1b_voc
    assert model_zoo.ssd.vgg_atrous.vgg16_atrous_300 is model_zoo.vgg16_atrous_300
    with pytest.raises(AttributeError, match='not provided by gluonzoo'):
        model_zoo.yolo.yolo_target.YOLOV3TargetMerger


def test_moved_module_names_are_the_modules_gluoncv_leaves_there():
    assert model_zoo.anchor is model_zoo.ssd.anchor
    assert model_zoo.yolo3 is model_zoo.yolo.yolo3 and model_zoo.yolo3.yolo3_darknet53_voc is \
        model_zoo.yolo3_darknet53_voc
    assert model_zoo.rcnn_target is model_zoo.rcnn.mask_rcnn.rcnn_target


@pytest.mark.parametrize('name, want', [('relu', lambda x: np.maximum(x, 0)),
                                        ('relu6', lambda x: np.clip(x, 0, 6)),
                                        ('hard_sigmoid', lambda x: np.clip(x + 3, 0, 6) / 6),
                                        ('hard_swish', lambda x: x * np.clip(x + 3, 0, 6) / 6),
                                        ('swish', lambda x: x / (1 + np.exp(-x))),
                                        ('leaky', lambda x: np.where(x > 0, x, 0.375 * x))])
def test_mobilenetv3_activation_is_the_named_function(name, want):
    x = np.linspace(-8, 8, 33, dtype='float32')
    act = model_zoo.mobilenetv3.Activation(name)
    assert np.allclose(act(mx.nd.array(x)).asnumpy(), want(x), atol=1e-6)
    with pytest.raises(ValueError, match='unknown activation'):
        model_zoo.mobilenetv3.Activation('gelu2')


def test_make_divisible_rounds_up():
    assert [model_zoo.mobilenetv3.make_divisible(v) for v in (1, 8, 9, 16, 33.5)] == [8, 8, 16, 16, 40]
    assert model_zoo.mobilenetv3.make_divisible(10, 4) == 12


def test_vision_dataset_bases(tmp_path):
    with pytest.raises(OSError, match='is not a folder'):
        data.base.VisionDataset(str(tmp_path / 'missing'))

    class Shapes(data.base.VisionDataset):
        @data.base.ClassProperty
        def classes(cls):
            return ['square', 'circle']

    assert Shapes.classes == ['square', 'circle'] and Shapes(str(tmp_path)).num_class == 2
    with pytest.raises(NotImplementedError, match='must define classes'):
        data.base.VisionDataset(str(tmp_path)).num_class
    kp = data.base.KeyPointDataset(str(tmp_path))
    assert (kp.num_joints, kp.joint_pairs, kp.parent_joints) == (0, [], {})
    assert issubclass(data.VOCDetection, data.base.VisionDataset)
    assert issubclass(data.COCODetection, data.mscoco.keypoints.VisionDataset)
    assert issubclass(data.VOCSegmentation, data.pascal_voc.detection.VisionDataset)


def test_seg_eval_model_calls_evaluate_or_predict():
    net = model_zoo.FCN(3, backbone='resnet50', aux=True, pretrained_base=False, crop_size=32)
    net.collect_params().initialize()
    x = mx.nd.random.uniform(shape=(1, 3, 40, 24))
    assert model_zoo.segbase.SegEvalModel(net)(x[:, :, :32, :24]).shape == (1, 3, 32, 32)  # evaluate: crop size
    assert model_zoo.segbase.SegEvalModel(net, use_predict=True)(x).shape == (1, 3, 40, 24)  # predict: its own
    assert model_zoo.segbase.SegEvalModel(net).collect_params() is not None
    # MultiEvalModel takes GluonCV's positional order (module, nclass, ctx_list)
    evaluator = model_zoo.segbase.MultiEvalModel(net, 3, [mx.cpu()], False, [1.0])
    assert evaluator.scales == (1.0,) and evaluator.flip is False and evaluator(x[0]).shape == (1, 3, 40, 24)
