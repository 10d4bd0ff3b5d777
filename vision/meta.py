"""What weights records say about image data: the class names of the datasets checkpoints were trained on, and the
standard preprocess dicts (keys: vision/tasks.py, applied by transforms.from_preprocess).

Class lists are read once from vision/assets/ (its README says where each comes from).
"""
from importlib import resources


def class_names(name, what='classes'):
    """The class names of `name` (`imagenet1k`, `cifar10`, `fashion_mnist`, `digits`, `voc`, `coco`) in label
    order (`what='synsets'`: ImageNet's WordNet ids)."""
    text = resources.files(__package__).joinpath('assets', f'{name}_{what}.txt').read_text()
    return tuple(line.strip() for line in text.splitlines() if line.strip())


IMAGENET1K = class_names('imagenet1k')  # WordNet's words of each class ('tench, Tinca tinca')
IMAGENET1K_SYNSETS = class_names('imagenet1k', 'synsets')  # their WordNet 3.0 noun ids ('n01440764')
CIFAR10 = class_names('cifar10')
FASHION_MNIST = class_names('fashion_mnist')
DIGITS = class_names('digits')
VOC = class_names('voc')  # Pascal VOC's 20 object classes (GluonCV's VOCDetection.CLASSES order)
COCO = class_names('coco')  # COCO's 80 object classes (GluonCV's COCODetection.CLASSES order)
DARKNET_COCO = class_names('coco_darknet')  # the same 80 in darknet's coco.names order and spelling (motorbike, ...)
VOC_SEGMENTATION = class_names('voc_segmentation')  # background + VOC's 20, GluonCV's VOC/COCO segmentation labels
ADE20K = class_names('ade20k')  # ADE20K's 150 scene-parsing classes (GluonCV's ADE20KSegmentation.CLASSES)
CITYSCAPES = class_names('cityscapes')  # Cityscapes' 19 evaluated classes (GluonCV's CitySegmentation.CLASSES)
# the action datasets of GluonCV's video checkpoints, by the suffix of their names (i3d_resnet50_v1_kinetics400)
ACTION_CLASSES = {name: class_names(name) for name in ('kinetics400', 'kinetics700', 'ucf101', 'hmdb51', 'sthsthv2')}

IMAGENET_MEAN, IMAGENET_STD = (0.485, 0.456, 0.406), (0.229, 0.224, 0.225)
CIFAR_MEAN, CIFAR_STD = (0.4914, 0.4822, 0.4465), (0.2023, 0.1994, 0.2010)

#: GluonCV's ImageNet eval preset (presets.imagenet.transform_eval): resize short side 256 (bilinear), center crop 224
IMAGENET = dict(resize=256, crop=224, mean=IMAGENET_MEAN, std=IMAGENET_STD, layout='NCHW', color='RGB',
                scale=1 / 255.0, interp='linear')
#: Inception v3 is evaluated at 299 (GluonCV: resize 342 = 299 / 0.875)
IMAGENET_299 = dict(IMAGENET, resize=342, crop=299)
#: GluonCV's CIFAR-10 eval: the 32x32 image normalized (a larger picture: short side to 32, center crop)
CIFAR10_EVAL = dict(resize=32, crop=32, mean=CIFAR_MEAN, std=CIFAR_STD, layout='NCHW', color='RGB', scale=1 / 255.0)
#: Fashion-MNIST: 28x28 grey, normalized with the training images' mean/std (pixel / 255)
FASHION_MNIST_MEAN, FASHION_MNIST_STD = (0.2860,), (0.3530,)
FASHION_MNIST_EVAL = dict(resize=28, crop=28, mean=FASHION_MNIST_MEAN, std=FASHION_MNIST_STD, layout='NCHW',
                          color='grey', scale=1 / 255.0)

#: GluonCV's video eval (its test scripts' --new-height 256 --new-width 340, then VideoGroupValTransform): each
#: frame resized to 256x340, centre crop 224, ImageNet mean/std; a record's frames/step/segments say how a clip is
#: sampled (vision/tasks.py)
VIDEO = dict(IMAGENET, resize=(256, 340), crop=224)
#: the generated motion videos' classes, in label order (vision.data.motions: only motion tells them apart)
MOTIONS = ('move_left', 'move_right', 'move_up', 'move_down', 'rotate_cw', 'rotate_ccw', 'grow', 'shrink')

#: COCO's 17 person keypoints in heatmap-channel order (GluonCV's COCOKeyPoints.KEYPOINTS)
COCO_KEYPOINTS = ('nose', 'left_eye', 'right_eye', 'left_ear', 'right_ear', 'left_shoulder', 'right_shoulder',
                  'left_elbow', 'right_elbow', 'left_wrist', 'right_wrist', 'left_hip', 'right_hip', 'left_knee',
                  'right_knee', 'left_ankle', 'right_ankle')
#: the keypoint channels a horizontal flip swaps (GluonCV's COCOKeyPoints.joint_pairs)
COCO_FLIP_PAIRS = ((1, 2), (3, 4), (5, 6), (7, 8), (9, 10), (11, 12), (13, 14), (15, 16))
