"""Train a small Transformer (transformer_de_en_128: transformer_en_de_512's structure, shrunk) with the gluonzoo
engine on German -> English phrase pairs of the Ding dictionary; test BLEU (greedy decoding,
gluonzoo.text.metrics.corpus_bleu) is logged.

    python scripts/text/nmt/train.py --epochs 3 --out out/nmt --log out/transformer_de_en_128.ding.jsonl

Every engine option is a flag (`--help`); `--resume` continues the latest checkpoint in --out. See README.md.
"""
import os
import sys

# read when MXNet loads (see gluonzoo.train.engine.DETERMINISTIC_ENV)
os.environ.setdefault('MXNET_ENFORCE_DETERMINISM', '1')
os.environ.setdefault('MXNET_CUDNN_AUTOTUNE_DEFAULT', '0')

# transformer-base's recipe shrunk to minutes on 2 cores: 2 layers of 128 units, 4 heads (the builder's defaults),
# Adam with warmup and label smoothing 0.1 (as GluonNLP's train_transformer.py), on a 50,000-pair slice, BLEU on
# 1,000 test pairs
DEFAULTS = {'model': 'transformer_de_en_128',
            'dataset': 'trans_de_en', 'train_limit': 50000, 'val_limit': 1000, 'optimizer': 'adam', 'lr': 1e-3,
            'wd': 0.0, 'lr_mode': 'cosine', 'warmup_epochs': 0.3, 'label_smoothing': 0.1, 'clip_gradient': 1.0,
            'batch_size': 64, 'augment': 'none', 'init': 'xavier'}


def main(argv=None):
    from gluonzoo.train.recipe import run_recipe
    return run_recipe(argv, DEFAULTS, __doc__)


if __name__ == '__main__':
    sys.exit(main())
