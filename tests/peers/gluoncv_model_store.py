"""(peers venv) Write GluonCV 0.10.5's model_store table (name -> sha1) to OUT/sha1.json."""
import json
import os
import sys

from gluoncv.model_zoo import model_store


def main(out, jobs):
    with open(os.path.join(out, 'sha1.json'), 'w') as f:
        json.dump(dict(model_store._model_sha1), f)


if __name__ == '__main__':
    main(sys.argv[1], json.loads(sys.argv[2]))
