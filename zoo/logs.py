"""Training logs: one JSON object a line, `type` header | epoch | resume | final.

    header  command line, resolved config, seed, git commit, sha256 of constraints.txt, dataset name/split/checksum,
            versions (gluonzoo, mxnet, numpy, python), the environment variables that decide determinism, the
            machine (CPU model, the ISA flags oneDNN picks its kernels by, MXNet's build features)
    epoch   epoch, train loss and metrics, eval metrics, lr at the end of the epoch, seconds
    resume  written when a run continues from a checkpoint (the epoch it continued after, its command line)
    final   eval metrics, sha1 of the weights file, its name, the split the metrics were measured on

`read_log(path)` returns a TrainLog; `check_weights(w)` compares a Weights record with the log it names.
"""
import dataclasses
import hashlib
import json
import os
import platform
import subprocess
import sys
import time
from typing import List, Optional

from .errors import BadInputError

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the source checkout (editable install)
#: environment variables recorded in the header because they change (or pin) the numbers a run produces
DETERMINISM_ENV = ('MXNET_ENFORCE_DETERMINISM', 'OMP_NUM_THREADS', 'MXNET_CPU_WORKER_NTHREADS',
                   'MXNET_CUDNN_AUTOTUNE_DEFAULT', 'MXNET_USE_OPERATOR_TUNING', 'MXNET_SUBGRAPH_BACKEND',
                   'MXNET_ENGINE_TYPE')


def _git(*args):
    try:
        return subprocess.run(['git', '-C', ROOT, *args], capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ''


def _sha256(path):
    try:
        with open(path, 'rb') as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return None


#: the CPU flags that decide which oneDNN kernels run, and so the float summation order a run gets
ISA_FLAGS = ('sse4_2', 'avx', 'avx2', 'fma', 'avx512f', 'avx512bw', 'avx512vl', 'avx512_vnni', 'avx512_bf16',
             'amx_bf16', 'amx_int8', 'amx_tile')


def machine():
    """{'cpu': model name, 'isa': the ISA_FLAGS this CPU has, 'cores': count, 'mxnet_features': MXNet's enabled build
    features, 'openblas_core', 'onednn_max_cpu_isa' when set}: what a rerun on another machine may differ by."""
    import mxnet as mx
    cpu, flags = platform.processor() or platform.machine(), set()
    try:
        with open('/proc/cpuinfo') as f:
            for line in f:
                key, _, value = line.partition(':')
                if key.strip() == 'model name':
                    cpu = value.strip()
                elif key.strip() == 'flags':
                    flags = set(value.split())
                    break
    except OSError:
        pass
    features = sorted(name for name, feature in mx.runtime.Features().items() if feature.enabled)
    # oneDNN's own cap on the kernels it may pick (e.g. AVX2 on an AVX-512 CPU): it changes the numbers as the flags do
    cap = os.environ.get('ONEDNN_MAX_CPU_ISA') or os.environ.get('DNNL_MAX_CPU_ISA')
    return {'cpu': cpu, 'isa': [f for f in ISA_FLAGS if f in flags], 'cores': os.cpu_count(),
            'mxnet_features': features, 'openblas_core': _openblas_core(),
            **({'onednn_max_cpu_isa': cap} if cap else {})}


def _openblas_core():
    """The kernel set MXNet's bundled OpenBLAS picked for this CPU (its dot/batch_dot/RNN GEMMs), or None: one
    AVX-512 machine gets 'SkylakeX' kernels, another 'Zen' ones, and OPENBLAS_CORETYPE overrides both."""
    import ctypes
    import mxnet as mx
    try:
        lib = ctypes.CDLL(os.path.join(os.path.dirname(mx.__file__), 'libopenblas.so.0'))
        lib.openblas_get_corename.restype = ctypes.c_char_p
        return lib.openblas_get_corename().decode()
    except (OSError, AttributeError):  # a build without a bundled OpenBLAS (MKL, or the system's)
        return None


def header(config, dataset, argv=None):
    """The header record of a run of `config` (a dict) on `dataset` ({name, split, checksum, ...})."""
    import mxnet as mx
    import numpy as np
    from . import __version__
    commit = _git('rev-parse', 'HEAD') or None
    dirty = bool(_git('status', '--porcelain', '--untracked-files=no')) if commit else None
    return {
        'type': 'header', 'time': time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime()),
        'command': [os.path.basename(sys.executable)] + list(sys.argv if argv is None else argv),
        'config': config, 'seed': config.get('seed'), 'dataset': dataset,
        'git_commit': commit, 'git_dirty': dirty,
        'constraints_sha256': _sha256(os.path.join(ROOT, 'constraints.txt')),
        'versions': {'gluonzoo': __version__, 'mxnet': mx.__version__, 'numpy': np.__version__,
                     'python': platform.python_version()},
        'env': {k: os.environ.get(k) for k in DETERMINISM_ENV},
        'platform': platform.platform(), 'machine': machine(),
    }


