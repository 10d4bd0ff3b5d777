"""(peers venv) GluonNLP 0.10.0's gluonnlp.model calling conventions as JSON on stdout: list_models(), and for each
builder function and the named classes the parameter names of the call (the constructor's for a class) and their
defaults (repr)."""
import inspect
import json
import sys
import warnings

with warnings.catch_warnings():
    warnings.simplefilter('ignore')
    import gluonnlp


def _params(fn):
    return [[k, None if p.default is inspect.Parameter.empty else repr(p.default)]
            for k, p in inspect.signature(fn).parameters.items() if k not in ('self', 'kwargs', 'prefix', 'params')]


def main(classes):
    names = sorted(gluonnlp.model.list_models())
    out = {'list_models': names, 'signatures': {n: _params(getattr(gluonnlp.model, n)) for n in names
                                                if n[0].islower()}}
    out['signatures'].update({c: _params(getattr(gluonnlp.model, c).__init__) for c in classes})
    print(json.dumps(out))


if __name__ == '__main__':
    main(json.loads(sys.argv[2]))
