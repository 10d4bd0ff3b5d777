"""Train an LSTM language model with the gluonzoo engine on Jane Austen's novels; test perplexity is logged.

    python scripts/text/lm/train.py --epochs 1 --out out/austen --log logs/standard_lstm_lm_200.austen.jsonl

Every engine option is a flag (`--help`); `--resume` continues the latest checkpoint in --out. See README.md.
"""
import os
import sys

# read when MXNet loads (see gluonzoo.train.engine.DETERMINISTIC_ENV)
os.environ.setdefault('MXNET_ENFORCE_DETERMINISM', '1')
os.environ.setdefault('MXNET_CUDNN_AUTOTUNE_DEFAULT', '0')

# GluonNLP's word-LM recipe settings for the 200-unit model: plain SGD at lr 20, clip 0.25, bptt 35, batch 20
DEFAULTS = {'model': 'standard_lstm_lm_200', 'dataset': 'austen', 'optimizer': 'sgd', 'lr': 20.0, 'momentum': 0.0,
            'wd': 0.0, 'lr_mode': 'cosine', 'clip_gradient': 0.25, 'batch_size': 20, 'augment': 'none',
            'init': 'uniform'}


def main(argv=None):
    from gluonzoo.train.recipe import run_recipe
    return run_recipe(argv, DEFAULTS, __doc__)


if __name__ == '__main__':
    sys.exit(main())
