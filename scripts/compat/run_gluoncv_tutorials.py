"""Run GluonCV 0.10's own tutorials against gluonzoo.cv, with only their import lines changed.

Each tutorial is read from a GluonCV checkout or mirror (nothing of GluonCV is copied into this repository), its
`gluoncv` import lines are pointed at `gluonzoo.cv`, and the edits any offline CPU user must make are applied: they
are data below (TUTORIALS), each with why. The files a tutorial downloads are staged first, under the names
GluonCV's `utils.download` gives them (it skips a file that exists), made from photos and scenes we have. Then each
runs in its own process and folder, and a table says which ran and, for those that did not, the first error.

    .venv/bin/python scripts/compat/run_gluoncv_tutorials.py --gluoncv /work/.mirror/dmlc+gluon-cv/repo [--only demo_ssd]

`--gluoncv` is a git repository (the tutorials are read at --tag, v0.10.0) or a plain checkout folder.
"""
import argparse
import dataclasses
import os
import re
import shutil
import subprocess
import sys
import time
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, '..', '..'))
ASSETS = os.path.join(ROOT, 'vision', 'assets')
OPENCV = os.environ.get('GLUONZOO_OPENCV_DATA', '/usr/share/doc/opencv-doc/examples/data')

NO_CHECKPOINT = "GluonCV's checkpoint is not on this machine (offline): random weights, initialized as GluonCV's " \
                "pretrained=False nets must be"


@dataclasses.dataclass
class Tutorial:
    path: str                      # in the GluonCV tree
    files: dict                    # staged name -> how to make it (a photo path, or a callable(folder, name))
    edits: list = dataclasses.field(default_factory=list)  # (old, new, why): literal, each must match
    args: tuple = ()               # command-line arguments, for the tutorials that are scripts


def photo(*parts):
    return os.path.join(*parts)


def _untrained(call, var, base=True):
    """`var = <call with pretrained=True>` becomes pretrained=False and an initialize(); `base`: the net has an
    ImageNet base GluonCV's pretrained=False would load (a detector, segmenter or pose net), not here either."""
    extra = ', pretrained_base=False' if base else ''
    return (f'{var} = {call}pretrained=True)', f'{var} = {call}pretrained=False{extra})\n{var}.initialize()',
            NO_CHECKPOINT)


