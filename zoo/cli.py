"""`gluonzoo` command line: list | info | export | verify-export | verify | train, and the verbs the task domains
register (predict for image classification, embed for text embeddings; gluonzoo.tasks.Command).

An error prints one line, `gluonzoo: error: ...`, and exits 1; --debug shows the traceback instead.
"""
import argparse
import json
import os
import sys
import time


def table(rows, header):
    """Rows of values as left-aligned text columns under `header`."""
    widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header))]
    line = '  '.join('{:<%d}' % w for w in widths)
    return '\n'.join(line.format(*map(str, r)).rstrip() for r in [header] + rows)


def cmd_list(args):
    from .registry import get_entry, list_models
    rows = []
    for name in list_models(args.pattern, task=args.task, pretrained=True if args.pretrained else None):
        e = get_entry(name)
        d = e.default_weights
        tags = ','.join(sorted(e.weights)) or '-'
        top1 = d.metrics.get('top1', '-') if d else '-'
        rows.append((name, e.task, f'{d.num_params / 1e6:.2f}M' if d else '-', tags, d.tag if d else '-', top1))
    if not rows:
        print('no models match')
        return 0
    print(table(rows, ('name', 'task', 'params', 'weights', 'default', 'top1')))
    return 0


def cmd_info(args):
    from .registry import get_weights
    w = get_weights(args.name)
    d = w.as_dict()
    if args.json:
        print(json.dumps(d, indent=2, default=str))
    else:
        for k, v in d.items():
            if k == 'classes' and v and len(v) > 10:  # the whole list is in --json
                v = f'{len(v)}: {" | ".join(v[:3])} | ... | {v[-1]}'
            print(f'{k:>12}: {v}')
    return 0


class Parser(argparse.ArgumentParser):
    """argparse keeping the CLI's promise: a usage error is one line, `gluonzoo: error: ...`, and exit status 1."""

    def error(self, message):
        # the prefix once: a subcommand's parser (prog `gluonzoo export`) names its verb after it
        verb = self.prog.split(' ', 1)[1] if ' ' in self.prog else ''
        print(f'gluonzoo: error: {verb + ": " if verb else ""}{message} (see `{self.prog} --help`)', file=sys.stderr)
        sys.exit(1)


def input_shape(text):
    """--input-shape: N,C,H,W (or any rank) of positive integers."""
    try:
        shape = tuple(int(x) for x in text.split(','))
    except ValueError:
        shape = ()
    if not shape or min(shape) < 1:
        raise argparse.ArgumentTypeError(f'{text!r} is not a shape: give positive integers joined by commas, '
                                         'e.g. 1,3,224,224')
    return shape


def positive_int(text):
    if not text.strip().isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f'{text!r} is not a positive integer')
    return int(text)


def cmd_export(args):
    from .exporting import export
    out = args.out or os.path.join('exported', args.name)
    shape = args.input_shape
    formats = list(args.format)
    if (args.onnx or args.preprocess or args.target != 'ort') and 'onnx' not in formats:
        formats.append('onnx')
    written = export(args.name, out, input_shape=shape, formats=tuple(formats), preprocess=args.preprocess,
                     target=args.target, opset=args.opset)
    for fmt, path in written.items():
        print(f'{fmt:>7}: {path}')
    return 0


def cmd_verify_export(args):
    """Export at full size and compare MXNet with ONNX Runtime (relative error of the largest |output|)."""
    from .exporting import verify_export
    from .exporting.verify import RTOL
    err = verify_export(args.name, input_shape=args.input_shape, batch=args.batch)
    print(f'{args.name}: ONNX Runtime matches MXNet, relative error {err:.2e} <= {RTOL:g}')
    return 0


