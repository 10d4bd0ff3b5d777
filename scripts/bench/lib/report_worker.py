"""One side of `report.py`'s benchmark, in its own process: `python report_worker.py gluonzoo|peers|torch|ort`.

report.py talks to four of these (gluonzoo's MXNet, GluonCV/GluonNLP in the peers venv, torch, ONNX Runtime) so
that no two OpenMP runtimes share a process, and times their variants round by round, one at a time. Requests are
JSON lines on stdin, answers JSON lines on the protocol stream (the real stdout; whatever the libraries print goes to
stderr): {"op": "setup", "model", "tmp"} -> {"variants": [...], "skipped": {variant: why}, "files": {...}, ...};
{"op": "time", "variant", "batch", "seconds"} -> {"rate": items/s}; {"op": "machine"} -> the sgemm ceiling.
Every side builds its inputs from the same seed, so all see the same numbers. Weights are random: speed does not
depend on their values.
"""
import glob
import json
import os
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
OPENCV_DATA = '/usr/share/doc/opencv-doc/examples/data'
CALIB_FROM = "opencv-doc's example PNGs less the chessboards and the digits sheet, else vision/assets' photos"
SIDE = {'resnet50_v1': 224, 'mobilenetv2_1.0': 224, 'ssd_512_mobilenet1.0_voc': 512}
BERT = {'length': 128, 'vocab': 30522}
THREADS = int(os.environ.get('OMP_NUM_THREADS') or os.cpu_count())


def inputs(model, batch):
    """The numpy inputs every side feeds `model` at `batch`: images in [0, 1), or BERT's (ids, types, valid)."""
    import numpy as np
    rng = np.random.RandomState(0)
    if model in SIDE:
        return (rng.uniform(size=(batch, 3, SIDE[model], SIDE[model])).astype(np.float32),)
    n = BERT['length']
    return (rng.randint(0, BERT['vocab'], size=(batch, n)).astype(np.float32), np.zeros((batch, n), np.float32),
            np.full((batch,), n, np.float32))


def embeddings(ids):
    """What PyTorch's encoder takes for BERT's `ids`: (batch, length, 768) seeded numbers (it has no embedding)."""
    import numpy as np
    return np.random.RandomState(0).standard_normal(ids.shape + (768,)).astype(np.float32)


def window(call, batch, seconds):
    """Items/s of `call` over one window of about `seconds` (at least one call), after one warm-up call."""
    call()
    n, t0 = 0, time.perf_counter()
    while True:
        call()
        n += 1
        dt = time.perf_counter() - t0
        if dt >= seconds:
            return n * batch / dt


def first_line(e):
    return (str(e).strip().splitlines() or [type(e).__name__])[0][:160]


class Side:
    """The variants one process runs: `setup` builds them for a model, `call(variant, batch)` returns a callable."""
    def __init__(self):
        self.nets, self.model, self.feeds = {}, None, {}

    def feed(self, batch):
        if batch not in self.feeds:
            self.feeds = {batch: self.as_inputs(inputs(self.model, batch))}
        return self.feeds[batch]

    def time(self, variant, batch, seconds):
        return window(self.call(variant, batch), batch, seconds)


class MXNetSide(Side):
    def as_inputs(self, arrays):
        import mxnet as mx
        return [mx.nd.array(a) for a in arrays]

    def call(self, variant, batch):
        import mxnet as mx
        net, x = self.nets[variant], self.feed(batch)

        def run():
            net(*x)
            mx.nd.waitall()  # detectors return several outputs
        return run


