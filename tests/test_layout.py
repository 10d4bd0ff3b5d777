"""The package layout keeps its promises: zoo/ reaches the domains only through discovery, zoo/ has no import
cycle, and no public name of a package is also the name of one of its modules (`gluonzoo.export` was both)."""
import ast
import importlib
import os
import pkgutil
import subprocess


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ZOO = os.path.join(ROOT, 'zoo')


def _modules():
    """{dotted name: path} of every module under zoo/ (gluonzoo.*)."""
    out = {}
    for folder, _, files in os.walk(ZOO):
        for f in files:
            if f.endswith('.py'):
                rel = os.path.relpath(os.path.join(folder, f), ZOO)[:-3].replace(os.sep, '.')
                name = 'gluonzoo' if rel == '__init__' else 'gluonzoo.' + rel.removesuffix('.__init__')
                out[name] = os.path.join(folder, f)
    return out


def _imports(name, path):
    """Every module `name` imports, at module level or inside functions, as absolute dotted names."""
    package = name if path.endswith('__init__.py') else name.rpartition('.')[0]
    out = set()
    for node in ast.walk(ast.parse(open(path).read())):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ''
            if node.level:
                parts = package.split('.')
                base = '.'.join(parts[:len(parts) - node.level + 1] + ([base] if base else []))
            out.add(base)
            out.update(f'{base}.{a.name}' for a in node.names)  # `from . import x` imports module x
    return out


def test_zoo_imports_no_domain_but_through_discovery():
    for name, path in _modules().items():
        domain = sorted(i for i in _imports(name, path) if i.startswith(('gluonzoo.vision', 'gluonzoo.text')))
        assert not domain, f'{name} imports {domain}: reach task code through gluonzoo.tasks / the registry'
    # the issue's own check, as a user would run it
    grep = subprocess.run(['grep', '-rn', r'from gluonzoo.vision\|from gluonzoo.text\|from \.\.vision\|from \.\.text',
                           ZOO], capture_output=True, text=True, timeout=600)
    assert grep.stdout == ''
    assert "DOMAINS = ('vision', 'text')" in open(os.path.join(ZOO, 'discovery.py')).read()


def test_zoo_has_no_import_cycle():
    modules = _modules()
    # the package facade (gluonzoo/__init__) re-exports the API and is what `from . import __version__` reaches;
    # every other module is a node; a module's own parent packages (`from . import x`) are not its dependencies
    graph = {n: sorted(i for i in _imports(n, p) if i in modules and i != 'gluonzoo' and not n.startswith(i + '.'))
             for n, p in modules.items() if n != 'gluonzoo'}
    state, stack = {}, []

    def visit(n):
        state[n] = 'open'
        stack.append(n)
        for m in graph[n]:
            if state.get(m) == 'open':
                raise AssertionError('import cycle: ' + ' -> '.join(stack[stack.index(m):] + [m]))
            if m not in state:
                visit(m)
        stack.pop()
        state[n] = 'done'
    for n in graph:
        if n not in state:
            visit(n)


def test_no_public_name_is_also_a_module_name():
    import gluonzoo.cv
    import gluonzoo.nlp
    import gluonzoo.text
    import gluonzoo.vision
    packages = []
    # the domains and the peers' layouts live outside zoo/: walk each
    for root in (gluonzoo, gluonzoo.vision, gluonzoo.text, gluonzoo.cv, gluonzoo.nlp):
        packages.append(root.__name__)
        packages += [i.name for i in pkgutil.walk_packages(root.__path__, root.__name__ + '.') if i.ispkg]
    clashes = []
    for name in sorted(set(packages)):
        package = importlib.import_module(name)
        subs = {m.name for m in pkgutil.iter_modules(package.__path__)}
        for attr in subs & {a for a in dir(package) if not a.startswith('_')}:
            value = getattr(package, attr)
            if getattr(value, '__name__', None) != f'{name}.{attr}':
                clashes.append(f'{name}.{attr} is both a module and a {type(value).__name__}')
    assert len(packages) > 10 and not clashes, clashes
