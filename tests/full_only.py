"""What `make test` leaves to `make test-full`: the registry-wide cases (build + hybridize + fuse, ONNX export, a
record's parameter count) of the biggest variants of a family, where a lighter registered model of the same family
variant runs the same code (the variant: the name less its dataset suffix and its first number of 2+ digits, the depth or width;
`variant()`). They took 6-68 s each on a 2-core AMD EPYC (build + export, measured in one full run), 1/3 of the
suite's time; `make test-full` (GLUONZOO_TEST_FULL=1) runs them all. tests/test_registry_models.py checks this table.
"""
import os
import re

#: set by `make test-full`: every registered model and record
FULL = os.environ.get('GLUONZOO_TEST_FULL') == '1'

#: heavy arch -> the registered arch of its family variant that `make test` runs in its place
HEAVY = {
    'center_net_resnet101_v1b_coco': 'center_net_resnet18_v1b_voc',
    'center_net_resnet101_v1b_voc': 'center_net_resnet18_v1b_voc',
    'cifar_residualattentionnet452': 'cifar_residualattentionnet56',
    'deeplab_resnest101_ade': 'deeplab_resnest50_ade',
    'deeplab_resnest200_ade': 'deeplab_resnest50_ade',
    'deeplab_resnest269_ade': 'deeplab_resnest50_ade',
    'deeplab_resnet101_ade': 'deeplab_resnet50_citys',
    'deeplab_resnet152_coco': 'deeplab_resnet50_citys',
    'densenet161': 'densenet121',
    'densenet169': 'densenet121',
    'densenet201': 'densenet121',
    'faster_rcnn_resnet101_v1d_coco': 'faster_rcnn_resnet101_v1d_voc',
    'faster_rcnn_resnet101_v1d_custom': 'faster_rcnn_resnet101_v1d_voc',
    'faster_rcnn_resnet50_v1b_coco': 'faster_rcnn_resnet50_v1b_voc',
    'faster_rcnn_resnet50_v1b_custom': 'faster_rcnn_resnet50_v1b_voc',
    'fcn_resnet101_ade': 'fcn_resnet50_voc',
    'fcn_resnet50_ade': 'fcn_resnet50_voc',
    'hrnet_w30_c': 'hrnet_w18_c',
    'hrnet_w32_c': 'hrnet_w18_c',
    'hrnet_w40_c': 'hrnet_w18_c',
    'hrnet_w44_c': 'hrnet_w18_c',
    'hrnet_w48_c': 'hrnet_w18_c',
    'hrnet_w64_c': 'hrnet_w18_c',
    'mask_rcnn_fpn_resnet50_v1b_coco': 'mask_rcnn_fpn_resnet18_v1b_coco',
    'mask_rcnn_resnet50_v1b_coco': 'mask_rcnn_resnet18_v1b_coco',
    'psp_resnet101_ade': 'psp_resnet101_voc',
    'psp_resnet50_ade': 'psp_resnet101_voc',
    'residualattentionnet128': 'residualattentionnet56',
    'residualattentionnet164': 'residualattentionnet56',
    'residualattentionnet200': 'residualattentionnet56',
    'residualattentionnet236': 'residualattentionnet56',
    'residualattentionnet452': 'residualattentionnet56',
    'residualattentionnet92': 'residualattentionnet56',
    'resnest101': 'resnest14',
    'resnest200': 'resnest14',
    'resnest269': 'resnest14',
    'resnet101_v1': 'resnet18_v1',
    'resnet101_v1b': 'resnet18_v1b',
    'resnet101_v1b_gn': 'resnet50_v1b_gn',
    'resnet101_v1c': 'resnet50_v1c',
    'resnet101_v1d': 'resnet50_v1d',
    'resnet101_v1e': 'resnet50_v1e',
    'resnet101_v1s': 'resnet50_v1s',
    'resnet101_v2': 'resnet18_v2',
    'resnet152_v1': 'resnet18_v1',
    'resnet152_v1b': 'resnet18_v1b',
    'resnet152_v1c': 'resnet50_v1c',
    'resnet152_v1d': 'resnet50_v1d',
    'resnet152_v1e': 'resnet50_v1e',
    'resnet152_v1s': 'resnet50_v1s',
    'resnet152_v2': 'resnet18_v2',
    'se_resnet101_v1': 'se_resnet18_v1',
    'se_resnet101_v2': 'se_resnet18_v2',
    'se_resnet152_v1': 'se_resnet18_v1',
    'se_resnet152_v2': 'se_resnet18_v2',
    'se_resnext101_32x4d': 'se_resnext50_32x4d',
    'simple_pose_resnet101_v1b': 'simple_pose_resnet18_v1b',
    'simple_pose_resnet101_v1d': 'simple_pose_resnet50_v1d',
    'simple_pose_resnet152_v1b': 'simple_pose_resnet18_v1b',
    'simple_pose_resnet152_v1d': 'simple_pose_resnet50_v1d',
    'ssd_300_resnet34_v1b_coco': 'ssd_300_resnet34_v1b_voc',
    'ssd_300_resnet34_v1b_custom': 'ssd_300_resnet34_v1b_voc',
    'ssd_300_vgg16_atrous_coco': 'ssd_512_vgg16_atrous_custom',
    'ssd_300_vgg16_atrous_custom': 'ssd_512_vgg16_atrous_custom',
    'ssd_300_vgg16_atrous_voc': 'ssd_512_vgg16_atrous_custom',
    'ssd_512_resnet50_v1_custom': 'ssd_512_resnet50_v1_coco',
    'ssd_512_resnet50_v1_voc': 'ssd_512_resnet50_v1_coco',
    'ssd_512_vgg16_atrous_coco': 'ssd_512_vgg16_atrous_custom',
    'ssd_512_vgg16_atrous_voc': 'ssd_512_vgg16_atrous_custom',
    'ssd_512_vgg16_atrous_voc_int8': 'ssd_300_vgg16_atrous_voc_int8',
    'yolo3_darknet53_coco': 'yolo3_darknet53_custom',
    'yolo3_darknet53_voc': 'yolo3_darknet53_custom',
    # video: the deeper ResNets and the dataset twins (the same net, another class count) of each family variant
    'resnet101_v1b_kinetics400': 'resnet50_v1b_kinetics400',
    'resnet152_v1b_kinetics400': 'resnet50_v1b_kinetics400',
    'resnet101_v1b_sthsthv2': 'resnet50_v1b_kinetics400',
    'resnet152_v1b_sthsthv2': 'resnet50_v1b_kinetics400',
    'resnet50_v1b_sthsthv2': 'resnet50_v1b_kinetics400',
    'resnet50_v1b_ucf101': 'resnet50_v1b_kinetics400',
    'resnet50_v1b_hmdb51': 'resnet50_v1b_kinetics400',
    'vgg16_hmdb51': 'vgg16_ucf101',
    'vgg16_kinetics400': 'vgg16_ucf101',
    'vgg16_sthsthv2': 'vgg16_ucf101',
    'inceptionv1_hmdb51': 'inceptionv1_kinetics400',
    'inceptionv1_sthsthv2': 'inceptionv1_kinetics400',
    'inceptionv1_ucf101': 'inceptionv1_kinetics400',
    'inceptionv3_hmdb51': 'inceptionv3_ucf101',
    'inceptionv3_sthsthv2': 'inceptionv3_ucf101',
    'inceptionv3_kinetics400': 'inceptionv3_ucf101',
    'i3d_resnet101_v1_kinetics400': 'i3d_resnet50_v1_kinetics400',
    'i3d_resnet50_v1_hmdb51': 'i3d_resnet50_v1_kinetics400',
    'i3d_resnet50_v1_sthsthv2': 'i3d_resnet50_v1_kinetics400',
    'i3d_resnet50_v1_ucf101': 'i3d_resnet50_v1_kinetics400',
    'i3d_nl5_resnet101_v1_kinetics400': 'i3d_nl5_resnet50_v1_kinetics400',
    'r2plus1d_resnet101_kinetics400': 'r2plus1d_resnet50_kinetics400',
    'r2plus1d_resnet152_kinetics400': 'r2plus1d_resnet50_kinetics400',
    'p3d_resnet101_kinetics400': 'p3d_resnet50_kinetics400',
    'slowfast_8x8_resnet101_kinetics400': 'slowfast_8x8_resnet50_kinetics400',
}

