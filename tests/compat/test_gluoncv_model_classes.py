"""gluonzoo.cv.model_zoo's model classes with GluonCV's signatures: ResNetV1 / ResNetV2, SE_ResNetV1 / SE_ResNetV2 and
their blocks (thumbnail, last_gamma, use_se, norm_kwargs, custom depths), GoogLeNet, Xception65, DenseNet, VGG,
DarknetV3, ResNetV1b and its blocks (deep stem, dilated, avg_down), ResNext and its Block, SENet and SEBlock,
cifar_ResidualAttentionModel, SimplePoseResNet, MobilePose, CenterNet's DeconvResnet / DUCMobilenet, FCN / PSPNet /
DeepLabV3 / DeepLabWV3Plus, SSD's VGGAtrousExtractor (batch_norm), ResNetV1bSSD and SSDAnchorGenerator and
ShuffleNetV1/V2: GluonCV 0.10's parameter files (the peers venv, one run) load strictly and give its outputs,
imperative and hybridized."""
import importlib
from collections import OrderedDict

import mxnet as mx
import pytest

from gluonzoo.cv import model_zoo
from gluonzoo.errors import BadInputError
from tests.peers import run_peer
from tests.peers.gluoncv_model_classes import build
from tests.text.conftest import assert_outputs_match, saved_case