class Gluonzoo(MXNetSide):
    """gluonzoo: plain (hybridize static), optimized (gz.optimize), INT8 (gz.quantize); writes our ONNX exports."""
    def setup(self, model, tmp):
        import gluonzoo as gz
        self.model, self.feeds, self.nets, skipped, files = model, {}, {}, {}, {}
        x = self.feed(1)
        notes = self.fp32(1)
        if model in SIDE:
            try:
                calib = calibration(model)
                notes['calib'] = f'{len(calib[0])} real pictures ({CALIB_FROM}), resized to {SIDE[model]}x{SIDE[model]}'
                self.nets['int8'] = gz.quantize(self.nets['plain'], calib)
            except Exception as e:  # noqa: BLE001 - the report says what could not be measured
                skipped['int8'] = f'gz.quantize failed: {first_line(e)}'
        else:
            skipped['int8'] = ('gz.quantize calibrates nets with one data input (MXNet quantize_net feeds one '
                               'NDArrayIter); BERT takes three (ids, token types, valid length)')
        self.export(model, self.nets['plain'], tmp, x, files, skipped)
        if model == 'resnet50_v1':
            sys.path.insert(0, os.path.dirname(HERE))
            from vision_models import conv_dense_flops
            counted = gz.get_model(model)
            counted.initialize()
            notes['gflops'] = conv_dense_flops(counted, SIDE[model]) / 1e9
        return {'variants': list(self.nets), 'skipped': skipped, 'files': files, 'notes': notes}

    def fp32(self, batch):
        """Build plain and optimized for `batch` (a static graph is planned for the shape it first runs at)."""
        import mxnet as mx
        import gluonzoo as gz
        from gluonzoo.optimizing import is_optimized
        x, model, notes = self.feed(batch), self.model, {}
        kw = ({'pretrained_base': False} if model.startswith('ssd') else {} if model in SIDE
              else dict(use_decoder=False, use_classifier=False))
        for v in ('plain', 'optimized'):
            mx.random.seed(0)  # the same weights for both
            self.nets[v] = gz.get_model(model, **kw)
            self.nets[v].initialize()
            self.nets[v](*x)  # settle deferred shapes
        self.nets['plain'].hybridize(static_alloc=True, static_shape=True)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter('always')
            gz.optimize(self.nets['optimized'], *x)
        if not is_optimized(self.nets['optimized']):
            notes['optimized'] = 'the oneDNN backend could not take it; plain path: ' + '; '.join(
                first_line(w.message) for w in caught)
        if 'int8' in self.nets:
            self.nets['int8'].hybridize(static_alloc=True, static_shape=True)  # a fresh plan for this shape
        self.batch = batch
        return notes

    def call(self, variant, batch):
        if batch != self.batch:
            self.fp32(batch)
        return super().call(variant, batch)

    def export(self, model, net, tmp, x, files, skipped):
        import gluonzoo as gz
        path = os.path.join(tmp, model)
        try:
            if model in SIDE:
                out = gz.export(net, path, input_shape=x[0].shape, formats=('onnx',), quantize='int8',
                                calib_data=calibration(model), name=model)
            else:
                out = gz.export(net, path, inputs=tuple(x), formats=('onnx',), name=model)
                skipped['ort_ours_int8'] = ("export(quantize='int8') calibrates nets with one image input; "
                                            'BERT takes three')
        except Exception as e:  # noqa: BLE001
            skipped['ort_ours'] = skipped['ort_ours_int8'] = f'gz.export failed: {first_line(e)}'
            return
        files['ort_ours'] = out['onnx']
        if 'onnx_int8' in out:
            files['ort_ours_int8'] = out['onnx_int8']

    def machine(self, seconds=1.0):
        """oneDNN's sgemm (FullyConnected 2048^3: the honest ceiling) and mx.nd.dot's (OpenBLAS), best of 3
        windows of `seconds`."""
        import mxnet as mx
        n = 2048
        a, b = mx.nd.random.uniform(shape=(n, n)), mx.nd.random.uniform(shape=(n, n))
        runs = {'onednn': lambda: mx.nd.FullyConnected(a, b, num_hidden=n, no_bias=True).wait_to_read(),
                'dot': lambda: mx.nd.dot(a, b).wait_to_read()}
        best = {k: max(window(f, 1, seconds) for _ in range(3)) * 2 * n ** 3 / 1e9 for k, f in runs.items()}
        return {'sgemm_onednn': best['onednn'], 'sgemm_dot': best['dot'], 'mxnet': mx.__version__}


def calibration(model):
    """A few real pictures (opencv-doc's, else vision/assets'), resized to the model's side, ImageNet-normalized."""
    import numpy as np
    from gluonzoo.vision.image import read_image
    import cv2
    paths = sorted(p for p in glob.glob(os.path.join(OPENCV_DATA, '*.png'))
                   if not os.path.basename(p).startswith(('left', 'right', 'digits')))[:16]
    paths = paths or sorted(glob.glob(os.path.join(ROOT, 'vision', 'assets', '*.jpg')))
    side, mean, std = SIDE[model], np.array([0.485, 0.456, 0.406]), np.array([0.229, 0.224, 0.225])
    pics = [(cv2.resize(read_image(p), (side, side)) / 255.0 - mean) / std for p in paths]
    return [np.stack(pics).transpose(0, 3, 1, 2).astype(np.float32)]


