"""(peers venv) For each job {file, cls, probe}: read OUT/<file> with gluonnlp's <cls>.from_json and write what it
sees (idx_to_token, reserved_tokens, the special-token attributes, lookups of `probe`) to OUT/<file>.seen.json."""
import json
import os
import sys

import gluonnlp as nlp


def main(out, jobs):
    for job in jobs:
        cls = nlp.vocab.BERTVocab if job['cls'] == 'BERTVocab' else nlp.Vocab
        with open(os.path.join(out, job['file'])) as f:
            vocab = cls.from_json(f.read())
        attrs = {k: getattr(vocab, k, None) for k in ('padding_token', 'bos_token', 'eos_token', 'cls_token',
                                                       'sep_token', 'mask_token')}
        seen = {'idx_to_token': vocab.idx_to_token, 'reserved_tokens': vocab.reserved_tokens,
                'unknown_token': vocab.unknown_token, 'attrs': attrs, 'lookup': vocab[job['probe']]}
        with open(os.path.join(out, job['file'] + '.seen.json'), 'w') as f:
            json.dump(seen, f)
        print(job['file'], len(vocab), flush=True)


if __name__ == '__main__':
    main(sys.argv[1], json.loads(sys.argv[2]))