TUTORIALS = {
    'demo_imagenet': Tutorial(
        'scripts/classification/imagenet/demo_imagenet.py', {'mt_baker.jpg': photo(OPENCV, 'building.jpg'),
                                                            'resnet50_v2.params': 'params:resnet50_v2'},
        args=('--model', 'ResNet50_v2', '--input-pic', 'mt_baker.jpg', '--saved-params', 'resnet50_v2.params')),
    'demo_cifar10': Tutorial(
        'docs/tutorials/classification/demo_cifar10.py', {'plane-draw.jpeg': photo(OPENCV, 'aero1.jpg')},
        [("net = get_model('cifar_resnet110_v1', classes=10, pretrained=True)",
          "net = get_model('cifar_resnet110_v1', classes=10, pretrained=False)\nnet.initialize()", NO_CHECKPOINT)]),
    'transfer_learning_minc': Tutorial(
        'docs/tutorials/classification/transfer_learning_minc.py', {'minc-2500-tiny.zip': 'minc'},
        [('num_gpus = 1', 'num_gpus = 0', 'a CPU machine'), ('num_workers = 8', 'num_workers = 0', '2 cores'),
         ('epochs = 5', 'epochs = 1', 'a short run (the staged MINC folder is tiny)'),
         ('finetune_net = get_model(model_name, pretrained=True)',
          'finetune_net = get_model(model_name, pretrained=False)\nfinetune_net.initialize()', NO_CHECKPOINT)]),
    'demo_ssd': Tutorial('docs/tutorials/detection/demo_ssd.py', {'street_small.jpg': photo(OPENCV, 'home.jpg')},
                         [_untrained("model_zoo.get_model('ssd_512_resnet50_v1_voc', ", 'net')]),
    'demo_yolo': Tutorial('docs/tutorials/detection/demo_yolo.py', {'dog.jpg': photo(ASSETS, 'chelsea.jpg')},
                          [("net = model_zoo.get_model('yolo3_darknet53_voc', pretrained=True)",
                            "net = model_zoo.get_model('yolo3_darknet53_voc', pretrained=False, pretrained_base=False)"
                            "\nimport mxnet as mx\nnet.initialize(mx.init.Normal(0.01))",
                            NO_CHECKPOINT + "; at MXNet's default scale YOLO's exp(w), exp(h) of random weights "
                            "overflow to infinite boxes (GluonCV's net too), which plot_bbox cannot draw")]),
    'demo_faster_rcnn': Tutorial('docs/tutorials/detection/demo_faster_rcnn.py',
                                 {'biking.jpg': photo(OPENCV, 'messi5.jpg')},
                                 [_untrained("model_zoo.get_model('faster_rcnn_resnet50_v1b_voc', ", 'net')]),
    'demo_center_net': Tutorial('docs/tutorials/detection/demo_center_net.py', {'dog.jpg': photo(ASSETS, 'chelsea.jpg')},
                                [_untrained("model_zoo.get_model('center_net_resnet18_v1b_voc', ", 'net')]),
    'finetune_detection': Tutorial(
        'docs/tutorials/detection/finetune_detection.py',
        {'pikachu_train.rec': 'pikachu', 'pikachu_test.jpg': photo(OPENCV, 'fruits.jpg')},
        [_untrained("gcv.model_zoo.get_model('ssd_512_mobilenet1.0_voc', ", 'net'),
         ("    pretrained_base=False, transfer='voc')", "    pretrained_base=False)\nnet.initialize()",
          "transfer='voc' loads GluonCV's VOC checkpoint, not on this machine: the same custom net, random weights"),
         ('for epoch in range(0, 2):', 'for epoch in range(0, 1):', 'one epoch of the staged 16-image set')]),
    'demo_fcn': Tutorial('docs/tutorials/segmentation/demo_fcn.py', {'example.jpg': photo(OPENCV, 'fruits.jpg')},
                         [_untrained("gluoncv.model_zoo.get_model('fcn_resnet101_voc', ", 'model')]),
    'demo_deeplab': Tutorial('docs/tutorials/segmentation/demo_deeplab.py',
                             {'ade20k_example.jpg': photo(OPENCV, 'building.jpg')},
                             [('gluoncv.utils.download(url, filename, True)', 'gluoncv.utils.download(url, filename)',
                               'overwrite=True would fetch the photo again: the staged copy is used'),
                              _untrained("gluoncv.model_zoo.get_model('deeplab_resnet101_ade', ", 'model')]),
    'demo_mask_rcnn': Tutorial('docs/tutorials/instance/demo_mask_rcnn.py', {'biking.jpg': photo(OPENCV, 'messi5.jpg')},
                               [_untrained("model_zoo.get_model('mask_rcnn_resnet50_v1b_coco', ", 'net')]),
    'demo_simple_pose': Tutorial('docs/tutorials/pose/demo_simple_pose.py', {'soccer.png': photo(OPENCV, 'messi5.jpg')},
                                 [("detector = model_zoo.get_model('yolo3_mobilenet1.0_coco', pretrained=True)",
                                   "detector = model_zoo.get_model('yolo3_mobilenet1.0_coco', pretrained=False, "
                                   "pretrained_base=False)\nimport mxnet as mx\n"
                                   "detector.initialize(mx.init.Normal(0.01))\ndetector(mx.nd.zeros((1, 3, 64, 64)))",
                                   NO_CHECKPOINT + '; small (YOLO: finite boxes, see demo_yolo) and shaped by a first '
                                   "forward, since reuse_weights copies them (GluonCV's pretrained=False net raises "
                                   'DeferredInitializationError there too)'),
                                  ('detector_to_simple_pose(img, class_IDs, scores, bounding_boxs)',
                                   'detector_to_simple_pose(img, class_IDs, scores, bounding_boxs, thr=0.1)',
                                   'an untrained detector is never 50% sure of a person: a lower threshold keeps '
                                   'some boxes for the pose net'),
                                  _untrained("model_zoo.get_model('simple_pose_resnet18_v1b', ", 'pose_net')]),
    'export_network': Tutorial('docs/tutorials/deployment/export_network.py', {},
                               [_untrained("gcv.model_zoo.get_model('resnet18_v1', ", 'net', base=False),
                                _untrained("gcv.model_zoo.get_model('yolo3_darknet53_coco', ", 'net'),
                                _untrained("gcv.model_zoo.get_model('fcn_resnet50_ade', ", 'net'),
                                _untrained("gcv.model_zoo.get_model('mask_rcnn_resnet50_v1b_coco', ", 'net')]),
    'detection_custom': Tutorial(
        'docs/tutorials/datasets/detection_custom.py',
        {'dog.jpg': photo(ASSETS, 'chelsea.jpg'), 'im2rec.py': 'im2rec', 'val.rec': 'valrec',
         'VOCtemplate.zip': 'voctemplate'}),
}

_IMPORTS = [(re.compile(r'^(\s*)import gluoncv as (\w+)', re.M), r'\1import gluonzoo.cv as \2'),
            (re.compile(r'^(\s*)from gluoncv(\.[\w.]+)? import', re.M), r'\1from gluonzoo.cv\2 import'),
            (re.compile(r'^(\s*)import gluoncv\s*$', re.M), r'\1import gluonzoo.cv as gluoncv')]