class LogWriter:
    """Appends records to a JSON-lines file; `restart` rewrites it whole (atomically) from known records."""

    def __init__(self, path):
        self.path = path
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)

    def restart(self, records):
        tmp = self.path + '.part'
        with open(tmp, 'w') as f:
            for r in records:
                f.write(json.dumps(r, sort_keys=True) + '\n')
        os.replace(tmp, self.path)

    def write(self, record):
        with open(self.path, 'a') as f:
            f.write(json.dumps(record, sort_keys=True) + '\n')
            f.flush()


@dataclasses.dataclass
class TrainLog:
    path: str
    header: dict
    epochs: List[dict]
    final: Optional[dict]
    resumes: List[dict]

    @property
    def config(self):
        return self.header['config']

    def curve(self, key):
        """[(epoch, value)] of an epoch-record key; 'eval.top1' reaches into nested dicts."""
        out = []
        for r in self.epochs:
            v = r
            for part in key.split('.'):
                v = v.get(part) if isinstance(v, dict) else None
            if v is not None:
                out.append((r['epoch'], v))
        return out


def read_log(path):
    """Parse and check a training log: a header first, epochs in order, at most one final record, last."""
    try:
        with open(path) as f:
            lines = [ln for ln in f.read().splitlines() if ln.strip()]
    except OSError as e:
        raise BadInputError(f'cannot read training log {path}: {e.strerror or e}') from None
    records = []
    for i, ln in enumerate(lines, 1):
        try:
            records.append(json.loads(ln))
        except ValueError:
            raise BadInputError(f'{path}:{i} is not a JSON record') from None
    if not records or records[0].get('type') != 'header':
        raise BadInputError(f'{path} does not start with a header record')
    epochs = [r for r in records if r.get('type') == 'epoch']
    finals = [r for r in records if r.get('type') == 'final']
    if [r['epoch'] for r in epochs] != list(range(1, len(epochs) + 1)):
        raise BadInputError(f'{path}: epoch records are not 1..N in order')
    if len(finals) > 1 or (finals and records[-1] is not finals[0]):
        raise BadInputError(f'{path}: the final record must be one and last')
    return TrainLog(path, records[0], epochs, finals[0] if finals else None,
                    [r for r in records if r.get('type') == 'resume'])


def log_path(w):
    """The absolute path of the log a Weights record names (relative to the source checkout)."""
    if not w.log:
        raise BadInputError(f'{w.name} has no training log (it was not trained by a gluonzoo recipe)')
    return w.log if os.path.isabs(w.log) else os.path.join(ROOT, w.log)


def check_weights(w):
    """The TrainLog of record `w` after checking that it finished and produced exactly `w`'s file."""
    log = read_log(log_path(w))
    if log.final is None:
        raise BadInputError(f'{log.path} has no final record: the run did not finish')
    if log.final.get('weights_sha1') != w.sha1:
        raise BadInputError(f'{log.path} produced weights {log.final.get("weights_sha1")}, the record {w.name} '
                            f'says {w.sha1}')
    return log