CASES = {
    'v1_basic_thumbnail': dict(net='ResNetV1', block='BasicBlockV1', args=[[1, 1], [8, 8, 16]],
                               kwargs=dict(classes=5, thumbnail=True), input=[2, 3, 16, 16]),
    'v1_bottleneck_se_last_gamma': dict(net='ResNetV1', block='BottleneckV1', args=[[1, 2], [8, 32, 64]],
                                        kwargs=dict(classes=4, last_gamma=True, use_se=True,
                                                    norm_kwargs={'epsilon': 1e-3}), input=[1, 3, 40, 40]),
    'v2_basic_se': dict(net='ResNetV2', block='BasicBlockV2', args=[[2, 1, 1], [16, 16, 32, 48]],
                        kwargs=dict(classes=3, use_se=True, thumbnail=True), input=[2, 3, 12, 12]),
    'v2_bottleneck': dict(net='ResNetV2', block='BottleneckV2', args=[[1, 1], [16, 32, 64]],
                          kwargs=dict(classes=6), input=[1, 3, 36, 36]),
    'se_v1_bottleneck': dict(net='SE_ResNetV1', block='SE_BottleneckV1', args=[[1, 1], [16, 32, 64]],
                             kwargs=dict(classes=3), input=[1, 3, 36, 36], module='se_resnet'),
    'se_v2_basic_thumbnail': dict(net='SE_ResNetV2', block='SE_BasicBlockV2', args=[[1, 1], [16, 16, 32]],
                                  kwargs=dict(classes=2, thumbnail=True), input=[2, 3, 10, 10], module='se_resnet'),
    'se_block_v1_basic': dict(block='SE_BasicBlockV1', args=[32, 2, True], kwargs=dict(in_channels=16),
                              input=[1, 16, 6, 6], module='se_resnet'),
    'se_block_v2_bottleneck': dict(block='SE_BottleneckV2', args=[32, 1, False], kwargs=dict(in_channels=32),
                                   input=[1, 32, 4, 4], module='se_resnet'),
    'googlenet': dict(net='GoogLeNet', args=[], kwargs=dict(classes=4, pretrained_base=False), input=[1, 3, 224, 224],
                      module='', init=0.05),
    'xception65': dict(net='Xception65', args=[], kwargs=dict(classes=3, output_stride=16), input=[1, 3, 32, 32],
                       module='', init=0.02),
    'densenet': dict(net='DenseNet', args=[16, 8, [2, 3]], kwargs=dict(bn_size=2, classes=5,
                                                                      norm_kwargs={'epsilon': 1e-3}),
                     input=[1, 3, 224, 224], module='', init=0.1),
    'vgg_bn': dict(net='VGG', args=[[1, 2], [8, 16]], kwargs=dict(classes=3, batch_norm=True), input=[1, 3, 32, 32],
                   module=''),
    'darknet': dict(net='DarknetV3', args=[[1, 2], [8, 16, 32]], kwargs=dict(classes=3), input=[1, 3, 16, 16],
                    module=''),
    'vgg_atrous_bn': dict(net='VGGAtrousExtractor', args=[[1, 1, 1, 1, 1], [8, 8, 16, 16, 16],
                                                          [[[8, 1, 1, 0], [16, 3, 2, 1]]]],
                          kwargs=dict(batch_norm=True), input=[1, 3, 40, 40], module='ssd', init=0.2),
    'shufflenet_v1': dict(net='ShuffleNetV1', args=[], kwargs=dict(groups=3, classes=3), input=[1, 3, 32, 32],
                          module='shufflenet', init=0.1),
    'shufflenet_v2': dict(net='ShuffleNetV2', args=[], kwargs=dict(classes=3), input=[1, 3, 32, 32],
                          module='shufflenet', init=0.1),
    'v1b_basic_deep_stem': dict(net='ResNetV1b', block='BasicBlockV1b', args=[[1, 1, 1, 1]],
                                kwargs=dict(classes=3, deep_stem=True, stem_width=16), input=[1, 3, 32, 32],
                                module='resnetv1b'),
    'v1b_bottleneck_dilated': dict(net='ResNetV1b', block='BottleneckV1b', args=[[1, 2, 1, 1]],
                                   kwargs=dict(classes=4, dilated=True, avg_down=True, deep_stem=True,
                                               last_gamma=True, norm_kwargs={'epsilon': 1e-3}),
                                   input=[1, 3, 32, 32], module='resnetv1b', init=0.1),
    'simple_pose_resnet18': dict(net='SimplePoseResNet', args=[], kwargs=dict(
        base_name='resnet18_v1b', num_joints=5, num_deconv_layers=2, num_deconv_filters=[32, 16],
        num_deconv_kernels=[4, 3], final_conv_kernel=3), input=[1, 3, 64, 48], module='', init=0.1),
    'mobile_pose_mobilenet': dict(net='MobilePose', args=['mobilenet0.25'], kwargs=dict(num_joints=4),
                                  input=[1, 3, 64, 64], module='', init=0.1),
    'deconv_resnet18': dict(net='DeconvResnet', args=[], kwargs=dict(
        base_network='resnet18_v1b', deconv_filters=[16, 8], deconv_kernels=[3, 2], pretrained_base=False),
        input=[1, 3, 64, 64], module='center_net.deconv_resnet', init=0.1),
    'duc_mobilenet': dict(net='DUCMobilenet', args=[], kwargs=dict(
        base_network='mobilenetv3_small', up_filters=[64, 32], up_scales=[2, 2], pretrained_base=False),
        input=[1, 3, 64, 64], module='center_net.duc_mobilenet', init=0.1),
    'custom_yolov3': dict(net='custom_yolov3', args=[
        'mobilenet0.25', [32, 16, 16], [[10, 13, 16, 30, 33, 23], [30, 61, 62, 45, 59, 119], [116, 90, 156, 198, 373,
                                                                                              326]],
        [8, 16, 32], ['cat', 'dog'], 'voc'], kwargs=dict(pretrained_base=False), input=[1, 3, 64, 64],
        module='', init=0.02),
    'custom_ssd': dict(net='custom_ssd', args=[
        'mobilenet0.25', 300, [64, 64, 32, 32], [21, 45, 99, 153, 207, 261, 315],
        [[1, 2, 0.5]] + [[1, 2, 0.5, 3, 1.0 / 3]] * 3 + [[1, 2, 0.5]] * 2, [8, 16, 32, 64, 100, 300], ['cat', 'dog'],
        'voc', False], kwargs={}, input=[1, 3, 96, 96], module='', init=0.05),
    'resnext_deep_stem': dict(net='ResNext', args=[[1, 1, 1, 1], 4, 4], kwargs=dict(
        classes=3, use_se=True, deep_stem=True, avg_down=True, stem_width=16, norm_kwargs={'epsilon': 1e-3}),
        input=[1, 3, 32, 32], module='resnext', init=0.1),
    'resnext_block': dict(block='Block', args=[16, 2, 4, 2, True], kwargs=dict(avg_down=True), input=[1, 32, 8, 8],
                          module='resnext'),
    'residual_attention_cifar': dict(net='cifar_ResidualAttentionModel', args=[[1, 1, 1], [1, 1, 1]],
                                     kwargs=dict(classes=4), input=[1, 3, 32, 32], module='residual_attentionnet',
                                     init=0.05),
    'senet': dict(net='SENet', args=[[1, 1, 1, 1], 4, 4], kwargs=dict(avg_down=True, classes=3), input=[1, 3, 32, 32],
                  module='senet', init=0.1),
    'se_block': dict(block='SEBlock', args=[64, 2, 4, 2, True, 1], kwargs={}, input=[1, 32, 8, 8], module='senet'),
    'ssd_anchors_clip': dict(net='SSDAnchorGenerator', args=[1, [64, 96], [30, 60], [1, 2, 0.5, 3], 8],
                             kwargs=dict(alloc_size=[16, 16], clip=True), input=[1, 4, 6, 7], module='ssd.anchor',
                             constants_only=True),
    'resnet34_v1b_ssd_bn': dict(net='ResNetV1bSSD', args=['resnet34_v1b', [64, 32]], kwargs=dict(
        use_bn=True, reduce_ratio=0.5, min_depth=16), input=[1, 3, 96, 96], module='ssd.resnet_v1b_ssd', init=0.05),
    'fcn_resnet50': dict(net='FCN', args=[3], kwargs=dict(backbone='resnet50', pretrained_base=False, crop_size=32),
                         input=[1, 3, 32, 32], module='', init=0.02),
    'psp_resnet50': dict(net='PSPNet', args=[2], kwargs=dict(backbone='resnet50', aux=False, pretrained_base=False,
                                                              crop_size=48), input=[1, 3, 48, 48], module='',
                         init=0.02),
    'deeplab_resnet50': dict(net='DeepLabV3', args=[4], kwargs=dict(backbone='resnet50', pretrained_base=False,
                                                                     crop_size=32, height=24, width=40),
                             input=[1, 3, 24, 40], module='', init=0.02),
    'deeplab_wideresnet': dict(net='DeepLabWV3Plus', args=[2], kwargs=dict(crop_size=32), input=[1, 3, 32, 32],
                               module='', init=0.02),
    'block_v1_downsample': dict(block='BasicBlockV1', args=[8, 2, True], kwargs=dict(in_channels=4),
                                input=[2, 4, 6, 6]),
    'block_v2_bottleneck_se': dict(block='BottleneckV2', args=[32, 1, True], kwargs=dict(in_channels=16, use_se=True),
                                   input=[1, 16, 5, 5]),
}


