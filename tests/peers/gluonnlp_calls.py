"""(peers venv) GluonNLP 0.10's pure functions called on JSON arguments; writes OUT/calls.json, one result per
call. One job: {calls: [[module, function, args], ...], vocab}. An argument {"tokenizer": true} is a
BERTTokenizer over the job's vocab; results are made JSON by tests/peers/calls_json.py (shared with the test)."""
import importlib
import json
import os
import sys

import gluonnlp as nlp

sys.path.insert(0, os.path.dirname(__file__))
from calls_json import jsonable  # noqa: E402


def main():
    out, jobs = sys.argv[1], json.loads(sys.argv[2])
    job = jobs[0]
    tokenizer = nlp.data.BERTTokenizer(nlp.vocab.BERTVocab(nlp.data.count_tokens(job['vocab'])), lower=True)
    results = []
    for module, name, args in job['calls']:
        args = [tokenizer if isinstance(a, dict) and a.get('tokenizer') else a for a in args]
        try:
            results.append(jsonable(getattr(importlib.import_module(module), name)(*args)))
        except Exception as e:  # noqa: BLE001 (the test compares which calls fail)
            results.append({'error': type(e).__name__})
    with open(os.path.join(out, 'calls.json'), 'w') as f:
        json.dump(results, f)


main()
