"""Training checkpoints: one zip per epoch, written to a temp file and renamed, checked member by member on load.

A checkpoint holds what an uninterrupted run would still have in memory at that point: the parameters (Gluon
structural names), the optimizer states, the RNG states (numpy and Python; MXNet's generator has no getter, so the
engine reseeds it from (seed, epoch) at every epoch start and the checkpoint records the seed it will use), the
data position (next epoch, next batch), the config fingerprint and the log records so far.
"""
import glob
import hashlib
import json
import os
import random
import re
import tempfile
import zipfile

import numpy as np

from ..errors import CheckpointError

FORMAT = 1
_NAME = re.compile(r'^epoch-(\d{4,})\.ckpt$')


def path_for(out, epoch):
    return os.path.join(out, f'epoch-{epoch:04d}.ckpt')


def latest(out):
    """The checkpoint with the highest epoch in folder `out`, or None."""
    found = sorted((int(m.group(1)), p) for p in glob.glob(os.path.join(glob.escape(out), 'epoch-*.ckpt'))
                   if (m := _NAME.match(os.path.basename(p))))
    return found[-1][1] if found else None


def rng_state():
    kind, keys, pos, has_gauss, gauss = np.random.get_state()
    return {'numpy': [kind, keys.tolist(), int(pos), int(has_gauss), float(gauss)],
            'python': json.loads(json.dumps(random.getstate()))}


def set_rng_state(state):
    kind, keys, pos, has_gauss, gauss = state['numpy']
    np.random.set_state((kind, np.array(keys, dtype=np.uint32), pos, has_gauss, gauss))
    version, internal, gauss_next = state['python']
    random.setstate((version, tuple(internal), gauss_next))


def _sha1(data):
    return hashlib.sha1(data).hexdigest()


def save(path, net, trainer, state):
    """Write params + trainer states + `state` (JSON-able) to `path` atomically (temp file + os.replace)."""
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    members = {}
    with tempfile.TemporaryDirectory(dir=folder, prefix='.ckpt-') as tmp:
        net.save_parameters(os.path.join(tmp, 'p'))
        trainer.save_states(os.path.join(tmp, 't'))
        for name, f in (('params', 'p'), ('trainer', 't')):
            with open(os.path.join(tmp, f), 'rb') as fh:
                members[name] = fh.read()
    shapes = {k: list(p.shape) for k, p in net._collect_params_with_prefix().items()}
    meta = dict(state, format=FORMAT, shapes=shapes, sha1={k: _sha1(v) for k, v in members.items()})
    fd, tmp = tempfile.mkstemp(dir=folder, prefix='.' + os.path.basename(path) + '-', suffix='.part')
    try:
        with os.fdopen(fd, 'wb') as fh:
            with zipfile.ZipFile(fh, 'w', zipfile.ZIP_STORED) as zf:
                for name, data in members.items():
                    zf.writestr(name, data)
                zf.writestr('state.json', json.dumps(meta))
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def read(path):
    """(state dict, params bytes, trainer bytes) of a checkpoint, every member checked against its sha1."""
    try:
        with zipfile.ZipFile(path) as zf:
            meta = json.loads(zf.read('state.json'))
            members = {k: zf.read(k) for k in ('params', 'trainer')}
    except FileNotFoundError:
        raise CheckpointError(f'checkpoint {path} does not exist') from None
    except (zipfile.BadZipFile, KeyError, ValueError, OSError) as e:
        raise CheckpointError(f'checkpoint {path} is corrupt ({e}); delete it to resume from the one before, '
                              'or train again without --resume into an empty --out') from None
    if meta.get('format') != FORMAT:
        raise CheckpointError(f'checkpoint {path} has format {meta.get("format")}, this gluonzoo reads {FORMAT}')
    for k, data in members.items():
        if _sha1(data) != meta['sha1'].get(k):
            raise CheckpointError(f'checkpoint {path} is corrupt: its {k} member does not match its sha1; delete it '
                                  'to resume from the one before')
    return meta, members['params'], members['trainer']


def check_config(path, meta, fingerprint):
    """Refuse a checkpoint made by another config: resuming it would not continue this run."""
    saved = meta.get('config', {})
    for k in sorted(set(saved) | set(fingerprint)):
        if saved.get(k) != fingerprint.get(k):
            raise CheckpointError(f'checkpoint {path} was made with {k}={saved.get(k)!r}, this run has '
                                  f'{k}={fingerprint.get(k)!r}: resume with the same config, or use another --out')


def check_fits(path, meta, fingerprint, net):
    """Refuse a checkpoint made by another config or for another net."""
    check_config(path, meta, fingerprint)
    shapes = {k: list(p.shape) for k, p in net._collect_params_with_prefix().items()}
    if meta.get('shapes') != shapes:
        diff = sorted(set(meta.get('shapes', {})) ^ set(shapes)) or \
            [k for k in shapes if meta['shapes'][k] != shapes[k]]
        raise CheckpointError(f'checkpoint {path} does not fit the net {type(net).__name__} (first difference: '
                              f'{diff[0] if diff else "?"})')


def restore(path, net, trainer, fingerprint, ctx):
    """Load checkpoint `path` into net and trainer after checking it; return its state dict."""
    meta, params, states = read(path)
    check_fits(path, meta, fingerprint, net)
    with tempfile.TemporaryDirectory(prefix='gluonzoo-ckpt-') as tmp:
        for name, data in (('p', params), ('t', states)):
            with open(os.path.join(tmp, name), 'wb') as fh:
                fh.write(data)
        net.load_parameters(os.path.join(tmp, 'p'), ctx=ctx)
    _load_states(trainer, states)
    set_rng_state(meta['rng'])
    return meta


def _load_states(trainer, data):
    """Trainer.load_states for the engine's trainers, which update on the workers (no kvstore, or a dist one with
    update_on_kvstore=False), minus the kvstore initialization load_states starts with: on a dist kvstore that
    initialization, made before any backward, kills MXNet 1.9.1's server ('init 4 first'); the engine makes it at
    the first step (engine._broadcast_weights). The rest is what load_states does for this case."""
    for updater in trainer._updaters:
        updater.set_states(data)
        updater.optimizer = trainer._updaters[0].optimizer
    trainer._optimizer = trainer._updaters[0].optimizer
    trainer._optimizer.param_dict = dict(enumerate(trainer._params))
