"""Fine-tune the MiniLM encoder (bert_6_384_12.all_minilm_l6_v2) on WordNet glosses -> 45 lexicographer classes.

    python scripts/text/classification/finetune.py --train-limit 8000 --val-limit 2000 --epochs 2 \
        --out out/glosses --log logs/bert_6_384_12.wordnet.jsonl

Every engine option is a flag (`--help`); `--resume` continues the latest checkpoint in --out. See README.md.
"""
import os
import sys

# read when MXNet loads (see gluonzoo.train.engine.DETERMINISTIC_ENV)
os.environ.setdefault('MXNET_ENFORCE_DETERMINISM', '1')
os.environ.setdefault('MXNET_CUDNN_AUTOTUNE_DEFAULT', '0')

DEFAULTS = {'model': 'bert_6_384_12.all_minilm_l6_v2', 'pretrained': True, 'dataset': 'wordnet_glosses',
            'optimizer': 'adam', 'lr': 1e-4, 'wd': 0.01, 'lr_mode': 'cosine', 'warmup_epochs': 0.2,
            'clip_gradient': 1.0, 'batch_size': 32, 'augment': 'none', 'model_kwargs': {'dropout': 0.1}}


def build(cfg, classes):
    """The pretrained encoder under a new classifier (GluonNLP's BERTClassifier on the pooled output)."""
    import mxnet as mx

    from gluonzoo.registry import get_model
    from gluonzoo.text.models.bert import BERTClassifier
    from gluonzoo.train.engine import seed_all
    seed_all(cfg.seed)  # the new head's initial weights come from the seed
    kwargs = dict(cfg.model_kwargs)
    net = BERTClassifier(get_model(cfg.model, pretrained=cfg.pretrained), num_classes=classes,
                         dropout=kwargs.pop('dropout', 0.0))
    if kwargs:
        raise ValueError(f'this recipe takes only dropout in --model-kwargs, not {sorted(kwargs)}')
    net.classifier.initialize(mx.init.Normal(0.02))
    return net


def main(argv=None):
    from gluonzoo.train.recipe import run_recipe
    return run_recipe(argv, DEFAULTS, __doc__, build=build)


if __name__ == '__main__':
    sys.exit(main())