def change_imports(source):
    """The one change a GluonCV user makes: the import lines name gluonzoo.cv."""
    for pattern, repl in _IMPORTS:
        source = pattern.sub(repl, source)
    if re.search(r'^\s*(import|from) gluoncv\b', source, re.M):
        raise SystemExit('an import line of gluoncv was left unchanged: extend _IMPORTS')
    return source


def read_tutorial(gluoncv, tag, path):
    if os.path.isdir(os.path.join(gluoncv, 'refs')) or os.path.isdir(os.path.join(gluoncv, '.git')):
        return subprocess.run(['git', '-C', gluoncv, 'show', f'{tag}:{path}'], capture_output=True, text=True,
                              check=True, timeout=60).stdout
    with open(os.path.join(gluoncv, path)) as f:
        return f.read()


# -- staged files ----------------------------------------------------------------------------------------------------
def _scenes(n):
    """n generated detection scenes of 128 pixels (vision/data/scenes.py), as (RGB image, [(cls, box), ...])."""
    import cv2
    import tempfile
    import xml.etree.ElementTree as ET
    from gluonzoo.vision.data.scenes import SceneSpec, make_scenes
    root = tempfile.mkdtemp()
    try:
        make_scenes(os.path.join(root, 's'), SceneSpec(train=n, val=0, test=0, max_objects=3))
        out = []
        for i in range(n):
            img = cv2.cvtColor(cv2.imread(os.path.join(root, 's', 'JPEGImages', f'train_{i:06d}.jpg')), cv2.COLOR_BGR2RGB)
            objs = [(0, [float(o.find('bndbox').find(k).text) - 1 for k in ('xmin', 'ymin', 'xmax', 'ymax')])
                    for o in ET.parse(os.path.join(root, 's', 'Annotations', f'train_{i:06d}.xml')).iter('object')]
            out.append((img, objs))
        return out
    finally:
        shutil.rmtree(root)


def _write_det_rec(prefix, samples, extra_header=()):
    """ImageDetRecordIter's layout (what GluonCV's RecordFileDetection reads): label = [header length, 5, *extra,
    then per object class, xmin, ymin, xmax, ymax normalized to 0..1]."""
    import cv2
    import mxnet as mx
    rec = mx.recordio.MXIndexedRecordIO(prefix + '.idx', prefix + '.rec', 'w')
    for i, (img, objs) in enumerate(samples):
        h, w = img.shape[:2]
        label = [2 + len(extra_header), 5, *extra_header]
        for cls, (x0, y0, x1, y1) in objs:
            label += [cls, x0 / w, y0 / h, x1 / w, y1 / h]
        ok, buf = cv2.imencode('.jpg', cv2.cvtColor(img, cv2.COLOR_RGB2BGR))
        rec.write_idx(i, mx.recordio.pack(mx.recordio.IRHeader(len(label), label, i, 0), buf.tobytes()))
    rec.close()


def stage_pikachu(folder, name):
    _write_det_rec(os.path.join(folder, 'pikachu_train'), _scenes(16))


def stage_valrec(folder, name):
    import cv2
    img = cv2.cvtColor(cv2.imread(os.path.join(ASSETS, 'chelsea.jpg')), cv2.COLOR_BGR2RGB)
    h, w = img.shape[:2]
    objs = [(1, [0.1 * w, 0.1 * h, 0.8 * w, 0.9 * h])]
    _write_det_rec(os.path.join(folder, 'val'), [(img, objs)] * 4, extra_header=(w, h))


def stage_minc(folder, name):
    """MINC-2500-tiny's layout: minc-2500-tiny/{train,val,test}/<class>/*.jpg, 23 classes, from OpenCV's photos."""
    import cv2
    photos = sorted(p for p in os.listdir(OPENCV) if p.endswith('.jpg'))[:23]
    with zipfile.ZipFile(os.path.join(folder, name), 'w') as z:
        for split in ('train', 'val', 'test'):
            for c, p in enumerate(photos):
                img = cv2.resize(cv2.imread(os.path.join(OPENCV, p)), (256, 256))
                z.writestr(f'minc-2500-tiny/{split}/class{c:02d}/{p}', cv2.imencode('.jpg', img)[1].tobytes())


