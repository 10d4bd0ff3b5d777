"""(peers venv) For each job {name, kwargs, shape}: what GluonCV's `model_zoo.get_model(name, **kwargs)` hands back
before the caller initializes it (how many parameters already hold data), and after `net.initialize()` and one
call on a zero batch of `shape`, its parameter names and shapes (structural, as save_parameters writes them);
a job with `gluonnlp` builds GluonNLP's model (a 4-token vocab, pretrained=False) and reports the count only.
Prints one JSON object {name: {'initialized': n, 'params': {name: shape}}}."""
import json
import sys
import warnings

import mxnet as mx
from gluoncv import model_zoo


def main(jobs):
    out = {}
    for job in jobs:
        if job.get('gluonnlp'):  # GluonNLP's get_model(name, vocab=..., pretrained=False) -> (net, vocab)
            import gluonnlp as nlp
            vocab = nlp.Vocab(nlp.data.count_tokens('a b c d'.split()))
            net, _ = nlp.model.get_model(job['name'], vocab=vocab, pretrained=False, **job.get('kwargs', {}))
            initialized = sum(p._data is not None for p in net.collect_params().values())
            out[job['name']] = {'initialized': initialized}
            continue
        net = model_zoo.get_model(job['name'], **job.get('kwargs', {}))
        params = net.collect_params().values()
        initialized = sum(p._data is not None for p in params)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter('always')
            net.initialize()
        net(mx.nd.zeros(tuple(job['shape'])))
        out[job['name']] = {'initialized': initialized, 'warnings': len(caught),
                            'params': {k: list(p.shape) for k, p in net._collect_params_with_prefix().items()}}
    print(json.dumps(out))


if __name__ == '__main__':
    main(json.loads(sys.argv[2]))
