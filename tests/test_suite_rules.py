"""Rules that keep the suite from passing by accident or hanging CI: read from the tests' own source (ast)."""
import ast
import glob
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TESTS = sorted(glob.glob(os.path.join(ROOT, 'tests', '**', '*.py'), recursive=True))
#: calls that block on another process: each needs a timeout, or one hung child stalls CI until its 90-minute limit
BLOCKING = {('subprocess', 'run'), ('subprocess', 'check_output'), ('subprocess', 'call'), ('subprocess', 'check_call')}


def _calls(path):
    for node in ast.walk(ast.parse(open(path).read(), path)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner = node.func.value.id if isinstance(node.func.value, ast.Name) else None
            yield node, owner, node.func.attr


def _where(path, node):
    return f'{os.path.relpath(path, ROOT)}:{node.lineno}'


def test_every_subprocess_wait_has_a_timeout():
    missing = []
    for path in TESTS:
        for node, owner, attr in _calls(path):
            has_timeout = any(k.arg == 'timeout' for k in node.keywords)
            if (owner, attr) in BLOCKING and not has_timeout:
                missing.append(_where(path, node))
            # p.communicate() / p.wait() on a Popen: a timeout keyword or a positional one
            if attr in ('communicate', 'wait') and owner not in ('threading', 'time', 'event') \
                    and not has_timeout and not node.args:
                missing.append(_where(path, node))
    assert not missing, f'subprocess calls without a timeout: {missing}'


def test_nothing_is_skipped_for_a_missing_dependency():
    # test dependencies are installed by `make test` (setup.py's 'test' extra, `make peers`): a missing one must
    # fail loudly, not turn its tests into silent skips
    found = [_where(path, node) for path in TESTS for node, owner, attr in _calls(path)
             if owner == 'pytest' and attr in ('importorskip', 'skip')]
    assert not found, f'skips: {found}'