def verify(w):
    """Recompute the sha1 of record `w`'s file and rerun the checks it names: its task's own (e.g. top-1 on the
    bundled photos), and for a checkpoint gluonzoo trained, the metric its log records. Prints a line a check;
    returns how many failed."""
    from . import standin
    from .registry import get_model
    from .store import fetch, file_hash
    from .tasks import get_task
    path = fetch(w)
    got = file_hash(path)
    note = standin.in_use(w, path)
    want = note['sha1'] if note else w.sha1
    print(f'sha1 {got} {"ok" if got == want else "MISMATCH"} ({path}'
          f'{f", a local stand-in for the published {w.sha1[:8]}: {standin.note_path(w)}" if want != w.sha1 else ""})')
    failures = int(got != want)
    task = get_task(w.task)
    if task.verify and set(w.check) - {'log', 'rerun'}:
        for line, ok in task.verify(w, get_model(w.name, pretrained=True)):
            failures += not ok
            print(line)
    if w.log:  # a checkpoint gluonzoo trained: re-measure it on the split its log names
        from .train.verify import verify_log
        log, results = verify_log(w, path=path)
        for metric, logged, got, tol, ok in results:
            failures += not ok
            print(f'{metric} on {log.final["split"]}: {got:.4f}, the log says {logged:.4f} (tolerance {tol}) '
                  f'{"ok" if ok else "DIFFERS"}')
    if failures:
        print(f'gluonzoo: error: {w.name} failed {failures} check(s)', file=sys.stderr)
    else:
        print(f'{w.name}: verified')
    return failures


def cmd_verify(args):
    """Recompute the sha1 of the checkpoint and rerun the check its record names (for trained ones: its log's)."""
    from .registry import get_weights
    return 1 if verify(get_weights(args.name)) else 0


def cmd_train(args):
    """Rerun the recipes of trained checkpoints: each must reproduce its committed log exactly; its file then goes
    into the cache and is verified against the log. --missing: every checkpoint that only a rerun can supply.
    --jobs N runs N recipes at once (each is one thread), each writing its output to a file beside its log; a
    recipe that fails is reported in one line and the others go on; the exit status is 1 if any failed."""
    from concurrent.futures import ThreadPoolExecutor, as_completed

    from .errors import GluonzooError, WeightsNotFoundError
    from .recipes import run_paths
    from .registry import get_weights, list_models
    from .store import fetch
    from .train.rerun import rerun
    if bool(args.names) == args.missing:
        raise ValueError('give checkpoint names (gluonzoo list --pretrained) or --missing, not both or neither')
    if args.missing:
        todo = []
        for name in list_models(tags=True):
            w = get_weights(name)
            if w.source.kind == 'recipe':
                try:
                    print(f'{name}: already built ({fetch(w, progress=False)})')
                except WeightsNotFoundError:
                    todo.append(w)
    else:
        todo = [get_weights(n) for n in args.names]
        for w in todo:
            run_paths(w)  # a record that is not a recipe's stops the command before anything runs
    jobs = max(1, min(args.jobs, len(todo)))

    def build(w):  # in a worker thread: the recipe runs in its own process; loading and verifying stay in this one
        t0, output = time.time(), None if jobs == 1 else os.path.splitext(run_paths(w)[1])[0] + '.out'
        print(f'{w.name}: {w.recipe}' + (f' (output in {output})' if output else ''), flush=True)
        return rerun(w, resume=args.resume, output=output) + (time.time() - t0,)

    failed = 0
    with ThreadPoolExecutor(jobs) as pool:
        running = {pool.submit(build, w): w for w in todo}
        for done in as_completed(running):
            w = running[done]
            try:
                made, note, seconds = done.result()
                if note is None:
                    print(f'{w.name}: reproduced {w.log} exactly in {seconds:.0f} s ({made})', flush=True)
                else:
                    print(f'{w.name}: did NOT reproduce {w.log} byte for byte; kept as a stand-in within the '
                          f'record\'s tolerance in {seconds:.0f} s ({made}; {note["differences"][0]})', flush=True)
                fetch(w, progress=False)
                failed += bool(verify(w))
            except GluonzooError as e:
                print(f'gluonzoo: error: {str(e).splitlines()[0]}', file=sys.stderr, flush=True)
                failed += 1
    if failed and len(todo) > 1:
        print(f'gluonzoo: {failed} of {len(todo)} checkpoints were not built', file=sys.stderr)
    return 1 if failed else 0


