"""INT8: gluonzoo.quantize (MXNet's oneDNN quantization) and export(quantize='int8') (ONNX Runtime's QDQ), measured
on real labelled data: cifar_resnet20_v1.fmnist's test top-1 on the first FMNIST_TEST of Fashion-MNIST's 10,000
test images (a CI-sized subset: scripts/vision/classification/int8_accuracy.py measures the whole set, and
mobilenetv2_1.0.digits, whose weights CI does not build), and mobilenetv2_1.0's fp32 top-1 kept on real photos.
Calibration never uses a test image.
"""
import glob
import os
from importlib import resources

import numpy as np
import pytest

import gluonzoo as gz
from gluonzoo.errors import BadInputError, ExportError

FMNIST_TEST = 2000  # of the 10,000 test images
CALIB = 256  # training images to calibrate on
OPENCV_DATA = '/usr/share/doc/opencv-doc/examples/data'


def _top1(run, x, y, batch=500):
    """Top-1 in points of `run` (numpy batch -> scores) on images `x`, labels `y`."""
    hits = sum(int((np.asarray(run(x[i:i + batch])).argmax(1) == y[i:i + batch]).sum())
               for i in range(0, len(x), batch))
    return 100.0 * hits / len(y)


def _mx(net):
    import mxnet as mx
    return lambda x: net(mx.nd.array(x)).asnumpy()


def _ort(path):
    import onnxruntime as ort
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    sess = ort.InferenceSession(path, opts, providers=['CPUExecutionProvider'])
    return lambda x: sess.run(None, {sess.get_inputs()[0].name: x.astype(np.float32)})[0]


def _arrays(images, labels, pre, size):
    from gluonzoo.vision.data.arrays import ArrayData
    x, y = next(ArrayData(images, labels, mean=pre['mean'], std=pre['std'], size=size).eval_batches(len(labels)))
    return x, y


@pytest.fixture(scope='module')
def fmnist():
    """The shipped cifar_resnet20_v1.fmnist, CALIB training images and FMNIST_TEST test images, as the net sees them."""
    from gluonzoo.vision.data import load_fashion_mnist
    net = gz.get_model('cifar_resnet20_v1.fmnist', pretrained=True)
    net.hybridize(static_alloc=True, static_shape=True)
    pre = net.weights.preprocess
    xtr, ytr = load_fashion_mnist('train')
    xte, yte = load_fashion_mnist('test')
    calib, _ = _arrays(xtr[:CALIB], ytr[:CALIB], pre, 28)
    return net, [calib[i:i + 64] for i in range(0, CALIB, 64)], _arrays(xte[:FMNIST_TEST], yte[:FMNIST_TEST], pre, 28)


def test_fmnist_int8_loses_at_most_half_a_point(fmnist, tmp_path):
    import onnx
    from gluonzoo.exporting.onnx_export import read_metadata
    net, calib, (x, y) = fmnist
    fp32 = _top1(_mx(net), x, y)
    assert fp32 > 90  # the record says 92.72 on all 10,000: the subset and the pipeline are the right ones
    qnet = gz.quantize(net, calib)
    assert qnet.weights is net.weights and qnet.classes == net.classes
    assert fp32 - _top1(_mx(qnet), x, y) <= 0.5

    out = gz.export(net, str(tmp_path / 'fm'), formats=('onnx',), quantize='int8', calib_data=calib)
    assert sorted(out) == ['onnx', 'onnx_int8'] and out['onnx_int8'].endswith('fm-int8.onnx')
    ops = {n.op_type for n in onnx.load(out['onnx_int8']).graph.node}
    assert {'QuantizeLinear', 'DequantizeLinear'} <= ops
    ort_fp32 = _top1(_ort(out['onnx']), x, y)
    assert abs(ort_fp32 - fp32) <= 0.05  # 1 image in 2,000: the fp32 file is the MXNet net
    assert ort_fp32 - _top1(_ort(out['onnx_int8']), x, y) <= 0.5
    meta32, meta8 = read_metadata(out['onnx']), read_metadata(out['onnx_int8'])
    assert meta32.items() <= meta8.items()  # what a service reads (preprocess, classes, ...) carries over
    assert meta8['gluonzoo.quantize'] == 'int8-qdq' and meta8['gluonzoo.calib_inputs'] == str(CALIB)


def test_bad_calibration_data(fmnist, tmp_path):
    net, calib, _ = fmnist
    for bad, words in [(None, 'needs calibration data'), ([], 'empty calibration data'),
                       (np.zeros((4, 3, 28, 28), np.float32), 'has shape (4, 3, 28, 28)'),
                       ([calib[0], calib[1][:, :, :20]], 'calibration batch 1 has shape'),
                       (['a.jpg'], 'holds a str')]:
        with pytest.raises(BadInputError, match=words.replace('(', r'\(').replace(')', r'\)')):
            gz.quantize(net, bad)
    with pytest.raises(BadInputError, match='needs calib_data'):
        gz.export(net, str(tmp_path / 'fm'), formats=('onnx',), quantize='int8')
    with pytest.raises(ExportError, match="calib_mode='minmax': use one of naive, entropy, average"):
        gz.export(net, str(tmp_path / 'fm'), formats=('onnx',), quantize='int8', calib_data=calib, calib_mode='minmax')
    with pytest.raises(BadInputError, match='the net takes'):
        gz.export(net, str(tmp_path / 'fm'), formats=('onnx',), quantize='int8', calib_data=np.zeros((2, 28, 28)))
    assert os.listdir(tmp_path) == []  # no partial file


