"""(peers venv) GluonNLP 0.10's answers to tests/peers/vocab_check_cases.py's calls, as one JSON object."""
import json
import sys

import gluonnlp as nlp

from vocab_check_cases import outcomes

if __name__ == '__main__':
    print(json.dumps(outcomes(nlp, sys.argv[1])))
