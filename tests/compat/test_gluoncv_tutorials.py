"""GluonCV 0.10's tutorials, call for call, through gluonzoo.cv (in our words: the tutorials themselves are not in
this repository; scripts/compat/run_gluoncv_tutorials.py runs the real files from a GluonCV checkout).

Each test makes the calls its tutorial makes, in its order, with GluonCV's spellings, and checks what the tutorial
relies on (types, shapes, value ranges). The offline edits are the ones any offline CPU user makes: the photo is
fetched by `utils.download` from a server on 127.0.0.1 instead of GitHub, GluonCV's checkpoints are not on this
machine so nets are built with pretrained=False and initialized, and photos are smaller (`short=`) so the suite
stays quick: the call sequence is the tutorial's.

detection_custom is here too. YOLO nets get small random weights (Normal(0.01)): at MXNet's default scale their
exp(w), exp(h) overflow to infinite boxes, GluonCV's too, which plot_bbox cannot draw. Not here, for the suite's
time: finetune_detection (its SSD training epoch, 32 s) and demo_mask_rcnn (150 s); both run through
scripts/compat/run_gluoncv_tutorials.py, as all 14 tutorials do."""
import json
import os
import zipfile

import matplotlib
import numpy as np
import pytest

matplotlib.use('Agg')

import mxnet as mx  # noqa: E402
from matplotlib import pyplot as plt  # noqa: E402

import gluonzoo.cv as gcv  # noqa: E402
from gluonzoo.cv import data, model_zoo, utils  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OPENCV = os.environ.get('GLUONZOO_OPENCV_DATA', '/usr/share/doc/opencv-doc/examples/data')
ASSETS = os.path.join(ROOT, 'vision', 'assets')


