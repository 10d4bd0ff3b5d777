"""(peers venv) GluonNLP 0.10's sentiment and translation datasets downloaded from the test's server on 127.0.0.1;
write OUT/sent_tr.json. One job {repo, sentiment, translation, cases, root}: `sentiment` {class: GluonNLP's table
shape} replaces each class's table; `translation` {class: {'archive': [zip, sha1], 'sha1': {file: sha1}}} replaces
the archive and each file's sha1 of an instance's tables; each case [id, class, kwargs] is read into root/<id>/.
Also reported (before patching): GluonNLP's own tables, per argument combination, and signatures."""
import json
import os
import sys

import gluonnlp as nlp
from gluonnlp.data import sentiment, translation

from hosted_cases import Stop, signature

SENTIMENT = ['IMDB', 'MR', 'TREC', 'SUBJ', 'SST_1', 'SST_2', 'CR', 'MPQA']
TRANSLATION = ['IWSLT2015', 'WMT2014', 'WMT2014BPE', 'WMT2016', 'WMT2016BPE']
VOCAB = ('IWSLT2015', 'WMT2014BPE', 'WMT2016BPE')


def facts(home):
    out = {}
    orig_imdb, orig_fetch = sentiment.IMDB._get_data, translation._TranslationDataset._fetch_data_path

    def stop_imdb(self):
        raise Stop(self._data_file)

    def stop_fetch(self, _):
        raise Stop({'_archive_file': self._archive_file, '_data_file': self._data_file,
                     '_supported_segments': self._supported_segments, '_namespace': self._namespace})
    sentiment.IMDB._get_data, translation._TranslationDataset._fetch_data_path = stop_imdb, stop_fetch
    try:
        for name in SENTIMENT + TRANSLATION:
            cls = getattr(nlp.data, name)
            f = {'signature': signature(cls, home), 'registered': name.lower() in nlp.data.list_datasets()}
            if name == 'IMDB':
                try:
                    cls(root=os.path.join(home, 'unused'))
                except Stop as e:
                    f['tables'] = e.args[0]
            elif name in SENTIMENT:
                f['tables'] = cls._data_file(None)
                f['repo_dir'] = cls._repo_dir(None)
            else:
                f['tables'] = {}
                for src, tgt in (('en', 'vi'), ('vi', 'en')) if name == 'IWSLT2015' else (('en', 'de'), ('de', 'en')):
                    for full in (False, True) if name.startswith('WMT2014') else (False,):
                        kw = {'full': full} if name.startswith('WMT2014') else {}
                        try:
                            cls(src_lang=src, tgt_lang=tgt, root=os.path.join(home, 'unused'), **kw)
                        except Stop as e:
                            f['tables'][f'{src}-{tgt}-{full}'] = e.args[0]
            out[name] = f
    finally:
        sentiment.IMDB._get_data, translation._TranslationDataset._fetch_data_path = orig_imdb, orig_fetch
    return out


def read(name, kwargs, root):
    ds = getattr(nlp.data, name)(root=root, **kwargs)
    out = {'len': len(ds), 'samples': [list(ds[i]) for i in range(len(ds))],
           'types': sorted({type(x).__name__ for s in ds for x in s})}
    if name in VOCAB:
        out['src_vocab'] = ds.src_vocab.idx_to_token
        out['tgt_vocab'] = ds.tgt_vocab.idx_to_token
    return out


def main():
    out_dir, jobs = sys.argv[1], json.loads(sys.argv[2])
    job = jobs[0]
    result = {'facts': facts(out_dir)}
    os.environ['MXNET_GLUON_REPO'] = job['repo']
    for name, table in job['sentiment'].items():
        if name != 'IMDB':
            setattr(getattr(sentiment, name), '_data_file', lambda self, t=table: t)
    orig_imdb = sentiment.IMDB._get_data

    def imdb(self):
        self._data_file = job['sentiment']['IMDB']
        return orig_imdb(self)
    sentiment.IMDB._get_data = imdb
    orig_fetch = translation._TranslationDataset._fetch_data_path

    def fetch(self, file_name_hashs):
        t = job['translation'][type(self).__name__]
        self._archive_file[self._pair_key] = tuple(t['archive'])
        table = self._data_file[self._pair_key]
        for k, (fname, _) in list(table.items()):
            table[k] = (fname, t['sha1'][fname])
        return orig_fetch(self, [(n, t['sha1'][n]) for n, _ in file_name_hashs])
    translation._TranslationDataset._fetch_data_path = fetch
    result['cases'] = {cid: read(name, kwargs, os.path.join(job['root'], cid)) for cid, name, kwargs in job['cases']}
    g = job['translation']['gpt2']  # the test sends it with the translation tables
    result['gpt2_tables'] = [list(nlp.data.GPT2BPETokenizer.bpe_ranks_file_hash),
                             list(nlp.data.GPT2BPETokenizer.bpe_ranks_archive_hash)]
    nlp.data.GPT2BPETokenizer.bpe_ranks_file_hash = tuple(g['file'])
    nlp.data.GPT2BPETokenizer.bpe_ranks_archive_hash = tuple(g['archive'])
    tok, detok = nlp.data.GPT2BPETokenizer(root=os.path.join(job['root'], 'gpt2')), nlp.data.GPT2BPEDetokenizer()
    result['gpt2'] = {'tokens': [tok(t) for t in g['texts']], 'detok': [detok(tok(t)) for t in g['texts']]}
    with open(os.path.join(out_dir, 'sent_tr.json'), 'w') as f:
        json.dump(result, f)


if __name__ == '__main__':
    main()
