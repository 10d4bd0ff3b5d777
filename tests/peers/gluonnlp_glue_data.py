"""(peers venv) GluonNLP 0.10's GLUE, SuperGLUE and Baidu ERNIE datasets downloaded from the test's server on
127.0.0.1; write OUT/glue.json. One job: {repo, tables, mrpc, ernie_url, cases, root}: tables {class: {segment:
[segment, zip sha1, file sha1]}} replace the tables GluonNLP builds in __init__, mrpc {data_file, raw_url,
dev_ids: [url, sha1]} GlueMRPC's sources, ernie_url the ERNIE archive's URL; each case [id, class, kwargs] is read
into root/<id>/ (no root for BaiduErnieLCQMC). Also reported: GluonNLP's own tables and signatures (before
patching)."""
import inspect
import json
import os
import re
import sys

import gluonnlp as nlp
from gluonnlp.data import baidu_ernie_data, glue, super_glue

from hosted_cases import Stop, sample, signature

GLUE = ['GlueCoLA', 'GlueSST2', 'GlueSTSB', 'GlueQQP', 'GlueRTE', 'GlueMNLI', 'GlueQNLI', 'GlueWNLI']
SUPER = ['SuperGlueRTE', 'SuperGlueCB', 'SuperGlueWSC', 'SuperGlueWiC', 'SuperGlueCOPA', 'SuperGlueMultiRC',
         'SuperGlueBoolQ', 'SuperGlueReCoRD', 'SuperGlueAXb', 'SuperGlueAXg']
ERNIE = ['BaiduErnieXNLI', 'BaiduErnieLCQMC', 'BaiduErnieChnSentiCorp']
DEV_ID_URL = ('https://firebasestorage.googleapis.com/v0/b/mtl-sentence-representations.appspot.com/o/'
              'data%2Fmrpc_dev_ids.tsv?alt=media&token=ec5c0836-31d5-48f4-b431-7480817f1adc')


def facts(home):
    """Each class's table (from an instance stopped before it downloads), repo dir, signature, registration."""
    def glue_stop(self, root, data_file, **kwargs):
        raise Stop({'data_file': self._data_file, 'repo': self._repo_dir()})

    def super_stop(self, root, data_file):
        table = getattr(self, '_data_file', None) or {data_file[0]: data_file}
        raise Stop({'data_file': table, 'repo': self._repo_dir()})

    def mrpc_stop(self, segment):
        raise Stop({'data_file': self._data_file, 'repo': self._repo_dir()})
    saved = glue._GlueDataset.__init__, super_glue._SuperGlueDataset.__init__, glue.GlueMRPC._generate
    glue._GlueDataset.__init__, super_glue._SuperGlueDataset.__init__, glue.GlueMRPC._generate = \
        glue_stop, super_stop, mrpc_stop
    out = {}
    try:
        for name in GLUE + SUPER + ['GlueMRPC'] + ERNIE:
            cls = getattr(nlp.data, name)
            tables = {}
            if name not in ERNIE:
                try:
                    cls(root=os.path.join(home, 'unused'))
                except Stop as e:
                    tables = e.args[0]
            out[name] = {'tables': tables, 'signature': signature(cls, home),
                         'registered': name.lower() in nlp.data.list_datasets()}
    finally:
        glue._GlueDataset.__init__, super_glue._SuperGlueDataset.__init__, glue.GlueMRPC._generate = saved
    out['ernie_url'] = baidu_ernie_data._baidu_ernie_data_url
    src = inspect.getsource(glue.GlueMRPC._generate)  # GlueMRPC's dev ids source is local to _generate
    out['mrpc_dev_ids'] = [re.search(r"DEV_ID_URL = '([^']+)'", src).group(1),
                           re.search(r"DEV_ID_HASH = '([^']+)'", src).group(1)]
    return out


TASKS = ['mrpc', 'qqp', 'qnli', 'rte', 'sts-b', 'cola', 'mnli', 'wnli', 'sst', 'xnli', 'lcqmc', 'chnsenticorp']


def metric_values(metric, regression):
    """metric.get() after two batches: labels [1,0,1,1] / [0,0,1,0] against fixed scores."""
    import mxnet as mx
    import numpy as np
    labels = [np.array([1, 0, 1, 1.]), np.array([0, 0, 1, 0.])]
    scores = [np.array([[.2, .8], [.6, .4], [.7, .3], [.1, .9]]), np.array([[.4, .6], [.9, .1], [.3, .7], [.8, .2]])]
    for y, p in zip(labels, scores):
        metric.update([mx.nd.array(y)], [mx.nd.array(p[:, 1] * 5 if regression else p)])
    names, values = metric.get()
    return [names, [float(v) for v in values] if isinstance(values, list) else float(values)]


def tasks():
    """Each get_task's class, labels, pairing, alias, metric config and values; an unknown name's error."""
    out = {}
    for name in TASKS:
        t = nlp.data.get_task(name.upper() if name == 'sst' else name)
        out[name] = {'class': type(t).__name__, 'class_labels': t.class_labels, 'is_pair': t.is_pair,
                     'label_alias': t.label_alias, 'config': t.metrics.get_config(),
                     'values': metric_values(t.metrics, t.class_labels is None)}
    try:
        nlp.data.get_task('foo')
    except Exception as e:  # noqa: BLE001  its type is the fact
        out['error'] = [c.__name__ for c in type(e).__mro__]
    return out


def patch(job):
    tables, mrpc = job['tables'], job['mrpc']
    glue_init, super_init = glue._GlueDataset.__init__, super_glue._SuperGlueDataset.__init__
    generate, download = glue.GlueMRPC._generate, glue.download

    def glue_patched(self, root, data_file, **kwargs):
        glue_init(self, root, tables[type(self).__name__][data_file[0]], **kwargs)

    def super_patched(self, root, data_file):
        super_init(self, root, tables[type(self).__name__][data_file[0]])

    def mrpc_generate(self, segment):
        self._data_file = mrpc['data_file']
        return generate(self, segment)

    def mrpc_download(url, path=None, sha1_hash=None, **kwargs):
        if url == DEV_ID_URL:
            url, sha1_hash = mrpc['dev_ids']
        return download(url, path=path, sha1_hash=sha1_hash, **kwargs)
    glue._GlueDataset.__init__, super_glue._SuperGlueDataset.__init__ = glue_patched, super_patched
    glue.GlueMRPC._generate, glue.download = mrpc_generate, mrpc_download
    glue.GlueMRPC._repo_dir = lambda self: mrpc['raw_url']
    baidu_ernie_data._baidu_ernie_data_url = job['ernie_url']


def read(name, kwargs, root):
    cls = getattr(nlp.data, name)
    ds = cls(**kwargs) if name == 'BaiduErnieLCQMC' else cls(root=root, **kwargs)
    return {'len': len(ds), 'type': type(ds[0]).__name__ if len(ds) else None,
            'samples': [sample(ds[i]) for i in range(len(ds))]}


def main():
    out_dir, jobs = sys.argv[1], json.loads(sys.argv[2])
    job = jobs[0]
    result = {'facts': facts(out_dir), 'tasks': tasks()}
    os.environ['MXNET_GLUON_REPO'] = job['repo']
    patch(job)
    result['cases'] = {cid: read(name, kwargs, os.path.join(job['root'], cid)) for cid, name, kwargs in job['cases']}
    with open(os.path.join(out_dir, 'glue.json'), 'w') as f:
        json.dump(result, f)


if __name__ == '__main__':
    main()
