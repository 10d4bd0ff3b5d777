"""Rerun the recipe that trained a checkpoint and check that it wrote the same log (`gluonzoo train NAME`).

The record of every checkpoint gluonzoo trained holds the exact command that made it (`recipe`: environment
variables, then `python scripts/...`, run from the source checkout, writing into out/) and the log that command
wrote (`log`, under logs/). A rerun reproduces the checkpoint when its epoch and final records equal the committed
ones, wall-clock fields aside; the final record carries the weights' sha1, so equal logs mean equal bytes.
"""
import contextlib
import os
import shutil
import subprocess
import sys

from ..errors import BadInputError, GluonzooError, NotReproducedError
from ..logs import ROOT, check_weights, read_log
from .. import standin
from ..recipes import recipe_command, run_paths
from .config import RUN_ONLY

VOLATILE = ('time', 'seconds')  # wall-clock fields: the only ones a rerun may change


def differences(committed, rerun):
    """How the TrainLog `rerun` departs from `committed` (empty when it reproduces it): dataset checksum, config
    (but where output goes and how progress shows: config.RUN_ONLY), then every epoch record and the final one,
    wall-clock fields aside. Resume records are not compared."""
    out = []
    a, b = committed.header['dataset'].get('checksum'), rerun.header['dataset'].get('checksum')
    if a != b:
        out.append(f'the data differ (dataset checksum {str(b)[:12]}..., the log has {str(a)[:12]}...)')
    config = [k for k in sorted(set(committed.config) | set(rerun.config))
              if k not in RUN_ONLY and committed.config.get(k) != rerun.config.get(k)]
    if config:
        k = config[0]
        out.append(f'config {k} is {rerun.config.get(k)!r}, the log has {committed.config.get(k)!r}')

    def comparable(log):
        return [{k: v for k, v in r.items() if k not in VOLATILE} for r in log.epochs + [log.final] if r]
    want, got = comparable(committed), comparable(rerun)
    for r, s in zip(want, got):
        if r != s:
            where = f'epoch {r["epoch"]}' if r.get('type') == 'epoch' else 'the final record'
            key = next(k for k in sorted(set(r) | set(s)) if r.get(k) != s.get(k))
            out.append(f'{where}: {key} {s.get(key)}, the log has {r.get(key)}')
    if len(want) != len(got):
        out.append(f'{len(got) - 1} epochs, the log has {len(want) - 1}')
    return out


def rerun(w, resume=False, root=None, output=None):
    """Run the recipe of `w` again (continuing an interrupted rerun with `resume`; what it prints goes to the file
    `output` when given, else to this process's) and check its log against the committed one. Returns (path of the
    weights file, None) when it reproduced the log exactly; otherwise, when every final metric is within the
    record's rerun tolerance (standin.tolerances), (path of the file kept in the cache under its own sha1, its
    provenance note): a stand-in (see gluonzoo.standin). Raises NotReproducedError when a metric is beyond its
    tolerance, or the record gives none."""
    env, argv = recipe_command(w)
    committed = check_weights(w)
    out, log = run_paths(w)
    if not resume and os.path.exists(out):
        # only the build area is ever cleared: a recipe whose --out lies elsewhere must be cleared by hand
        if os.path.commonpath([out, os.path.join(ROOT, 'out')]) != os.path.join(ROOT, 'out'):
            raise BadInputError(f'{out} exists and is not under {ROOT}/out: remove it, or pass --resume')
        shutil.rmtree(out)
    cmd = [sys.executable] + argv[1:] + (['--resume'] if resume else [])
    with open(output, 'w') if output else contextlib.nullcontext() as sink:
        code = subprocess.run(cmd, cwd=ROOT, env=dict(os.environ, **env), stdout=sink,
                              stderr=subprocess.STDOUT if output else None).returncode
    if code:
        where = f' (its output: {output})' if output else ''
        raise GluonzooError(f'the recipe of {w.name} exited with {code}{where}: {w.recipe}')
    made = read_log(log)
    diffs = differences(committed, made)
    if not diffs:
        standin.remove(w, root)
        return os.path.join(out, committed.final['weights_file']), None
    results = standin.compare(w, committed, made) if made.final else []
    if not results or not all(ok for *_, ok in results):
        beyond = '; '.join(f'final {m} {got}, the log has {logged}, tolerance {tol}'
                           for m, logged, got, tol, ok in results if not ok) or 'no rerun tolerance in its record'
        raise NotReproducedError(f'{w.name} did not reproduce {w.log}: {diffs[0]} ({len(diffs)} difference(s); '
                                 f'{beyond}; the rerun wrote {argv[argv.index("--log") + 1]})')
    return standin.write(w, os.path.join(out, made.final['weights_file']), made, diffs, results, w.recipe, root)
