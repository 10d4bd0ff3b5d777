"""(peers venv) GluonCV 0.10.5's model_zoo as a script sees it. Prints one JSON object:
  'functions': {get_model name: the name of the function it calls},
  'pretrained': pretrained_model_list(),
  'built': {job id: {structural parameter name: shape}} for each job {id, call, args, kwargs, shape, classes}:
    `call` is a model_zoo attribute (a function or a class; `classes` names model_zoo classes among the args),
    called with args/kwargs, then initialized and, when `shape` is given, called on a zero batch of that shape
    (without it only the parameter names are kept, shapes as None)."""
import json
import sys
import warnings

import mxnet as mx

warnings.simplefilter('ignore')
from gluoncv import model_zoo  # noqa: E402
from gluoncv.model_zoo import model_zoo as registry  # noqa: E402


def build(job):
    args = [getattr(model_zoo, a) if a in job.get('classes', ()) else a for a in job.get('args', [])]
    net = getattr(model_zoo, job['call'])(*args, **job.get('kwargs', {}))
    net.initialize()
    if job.get('shape'):
        net(mx.nd.zeros(tuple(job['shape'])))
    return {k: (list(p.shape) if job.get('shape') else None) for k, p in net._collect_params_with_prefix().items()}


def main(jobs):
    print(json.dumps({'functions': {k: f.__name__ for k, f in registry._models.items()},
                      'pretrained': list(model_zoo.pretrained_model_list()),
                      'built': {job['id']: build(job) for job in jobs}}))


if __name__ == '__main__':
    main(json.loads(sys.argv[2]))