@pytest.fixture(scope='module')
def files(tmp_path_factory):
    out = tmp_path_factory.mktemp('model_classes_peer')
    run_peer('gluoncv_model_classes.py', out, [{'cases': CASES}], timeout=300)
    return out


@pytest.mark.parametrize('case', sorted(CASES))
def test_gluoncv_files_load_and_match(files, case):
    spec = CASES[case]
    sub = spec.get('module', 'resnet')
    net = build(importlib.import_module(f'gluonzoo.cv.model_zoo.{sub}') if sub else model_zoo, spec)
    if spec.get('constants_only'):  # a lone block of constants: both sides compute them (MXNet takes a file of one
        net.initialize()             # undotted name for its old full-name layout, so it would not load here)
    else:
        net.load_parameters(str(files / f'{case}.params'))
    assert_outputs_match(net, *saved_case(files / f'{case}.npz'))


def test_vgg_atrous_builders_are_gluoncvs():
    body = model_zoo.vgg16_atrous_300()
    assert len(body.extras) == 4 and len(model_zoo.ssd.vgg_atrous.vgg16_atrous_512().extras) == 5
    assert model_zoo.get_vgg_atrous_extractor(11, 300).stages[0][0].weight.shape[0] == 64
    with pytest.raises(BadInputError, match='depth one of'):
        model_zoo.get_vgg_atrous_extractor(12, 300)
    with pytest.raises(BadInputError, match='vgg16_atrous only, not vgg11_atrous'):
        model_zoo.get_vgg_atrous_extractor(11, 300, pretrained=True)