class Peers(MXNetSide):
    """GluonCV 0.10.5 / GluonNLP 0.10.0, hybridized static (the peers venv)."""
    def setup(self, model, tmp):
        import mxnet as mx
        self.model, self.feeds = model, {}
        mx.random.seed(0)
        if model in SIDE:
            from gluoncv import model_zoo
            kw = {'pretrained_base': False} if model.startswith('ssd') else {}
            net = model_zoo.get_model(model, pretrained=False, **kw)
            net.initialize()
        else:
            import gluonnlp as nlp
            specials = 5  # BERTVocab's [UNK] [PAD] [CLS] [SEP] [MASK]: the same vocabulary size as ours
            vocab = nlp.vocab.BERTVocab(nlp.data.count_tokens(f'w{i}' for i in range(BERT['vocab'] - specials)))
            net, _ = nlp.model.get_model(model, vocab=vocab, pretrained=False, use_decoder=False,
                                         use_classifier=False)
            net.initialize()
        net(*self.feed(1))
        self.nets, self.batch = {'peer': net}, None
        return {'variants': ['peer'], 'skipped': {}, 'files': {}, 'notes': {}}

    def call(self, variant, batch):
        if batch != self.batch:  # a fresh static graph for this shape, as gluonzoo's side gets
            self.nets[variant].hybridize(static_alloc=True, static_shape=True)
            self.batch = batch
        return super().call(variant, batch)


class Torch(Side):
    """PyTorch: exports torchvision's twin of a model to ONNX; for BERT times nn.TransformerEncoder (fast path)."""
    TWINS = {'resnet50_v1': 'resnet50', 'mobilenetv2_1.0': 'mobilenet_v2'}

    def __init__(self):
        super().__init__()
        import torch
        torch.set_num_threads(THREADS)

    def setup(self, model, tmp):
        import torch
        self.model, self.feeds, self.nets = model, {}, {}
        torch.manual_seed(0)
        if model in self.TWINS:
            net = getattr(torchvision_models(), self.TWINS[model])().eval()
            example = (torch.zeros(1, 3, SIDE[model], SIDE[model]),)
        elif model in SIDE:
            return {'variants': [], 'files': {}, 'notes': {}, 'skipped': {'ort_torch': (
                'torchvision has no SSD-512 on MobileNet 1.0 (its SSDs are ssd300_vgg16 and '
                'ssdlite320_mobilenet_v3_large: other backbones and input sizes), and its detection operators (nms) '
                "cannot load here: PyPI's torchvision 0.28.0 is a CUDA build beside torch 2.13.0+cpu")}}
        else:
            layer = torch.nn.TransformerEncoderLayer(768, 12, 3072, activation='gelu', batch_first=True)
            net = torch.nn.TransformerEncoder(layer, 12, enable_nested_tensor=False).eval()
            self.nets['torch'] = net
            example = (torch.zeros(1, BERT['length'], 768),)
        path = os.path.join(tmp, model + '-torch.onnx')
        out = {'variants': list(self.nets), 'skipped': {}, 'files': {}, 'notes': {}}
        try:  # grad on: tracing the encoder's fast path (no grad) gives an op ONNX has no converter for
            with torch.set_grad_enabled(model not in SIDE):
                torch.onnx.export(net, example, path, input_names=['data'], output_names=['out'], opset_version=17,
                                  dynamic_axes={'data': {0: 'batch'}, 'out': {0: 'batch'}}, dynamo=False)
            out['files']['ort_torch'] = path
        except Exception as e:  # noqa: BLE001
            out['skipped']['ort_torch'] = f'torch.onnx.export failed: {first_line(e)}'
        return out

    def as_inputs(self, arrays):
        import torch
        return [torch.from_numpy(embeddings(arrays[0]))]

    def call(self, variant, batch):
        import torch
        net, x = self.nets[variant], self.feed(batch)

        def run():
            with torch.inference_mode():
                net(*x)
        return run


def torchvision_models():
    """torchvision.models without torchvision/__init__: PyPI's torchvision 0.28.0 is a CUDA build whose operator
    library cannot load beside torch 2.13.0+cpu ('operator torchvision::nms does not exist' at import); the
    classification models need none of its operators."""
    import importlib.util
    import types
    if 'torchvision' not in sys.modules:
        spec = importlib.util.find_spec('torchvision')
        pkg = types.ModuleType('torchvision')
        pkg.__path__ = list(spec.submodule_search_locations)
        sys.modules['torchvision'] = pkg
    import torchvision.models
    return torchvision.models