def _runner():
    """scripts/compat/run_gluoncv_tutorials.py, whose stagers make the data files the tutorials download."""
    import importlib.util
    spec = importlib.util.spec_from_file_location('run_gluoncv_tutorials',
                                                  os.path.join(ROOT, 'scripts', 'compat', 'run_gluoncv_tutorials.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


runner = _runner()


@pytest.fixture
def fetch(http_server, tmp_path, monkeypatch):
    """`utils.download(url, path=name)` of a photo we have, served as the tutorial's URL would serve it."""
    monkeypatch.chdir(tmp_path)

    def fetch(photo, name, **kwargs):
        with open(photo, 'rb') as f:
            http_server.files[f'/web-data/{name}'] = f.read()
        got = utils.download(http_server.base + f'web-data/{name}', **kwargs)
        assert os.path.exists(got) and os.path.basename(got) == name
        return got
    return fetch


def untrained(name, **kwargs):
    # GluonCV's pretrained=False loads the ImageNet base of a detector, segmenter or pose net: not here either
    if not name.lower().startswith(('resnet', 'cifar', 'mobilenet', 'vgg')):
        kwargs.setdefault('pretrained_base', False)
    net = model_zoo.get_model(name, pretrained=False, **kwargs)
    net.initialize()
    return net


def check_preset(x, img, short):
    assert isinstance(x, mx.nd.NDArray) and x.dtype == np.float32 and x.shape[:2] == (1, 3)
    assert isinstance(img, np.ndarray) and img.dtype == np.uint8 and img.ndim == 3
    assert min(img.shape[:2]) == short and x.shape[2:] == img.shape[:2]


def check_detections(ids, scores, boxes):
    assert ids.ndim == 3 and ids.shape[-1] == 1 and scores.shape == ids.shape and boxes.shape[-1] == 4


@pytest.mark.parametrize('tutorial, preset, name', [
    ('demo_ssd', 'ssd', 'ssd_512_resnet50_v1_voc'),
    ('demo_faster_rcnn', 'rcnn', 'faster_rcnn_resnet50_v1b_voc'),
    ('demo_center_net', 'center_net', 'center_net_resnet18_v1b_voc'),
])
def test_detection_demos(fetch, tutorial, preset, name):
    net = untrained(name)
    im_fname = fetch(os.path.join(ASSETS, 'chelsea.jpg'), 'dog.jpg', path='dog.jpg')
    x, img = getattr(data.transforms.presets, preset).load_test(im_fname, short=128)
    check_preset(x, img, 128)
    class_IDs, scores, bounding_boxes = net(x)
    if preset == 'center_net':  # GluonCV's CenterNet gives (B, K) ids and scores
        assert class_IDs.ndim == 2 and scores.shape == class_IDs.shape
    else:
        check_detections(class_IDs, scores, bounding_boxes)
    ax = utils.viz.plot_bbox(img, bounding_boxes[0], scores[0], class_IDs[0], class_names=net.classes)
    assert isinstance(ax, matplotlib.axes.Axes)
    plt.close('all')


def small_yolo(name):
    net = model_zoo.get_model(name, pretrained=False, pretrained_base=False)
    net.initialize(mx.init.Normal(0.01))
    return net


def test_demo_yolo(fetch):
    net = small_yolo('yolo3_darknet53_voc')
    im_fname = fetch(os.path.join(ASSETS, 'chelsea.jpg'), 'dog.jpg', path='dog.jpg')
    x, img = data.transforms.presets.yolo.load_test(im_fname, short=96)
    check_preset(x, img, 96)
    class_IDs, scores, bounding_boxs = net(x)
    check_detections(class_IDs, scores, bounding_boxs)
    assert np.isfinite(bounding_boxs.asnumpy()).all()
    ax = utils.viz.plot_bbox(img, bounding_boxs[0], scores[0], class_IDs[0], class_names=net.classes)
    assert isinstance(ax, matplotlib.axes.Axes)
    plt.close('all')


def test_demo_simple_pose(fetch):
    from gluonzoo.cv.data.transforms.pose import detector_to_simple_pose, heatmap_to_coord
    detector = small_yolo('yolo3_mobilenet1.0_coco')
    pose_net = untrained('simple_pose_resnet18_v1b')
    detector(mx.nd.zeros((1, 3, 64, 64)))  # random weights get their shapes; reuse_weights copies them
    detector.reset_class(["person"], reuse_weights=['person'])
    assert detector.classes == ['person']
    detector.set_nms(0.45, post_nms=3)  # not the tutorial's: 3 people to pose, not 100, for the suite's time
    im_fname = fetch(os.path.join(OPENCV, 'messi5.jpg'), 'soccer.png', path='soccer.png')
    x, img = data.transforms.presets.ssd.load_test(im_fname, short=128)
    class_IDs, scores, bounding_boxs = detector(x)
    pose_input, upscale_bbox = detector_to_simple_pose(img, class_IDs, scores, bounding_boxs, thr=0.1)
    assert pose_input.shape[1:] == (3, 256, 192) and len(upscale_bbox) == pose_input.shape[0]
    predicted_heatmap = pose_net(pose_input)
    pred_coords, confidence = heatmap_to_coord(predicted_heatmap, upscale_bbox)
    assert pred_coords.shape == (pose_input.shape[0], 17, 2) and confidence.shape == (pose_input.shape[0], 17, 1)
    ax = utils.viz.plot_keypoints(img, pred_coords, confidence, class_IDs, bounding_boxs, scores,
                                  box_thresh=0.5, keypoint_thresh=0.2)
    assert isinstance(ax, matplotlib.axes.Axes)
    plt.close('all')


def test_demo_imagenet(fetch, tmp_path):
    from mxnet import image, nd
    from gluonzoo.cv.data import ImageNet1kAttr
    from gluonzoo.cv.data.transforms.presets.imagenet import transform_eval
    net = untrained('ResNet18_v2')  # the script's --model (and --saved-params: a file of random weights)
    net(mx.nd.zeros((1, 3, 32, 32)))
    net.save_parameters(str(tmp_path / 'resnet18_v2.params'))
    net = model_zoo.get_model('ResNet18_v2', pretrained=False)
    net.load_parameters(str(tmp_path / 'resnet18_v2.params'))
    attrib = ImageNet1kAttr()
    classes = attrib.classes
    assert len(classes) == attrib.num_class == 1000 and classes[0] == 'tench' and attrib.synset[0] == 'n01440764'
    img = image.imread(fetch(os.path.join(OPENCV, 'building.jpg'), 'mt_baker.jpg', path='mt_baker.jpg'))
    pred = net(transform_eval(img))
    ind = nd.topk(pred, k=5)[0].astype('int')
    assert [classes[ind[i].asscalar()] for i in range(5)] and nd.softmax(pred)[0][ind[0]].asscalar() > 0


def test_imagenet1k_attr_is_wordnets_and_gluoncvs():
    """Each synset id names the WordNet 3.0 noun (Debian's wordnet data, make text-data) whose words are the
    class's long name; and the lists are GluonCV's."""
    from gluonzoo.cv.data import ImageNet1kAttr
    from tests.peers import run_peer
    attrib = ImageNet1kAttr()
    words = {}
    with open('/usr/share/wordnet/data.noun', encoding='latin-1') as f:
        for line in f:
            if not line.startswith('  '):
                fields = line.split()
                words['n' + fields[0]] = [w.replace('_', ' ') for w in fields[4:4 + 2 * int(fields[3], 16):2]]
    for synset, long_name in zip(attrib.synset, attrib.classes_long):
        assert words[synset] == [w.strip() for w in long_name.split(',')], synset
    assert len(set(attrib.synset)) == 1000 and attrib.synset == sorted(attrib.synset)  # ImageNet's index order
    peer = run_peer('gluoncv_calls.py', '.', [['gluoncv.data', 'ImageNet1kAttr', ['synset', 'classes', 'classes_long']]],
                    timeout=120)
    assert json.loads(peer) == [attrib.synset, attrib.classes, attrib.classes_long]


def test_demo_cifar10(fetch):
    from mxnet import image
    from mxnet.gluon.data.vision import transforms
    im_fname = fetch(os.path.join(OPENCV, 'aero1.jpg'), 'plane-draw.jpeg')  # no path: the URL's file name
    img = image.imread(im_fname)
    transform_fn = transforms.Compose([transforms.Resize(32), transforms.CenterCrop(32), transforms.ToTensor(),
                                       transforms.Normalize([0.4914, 0.4822, 0.4465], [0.2023, 0.1994, 0.2010])])
    img = transform_fn(img)
    net = model_zoo.get_model('cifar_resnet110_v1', classes=10, pretrained=False)
    net.initialize()
    pred = net(img.expand_dims(axis=0))
    assert pred.shape == (1, 10)


@pytest.mark.parametrize('name, palette', [('fcn_resnet101_voc', 'pascal_voc'), ('deeplab_resnet101_ade', 'ade20k')])
def test_segmentation_demos(fetch, name, palette):
    from mxnet import image
    fetch(os.path.join(OPENCV, 'fruits.jpg'), 'example.jpg', path='example.jpg')
    img = image.imresize(image.imread('example.jpg'), 96, 64)
    from gluonzoo.cv.data.transforms.presets.segmentation import test_transform
    img = test_transform(img, mx.cpu(0))
    model = untrained(name)
    output = model.predict(img)
    predict = mx.nd.squeeze(mx.nd.argmax(output, 1)).asnumpy()
    assert predict.shape == (64, 96)
    from gluonzoo.cv.utils.viz import get_color_pallete
    mask = get_color_pallete(predict, palette)
    mask.save('output.png')
    assert mask.mode == 'P' and plt.imread('output.png').shape[:2] == (64, 96)


def test_export_network(tmp_path, monkeypatch):
    import glob
    monkeypatch.chdir(tmp_path)
    from gluonzoo.cv.utils import export_block
    net = untrained('resnet18_v1')
    export_block('resnet18_v1', net, preprocess=True, layout='HWC')
    assert sorted(glob.glob('*.json') + glob.glob('*.params')) == ['resnet18_v1-0000.params',
                                                                   'resnet18_v1-symbol.json']
    sym, args, aux = mx.model.load_checkpoint('resnet18_v1', 0)
    mod = mx.gluon.SymbolBlock.imports('resnet18_v1-symbol.json', ['data'], 'resnet18_v1-0000.params')
    assert mod(mx.nd.zeros((1, 224, 224, 3))).shape == (1, 1000)  # HWC in, preprocessing inside


def test_transfer_learning_minc(tmp_path, monkeypatch):
    from mxnet import gluon, init
    from mxnet.gluon import nn
    from gluonzoo.cv.utils import makedirs
    monkeypatch.chdir(tmp_path)
    runner.stage_minc(str(tmp_path), 'minc-2500-tiny.zip')
    with zipfile.ZipFile('minc-2500-tiny.zip') as zin:
        zin.extractall('./')
    makedirs('params/nested')
    assert os.path.isdir('params/nested')
    finetune_net = model_zoo.get_model('ResNet50_v2', pretrained=False)  # no checkpoint here
    finetune_net.initialize()
    with finetune_net.name_scope():
        finetune_net.output = nn.Dense(23)
    finetune_net.output.initialize(init.Xavier())
    train = gluon.data.vision.ImageFolderDataset('minc-2500-tiny/train')
    x = mx.nd.transpose(train[0][0].astype('float32'), (2, 0, 1)).expand_dims(0) / 255
    assert finetune_net(mx.image.imresize(x[0].transpose((1, 2, 0)), 64, 64).transpose((2, 0, 1))
                        .expand_dims(0)).shape == (1, 23)


def test_detection_custom(fetch, tmp_path):
    """datasets/detection_custom: a .lst written by the tutorial's write_line, LstDetection, RecordFileDetection of
    val.rec, and the VOCLike subclass (CLASSES) of VOCtemplate."""
    im_fname = fetch(os.path.join(ASSETS, 'chelsea.jpg'), 'dog.jpg', path='dog.jpg')
    img = mx.image.imread(im_fname)
    all_boxes = np.array([[13, 22, 32, 53], [11, 12, 58, 42], [48, 8, 70, 17]])
    all_ids = np.array([0, 1, 2])
    utils.viz.plot_bbox(img, all_boxes, labels=all_ids, class_names=['dog', 'bike', 'car'])
    plt.close('all')

    def write_line(img_path, im_shape, boxes, ids, idx):
        h, w, c = im_shape
        labels = np.hstack((ids.reshape(-1, 1), boxes)).astype('float')
        labels[:, (1, 3)] /= float(w)
        labels[:, (2, 4)] /= float(h)
        return '\t'.join([str(idx)] + [str(x) for x in (4, 5, w, h)] + [str(x) for x in labels.flatten().tolist()]
                         + [img_path]) + '\n'
    with open('val.lst', 'w') as fw:
        for i in range(4):
            fw.write(write_line('dog.jpg', img.shape, all_boxes, all_ids, i))
    from gluonzoo.cv.data import LstDetection, RecordFileDetection, VOCDetection
    lst_dataset = LstDetection('val.lst', root=os.path.expanduser('.'))
    assert len(lst_dataset) == 4 and lst_dataset[0][0].shape == img.shape
    np.testing.assert_allclose(lst_dataset[0][1][:, :5], np.hstack([all_boxes, all_ids[:, None]]), atol=1e-3)
    runner.stage_valrec(str(tmp_path), 'val.rec')
    record_dataset = RecordFileDetection('val.rec', coord_normalized=True)
    assert len(record_dataset) == 4 and record_dataset[0][0].ndim == 3 and record_dataset[0][1].shape[1] >= 5
    runner.stage_voctemplate(str(tmp_path), 'VOCtemplate.zip')
    with zipfile.ZipFile('VOCtemplate.zip') as zf:
        zf.extractall('.')

    class VOCLike(VOCDetection):
        CLASSES = ['person', 'dog']

        def __init__(self, root, splits, transform=None, index_map=None, preload_label=True):
            super(VOCLike, self).__init__(root, splits, transform, index_map, preload_label)
    dataset = VOCLike(root='VOCtemplate', splits=((2018, 'train'),))
    assert len(dataset) == 1 and dataset[0][1][:, 4].tolist() == [0, 1]  # person, dog