def test_segmentation_classes_start_as_gluoncvs():
    # GluonCV's constructors initialize the heads (10x learning rate) on ctx: a script calls the net right away
    net = model_zoo.FCN(5, backbone='resnet50', aux=False, pretrained_base=False, height=64, width=96)
    assert all(p.lr_mult == 10 for p in net.head.collect_params().values())
    net.collect_params().initialize()  # the body: GluonCV's pretrained_base=False leaves it to the user too
    assert net(mx.nd.zeros((1, 3, 64, 96)))[0].shape == (1, 5, 64, 96)
    # the registry's builders leave everything to the user's initializer
    registered = model_zoo.get_model('fcn_resnet50_voc', pretrained_base=False)
    assert all(p._data is None and p.lr_mult == 1 for p in registered.head.collect_params().values())


def test_resnetv1b_refuses_other_blocks():
    with pytest.raises(BadInputError, match='block BasicBlockV1b or BottleneckV1b and 4 stages'):
        model_zoo.ResNetV1b(model_zoo.BasicBlockV1, [1, 1, 1, 1])
    with pytest.raises(BadInputError, match=r'4 stages of layers, not BottleneckV1b and \[1, 1\]'):
        model_zoo.ResNetV1b(model_zoo.BottleneckV1b, [1, 1])


def test_center_net_takes_gluoncvs_heads():
    heads = OrderedDict([('heatmap', {'num_output': 3, 'bias': -2.19}), ('wh', {'num_output': 2}),
                         ('reg', {'num_output': 2})])
    body = model_zoo.center_net.resnet18_v1b_deconv(deconv_filters=(8,), deconv_kernels=(4,))
    net = model_zoo.CenterNet(body, heads, ['a', 'b', 'c'], head_conv_channel=0, topk=5, scale=16.0)
    assert [len(h) for h in net.heads] == [1, 1, 1]  # no hidden conv: GluonCV's head_conv_channel=0
    net.initialize()
    ids, scores, boxes = net(mx.nd.random.uniform(shape=(1, 3, 64, 64)))
    assert ids.shape == scores.shape == (1, 5) and boxes.shape == (1, 5, 4)
    net.reset_class(['a', 'z'], reuse_weights={'a': 'a'})
    assert net.heads[0][0].weight.shape == (2, 8, 1, 1)
    with pytest.raises(BadInputError, match=r"heatmap \(3 classes\), wh \(2\) and reg"):
        model_zoo.CenterNet(body, OrderedDict(list(heads.items())[:2]), ['a', 'b', 'c'])
    with pytest.raises(BadInputError, match='deformable'):
        model_zoo.get_base_network('resnet18_v1b_dcnv2')
    with pytest.raises(BadInputError, match='need as many deconv_kernels'):
        model_zoo.center_net.get_deconv_resnet('resnet18_v1b', deconv_kernels=(5, 4, 4))


def test_last_gamma_starts_the_last_norm_at_zero():
    block = model_zoo.BottleneckV1(16, 1, last_gamma=True)
    block.initialize()
    block(mx.nd.ones((1, 16, 3, 3)))
    assert block.body[7].gamma.data().abs().sum().asscalar() == 0 and block.body[1].gamma.data().min() == 1


def test_mismatched_layers_and_channels_say_what_is_needed():
    with pytest.raises(BadInputError, match='2 layers need 3 channels'):
        model_zoo.ResNetV1(model_zoo.BasicBlockV1, [1, 1], [8, 8])