class ORT(Side):
    """ONNX Runtime 1.x CPU on the files the other sides wrote (ours fp32 and QDQ INT8, PyTorch's export)."""
    def setup(self, model, tmp, files=None):
        import onnxruntime as ort
        self.model, self.feeds, self.nets, skipped = model, {}, {}, {}
        for variant, path in (files or {}).items():
            try:
                self.nets[variant] = session(path)
            except Exception as e:  # noqa: BLE001
                skipped[variant] = f'ONNX Runtime cannot load it: {first_line(e)}'
        self.paths = dict(files or {})
        return {'variants': list(self.nets), 'skipped': skipped, 'files': {}, 'notes': {
            'onnxruntime': ort.__version__}}

    def profile(self, variant, batch, calls=10):
        """ORT's own profiler on `variant` at `batch`: of `calls` calls after a warm-up one, the fastest (best-of, as
        the timing windows: one slow call, a growing memory arena or another process, must not stand for the file),
        in ms: the session's run, its kernels all and by operator (after ORT's fusions); the rest is between them."""
        import collections
        profiled = session(self.paths[variant], profile=True)
        run = self.call(variant, batch, profiled)
        for _ in range(calls + 1):
            run()
        path = profiled.end_profiling()
        with open(path) as f:
            events = json.load(f)
        os.remove(path)
        runs = sorted((e['ts'], e['ts'] + e['dur']) for e in events if e.get('name') == 'model_run')[1:]
        by_run = [collections.Counter() for _ in runs]
        for e in events:
            if e.get('cat') == 'Node' and e['name'].endswith('_kernel_time'):
                for (start, end), ops in zip(runs, by_run):
                    if start <= e['ts'] <= end:
                        ops[e['args']['op_name']] += e['dur'] / 1000
                        break
        best = min(range(len(runs)), key=lambda i: runs[i][1] - runs[i][0])
        return {'run_ms': (runs[best][1] - runs[best][0]) / 1000, 'kernel_ms': sum(by_run[best].values()),
                'by_op': dict(by_run[best].most_common()), 'calls': len(runs)}

    def as_inputs(self, arrays):
        return arrays

    def call(self, variant, batch, sess=None):
        """A call of `variant`'s session (or `sess`, another session on the same file) on the batch's inputs."""
        sess, x = sess or self.nets[variant], self.feed(batch)
        names = [i.name for i in sess.get_inputs()]
        if variant == 'ort_torch' and self.model not in SIDE:
            x = [embeddings(x[0])]
        feed = dict(zip(names, x))
        return lambda: sess.run(None, feed)


def session(path, profile=False):
    """An ONNX Runtime CPU session on `path` with the report's threads (its profiler on when `profile`)."""
    import onnxruntime as ort
    opts = ort.SessionOptions()
    opts.intra_op_num_threads, opts.inter_op_num_threads, opts.log_severity_level = THREADS, 1, 3
    if profile:
        opts.enable_profiling, opts.profile_file_prefix = True, path + '-profile'
    return ort.InferenceSession(path, opts, providers=['CPUExecutionProvider'])


SIDES = {'gluonzoo': Gluonzoo, 'peers': Peers, 'torch': Torch, 'ort': ORT}


def main(kind):
    proto = os.fdopen(os.dup(1), 'w', buffering=1)
    os.dup2(2, 1)  # libraries' prints must not mix with the protocol
    sys.stdout = sys.stderr
    side = SIDES[kind]()
    for line in sys.stdin:
        req = json.loads(line)
        try:
            op = req.pop('op')
            if op == 'setup':
                ans = side.setup(**req)
            elif op == 'time':
                ans = {'rate': side.time(**req)}
            elif op == 'machine':
                ans = side.machine()
            elif op == 'profile':
                ans = side.profile(**req)
            else:
                ans = {'error': f'unknown op {op}'}
        except Exception as e:  # noqa: BLE001 - the coordinator reports it
            import traceback
            traceback.print_exc()
            ans = {'error': first_line(e)}
        proto.write(json.dumps(ans) + '\n')


if __name__ == '__main__':
    main(sys.argv[1])