def _photos(net, paths):
    from gluonzoo.vision.image import read_image
    transform = net.weights.transforms()
    return np.stack([transform(read_image(p)) for p in paths])


# MobileNetV2's layers kept in fp32 (found on these photos, so they are not a held-out set): the first and last
# convs and the classifier, every depthwise conv, the last four bottlenecks and the global pooling. Fully quantized
# it keeps the fp32 top-1 on 73% of the photos (naive) or 63% (entropy calibration: its clipped ranges cut the
# large activations this net's top-1 depends on), with these exclusions 92% (25 of its 52 convs in INT8).
# (Symbol names less the net's prefix, mobilenetv2N_, which counts the nets made before it.)
_B = '_features_linearbottleneck'
MOBILENETV2_FP32 = tuple(['_features_conv0_fwd', '_features_conv1_fwd', '_output_pred_fwd', _B + '0_conv0_fwd'] +
                         [f'{_B}{i}_conv1_fwd' for i in range(1, 17)] +
                         [f'{_B}{i}_conv{j}_fwd' for i in range(13, 17) for j in (0, 2)])


def test_mobilenetv2_int8_keeps_top1_on_real_photos(pretrained_home, tmp_path):
    """ImageNet: fp32 top-1 kept on >= 85% of the real photos (vision/assets and opencv-doc's JPEGs) by MXNet's
    INT8, on >= 75% (and in the top-5 on >= 95%) by ORT's; calibrated on opencv-doc's other pictures (its PNGs,
    less the chessboards and the digits sheet) and their mirror images."""
    import mxnet as mx
    assets = str(resources.files('gluonzoo.vision').joinpath('assets'))
    photos = sorted(glob.glob(os.path.join(assets, '*.jpg')) + glob.glob(os.path.join(OPENCV_DATA, '*.jpg')))
    calib = sorted(p for p in glob.glob(os.path.join(OPENCV_DATA, '*.png'))
                   if not os.path.basename(p).startswith(('left', 'right', 'digits')))
    assert len(photos) >= 50 and len(calib) >= 20
    net = gz.get_model('mobilenetv2_1.0', pretrained=True)
    net.hybridize(static_alloc=True, static_shape=True)
    x, c = _photos(net, photos), _photos(net, calib)
    c = np.concatenate([c, c[..., ::-1]])
    qnet = gz.quantize(net, [c[i:i + 8] for i in range(0, len(c), 8)], exclude=MOBILENETV2_FP32,
                       exclude_operators=('Pooling', 'Flatten'))
    fp32, mx8 = (np.concatenate([n(mx.nd.array(x[i:i + 16])).asnumpy().argmax(1)  # batches of 16: memory
                                 for i in range(0, len(x), 16)]) for n in (net, qnet))
    # 85%: the share depends on the CPU's INT8 kernels (measured 90%+ on an AMD EPYC, 88.7% on CI's Intel Xeon with
    # VNNI); a broken quantization (a wrong scale, a layer that should stay fp32) keeps well under half
    assert np.mean(mx8 == fp32) >= 0.85, f'MXNet INT8 keeps the fp32 top-1 on {np.mean(mx8 == fp32):.0%} of the photos'
    # ORT's QDQ file: the same layers fp32; ranges from the mean of each picture's (min/max over all: 51 of 62)
    out = gz.export(net, str(tmp_path / 'mnv2'), formats=('onnx',), quantize='int8', calib_data=c,
                    calib_mode='average', quantize_exclude=MOBILENETV2_FP32)
    run = _ort(out['onnx_int8'])
    logits = np.concatenate([run(x[i:i + 16]) for i in range(0, len(x), 16)])
    ort8, top5 = logits.argmax(1), np.argsort(-logits, 1)[:, :5]
    # ORT's own INT8 kernels: 90%+ on an AMD EPYC, 81% on CI's Intel Xeon (the misses are opencv-doc's grid and
    # chessboard pictures, whose top-1 is a near tie), so 75% for the top-1; the fp32 top-1 stays in ORT's top-5
    # on nearly all of them, which a wrong scale or a missed exclusion would not keep
    kept5 = np.mean([f in t for f, t in zip(fp32, top5)])
    assert np.mean(ort8 == fp32) >= 0.75, f'ORT INT8 keeps the fp32 top-1 on {np.mean(ort8 == fp32):.0%} of the photos'
    assert kept5 >= 0.95, f'ORT INT8 keeps the fp32 top-1 in its top-5 on {kept5:.0%} of the photos'