#: records whose full-size build (to count their parameters) is the slowest of the suite, with their arch's
#: registry-wide cases still run: their metadata is checked in `make test`, the count in `make test-full`
HEAVY_RECORDS = {
    'big_rnn_lm_2048_512.gbw': "822M parameters (24 s)",
    'faster_rcnn_fpn_resnet101_v1d_coco.gluoncv': 'full-size FPN on a ResNet-101 (11 s)',
    'mask_rcnn_fpn_resnet101_v1d_coco.gluoncv': 'full-size FPN on a ResNet-101 (11 s)',
    'roberta_24_1024_16.openwebtext_ccnews_stories_books_cased': '24 layers of 1024 (10 s)',
    'bert_24_1024_16.book_corpus_wiki_en_uncased': '24 layers of 1024 (6 s)',
    'bert_24_1024_16.book_corpus_wiki_en_cased': '24 layers of 1024 (6 s)',
}

_DATASETS = r'_(coco|voc|custom|ade|citys|kinetics400|kinetics700|ucf101|hmdb51|sthsthv2)$'


def variant(name):
    """The family variant of a registered name: ssd_512_vgg16_atrous_coco and ssd_300_vgg16_atrous_voc are one,
    i3d_resnet101_v1_kinetics400 and i3d_resnet50_v1_ucf101 too (the first number of two digits or more: i3d's 3 and
    r2plus1d's 2 name the family, not its size)."""
    return re.sub(r'\d{2,}', '#', re.sub(_DATASETS, '', name), count=1)


def archs(names):
    """`names` less the HEAVY ones, unless FULL."""
    return list(names) if FULL else [n for n in names if n not in HEAVY]


def builds_record(record, arch):
    """Whether `make test` builds `record` at full size to count its parameters."""
    return FULL or (arch not in HEAVY and record not in HEAVY_RECORDS)