def stage_voctemplate(folder, name):
    """VOCtemplate.zip's layout: VOCtemplate/VOC2018/{Annotations/000001.xml, ImageSets/Main/train.txt,
    JPEGImages/000001.jpg}, with a person and a dog as the tutorial's CLASSES."""
    import cv2
    img = cv2.imread(os.path.join(OPENCV, 'messi5.jpg'))
    h, w = img.shape[:2]
    xml = (f'<annotation><filename>000001.jpg</filename><size><width>{w}</width><height>{h}</height><depth>3</depth>'
           '</size>' + ''.join(f'<object><name>{n}</name><difficult>0</difficult><bndbox><xmin>{b[0]}</xmin>'
                               f'<ymin>{b[1]}</ymin><xmax>{b[2]}</xmax><ymax>{b[3]}</ymax></bndbox></object>'
                               for n, b in (('person', (200, 40, 330, 340)), ('dog', (20, 200, 120, 300))))
           + '</annotation>')
    with zipfile.ZipFile(os.path.join(folder, name), 'w') as z:
        z.writestr('VOCtemplate/VOC2018/Annotations/000001.xml', xml)
        z.writestr('VOCtemplate/VOC2018/ImageSets/Main/train.txt', '000001\n')
        z.writestr('VOCtemplate/VOC2018/JPEGImages/000001.jpg', cv2.imencode('.jpg', img)[1].tobytes())


def stage_im2rec(folder, name):
    import mxnet
    shutil.copy(os.path.join(os.path.dirname(mxnet.__file__), 'tools', 'im2rec.py'), os.path.join(folder, name))


def stage_params(folder, name, arch):
    """A parameter file of gluonzoo's `arch`, randomly initialized (the tutorial's --saved-params)."""
    import mxnet as mx
    import gluonzoo as gz
    net = gz.get_model(arch)
    net.initialize(mx.init.Xavier())
    net(mx.nd.zeros((1, 3, 224, 224)))
    net.save_parameters(os.path.join(folder, name))


STAGERS = {'pikachu': stage_pikachu, 'valrec': stage_valrec, 'minc': stage_minc, 'voctemplate': stage_voctemplate,
           'im2rec': stage_im2rec}


def stage(folder, files):
    for name, how in files.items():
        if how.startswith('params:'):
            stage_params(folder, name, how.split(':', 1)[1])
        elif how in STAGERS:
            STAGERS[how](folder, name)
        else:
            shutil.copy(how, os.path.join(folder, name))


# -- running ---------------------------------------------------------------------------------------------------------
def prepare(name, gluoncv, tag, out):
    t = TUTORIALS[name]
    source = change_imports(read_tutorial(gluoncv, tag, t.path))
    for old, new, why in t.edits:
        if old not in source:
            raise SystemExit(f'{name}: the offline edit ({why}) found no {old!r}: the tutorial changed?')
        source = source.replace(old, new)
    folder = os.path.join(out, name)
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    stage(folder, t.files)
    script = os.path.join(folder, os.path.basename(t.path))
    with open(script, 'w') as f:
        f.write(source)
    return folder, script


def run(name, folder, script, timeout):
    env = {**os.environ, 'MPLBACKEND': 'Agg', 'GLUONZOO_OFFLINE': '1', 'MXNET_HOME': folder}
    tic = time.time()
    try:
        p = subprocess.run([sys.executable, script, *TUTORIALS[name].args], cwd=folder, env=env, capture_output=True,
                           text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return False, f'ran past {timeout} s', time.time() - tic
    with open(os.path.join(folder, 'output.txt'), 'w') as f:
        f.write(p.stdout + p.stderr)
    if p.returncode == 0:
        return True, '', time.time() - tic
    lines = [ln for ln in p.stderr.strip().splitlines() if ln.strip()]
    return False, (lines[-1] if lines else f'exit {p.returncode}')[:200], time.time() - tic


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--gluoncv', required=True, help='a GluonCV git repository or checkout')
    ap.add_argument('--tag', default='v0.10.0')
    ap.add_argument('--out', default=os.path.join(ROOT, 'out', 'tutorials'))
    ap.add_argument('--only', action='append', choices=sorted(TUTORIALS), help='run these tutorials (repeatable)')
    ap.add_argument('--timeout', type=int, default=900, help='seconds a tutorial may run')
    args = ap.parse_args(argv)
    results = []
    for name in args.only or TUTORIALS:
        folder, script = prepare(name, args.gluoncv, args.tag, args.out)
        ok, why, took = run(name, folder, script, args.timeout)
        results.append((name, ok, why, took))
        print(f'{name:24s} {"ran" if ok else "FAILED":6s} {took:6.1f} s  {why}', flush=True)
    passed = sum(ok for _, ok, _, _ in results)
    print(f'{passed} of {len(results)} GluonCV tutorials ran through gluonzoo.cv (outputs under {args.out})')
    return 0 if passed == len(results) else 1


if __name__ == '__main__':
    sys.exit(main())