def build_parser():
    p = Parser(prog='gluonzoo', description='Gluon model zoo for vision and NLP.')
    p.add_argument('--debug', action='store_true', help='show tracebacks instead of one-line errors')
    sub = p.add_subparsers(dest='command', required=True)

    s = sub.add_parser('list', help='list registered models')
    s.add_argument('pattern', nargs='?', help="fnmatch pattern, e.g. 'mobilenet*'")
    s.add_argument('--task', help='a task (image-classification) or a domain (vision, text)')
    s.add_argument('--pretrained', action='store_true', help='only models with weights')
    s.set_defaults(fn=cmd_list)

    s = sub.add_parser('info', help="show a model's weights record")
    s.add_argument('name', help='arch (its default weights) or arch.tag')
    s.add_argument('--json', action='store_true')
    s.set_defaults(fn=cmd_info)

    s = sub.add_parser('export', help='hybridize and write symbol + params')
    s.add_argument('name')
    s.add_argument('--out', help='path prefix (default exported/NAME)')
    s.add_argument('--input-shape', type=input_shape, help='N,C,H,W (default: from the weights record)')
    s.add_argument('--format', action='append', default=None, choices=['symbol', 'onnx'],
                   help='repeatable; default symbol')
    s.add_argument('--onnx', action='store_true', help='also write NAME.onnx (opset 13, dynamic batch)')
    s.add_argument('--preprocess', action='store_true',
                   help='ONNX takes raw uint8 NHWC RGB and normalizes inside (implies --onnx)')
    s.add_argument('--target', default='ort', help='ort (default) or opencv: rewrites for OpenCV 4.6 DNN')
    s.add_argument('--opset', type=int, default=13, help='ONNX opset (13)')
    s.set_defaults(fn=cmd_export)

    s = sub.add_parser('verify-export', help='export at full size, compare MXNet with ONNX Runtime')
    s.add_argument('name')
    s.add_argument('--input-shape', type=input_shape, help='N,C,H,W (default: from the weights record)')
    s.add_argument('--batch', type=positive_int, default=2, help='batch size of the comparison (default 2: not the '
                   'exported 1, so the dynamic batch axis is checked)')
    s.set_defaults(fn=cmd_verify_export)

    s = sub.add_parser('verify', help="recompute a checkpoint's sha1 and rerun its record's check")
    s.add_argument('name')
    s.set_defaults(fn=cmd_verify)

    s = sub.add_parser('train', help='rerun the recipe of a trained checkpoint; it must reproduce its log')
    s.add_argument('names', nargs='*', metavar='NAME', help='arch.tag of checkpoints gluonzoo trained')
    s.add_argument('--missing', action='store_true',
                   help='every checkpoint only its recipe can supply that is not built yet (make weights)')
    s.add_argument('--resume', action='store_true', help='continue an interrupted rerun from its last epoch')
    s.add_argument('--jobs', type=positive_int, default=1,
                   help='recipes run at once, one thread each (default 1; each one\'s output then goes to a file)')
    s.set_defaults(fn=cmd_train)

    from .tasks import commands  # the verbs the domains add (predict, embed, ...)
    for command in commands().values():
        s = sub.add_parser(command.name, help=command.help)
        command.configure(s)
        s.set_defaults(fn=command.run)
    return p


def main(argv=None):
    args = build_parser().parse_args(argv)
    if getattr(args, 'format', None) is None and args.command == 'export':
        args.format = ['symbol']
    try:
        return args.fn(args)
    except KeyboardInterrupt:
        print('gluonzoo: interrupted', file=sys.stderr)
        return 130
    except Exception as e:  # one line unless --debug: the message is written to be enough
        if args.debug:
            raise
        msg = str(e).splitlines()[0] if str(e) else type(e).__name__
        print(f'gluonzoo: error: {msg}', file=sys.stderr)
        return 1


if __name__ == '__main__':
    sys.exit(main())
