"""(peers venv) GluonNLP 0.10's hosted datasets (corpora and word embedding evaluation sets) downloaded from the
test's server on 127.0.0.1; write OUT/hosted.json. One job: {repo, tables, cases, root}: tables
{class: {attr: value}} replace GluonNLP's sha1 tables and URLs (the WikiText ones are set per instance), each case
[id, class, kwargs] is read into root/<id>/. Also reported: GluonNLP's own tables and signatures (before patching)."""
import json
import os
import sys

import gluonnlp as nlp
from gluonnlp.data.corpora import wikitext

from hosted_cases import Stop, sample, signature

CORPORA = ['WikiText2', 'WikiText103', 'WikiText2Raw', 'WikiText103Raw', 'Text8', 'Fil9', 'Enwik8', 'GBWStream']
EVAL = ['WordSim353', 'MEN', 'RadinskyMTurk', 'RareWords', 'SimLex999', 'SimVerb3500', 'SemEval17Task2',
        'BakerVerb143', 'YangPowersVerb130', 'GoogleAnalogyTestSet', 'BiggerAnalogyTestSet']
ATTRS = ('_url', '_namespace', '_archive_file', '_checksums', '_data_file', '_segment_file', 'archive_file',
         'data_file', '_archive_data', '_archive_vocab', '_vocab_file', 'min', 'max', '_words1', '_words2')


def facts(home):
    """GluonNLP's own tables per class (WikiText's from an instance stopped before it downloads) and signatures
    (defaults that are not functions; root relative to MXNET_HOME)."""
    out = {}
    orig = wikitext._WikiText._get_data

    def record(self):
        raise Stop({a: getattr(self, a) for a in ('_archive_file', '_data_file', '_namespace')})
    wikitext._WikiText._get_data = record
    try:
        for name in CORPORA + EVAL:
            cls = getattr(nlp.data, name)
            tables = {a: getattr(cls, a) for a in ATTRS if getattr(cls, a, None) is not None}
            if name.startswith('WikiText'):
                try:
                    cls(root=os.path.join(home, 'unused'))
                except Stop as e:
                    tables.update(e.args[0])
            out[name] = {'tables': tables, 'signature': signature(cls, home),
                         'registered': name.lower() in nlp.data.list_datasets()}
    finally:
        wikitext._WikiText._get_data = orig
    return out


def read(name, kwargs, root):
    cls = getattr(nlp.data, name)
    ds = cls(root=root, **kwargs)
    if name == 'GBWStream':
        parts = [[sample(s) for s in part] for part in ds]
        return {'parts': sorted(parts) if kwargs.get('segment', 'train') == 'train' else parts,
                'vocab': ds.vocab.idx_to_token}
    return {'len': len(ds), 'type': type(ds[0]).__name__ if len(ds) else None,
            'samples': [sample(ds[i]) for i in range(len(ds))],
            'attrs': {a: getattr(ds, a) for a in ('min', 'max', 'segment', 'language', 'group', 'category')
                      if hasattr(ds, a)}}


def main():
    out_dir, jobs = sys.argv[1], json.loads(sys.argv[2])
    job = jobs[0]
    result = {'facts': facts(out_dir)}
    os.environ['MXNET_GLUON_REPO'] = job['repo']
    tables = job['tables']
    for name, attrs in tables.items():
        if not name.startswith('WikiText'):
            for a, v in attrs.items():
                setattr(getattr(nlp.data, name), a, v)
    orig = wikitext._WikiText._get_data

    def patched(self):
        for a, v in tables[type(self).__name__].items():
            setattr(self, a, v)
        return orig(self)
    wikitext._WikiText._get_data = patched
    result['cases'] = {cid: read(name, kwargs, os.path.join(job['root'], cid)) for cid, name, kwargs in job['cases']}
    with open(os.path.join(out_dir, 'hosted.json'), 'w') as f:
        json.dump(result, f)


if __name__ == '__main__':
    main()
