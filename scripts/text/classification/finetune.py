"""Fine-tune a BERT-family encoder (default: MiniLM, bert_6_384_12.all_minilm_l6_v2) on WordNet glosses -> 45
lexicographer classes, or on your own GLUE-style TSV files with GluonNLP's flags:

    python scripts/text/classification/finetune.py --train-limit 8000 --val-limit 2000 --epochs 2 \
        --out out/glosses --log logs/bert_6_384_12.wordnet.jsonl
    python scripts/text/classification/finetune.py --train train.tsv --dev dev.tsv --text-cols 0,1 \
        --label-col 2 --skip-header --metric acc,f1 --max-len 128 --out out/pairs

TSV flags: --train, --dev, --text-cols (one column, or two for sentence pairs), --label-col, --skip-header,
--labels a,b (class order; default: the sorted training labels), --metric acc|f1|mcc (or several joined by
commas), --max-len; they become `--dataset tsv:TRAIN,DEV --dataset-kwargs {...}` (gluonzoo.text.train.tsv).
GluonNLP's `--bert_model bert_12_768_12 --bert_dataset book_corpus_wiki_en_uncased` names the checkpoint too.
Every engine option is a flag too (`--help`); `--resume` continues the latest checkpoint in --out. See README.md.
"""
import argparse
import json
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

    from gluonzoo.registry import get_model, get_weights, initialize_unset
    from gluonzoo.text import gluonnlp_api
    from gluonzoo.text.models._gluonnlp import dataset_of
    from gluonzoo.text.models.bert import BERTClassifier
    from gluonzoo.train.engine import seed_all
    seed_all(cfg.seed)  # the new head's initial weights come from the seed
    kwargs = dict(cfg.model_kwargs)
    dataset = dataset_of(get_weights(cfg.model))
    if dataset:  # a GluonNLP checkpoint: without its pre-training heads, as GluonNLP's finetune_classifier.py loads it
        bert = gluonnlp_api.get_model(get_weights(cfg.model).arch, dataset_name=dataset, pretrained=cfg.pretrained,
                                      use_pooler=True, use_decoder=False, use_classifier=False)[0]
    else:
        bert = get_model(cfg.model, pretrained=cfg.pretrained)
    initialize_unset(bert)  # pretrained=False: random, drawn where get_model drew before issue 26 (a no-op if loaded)
    net = BERTClassifier(bert, num_classes=classes, dropout=kwargs.pop('dropout', 0.0))
    if kwargs:
        raise ValueError(f'this recipe takes only dropout in --model-kwargs, not {sorted(kwargs)}')
    net.classifier.initialize(mx.init.Normal(0.02))
    return net


def gluonnlp_args(argv):
    """GluonNLP-style flags -> the engine's: the TSV ones to `--dataset tsv:TRAIN,DEV --dataset-kwargs JSON`,
    `--bert-model ARCH --bert-dataset NAME` (finetune_classifier.py's) to `--model ARCH.TAG`; the rest pass."""
    from gluonzoo.errors import BadInputError
    p = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    for flag, kind in (('train', str), ('dev', str), ('text-cols', str), ('label-col', int), ('labels', str),
                       ('metric', str), ('max-len', int), ('bert-model', str), ('bert-dataset', str)):
        p.add_argument('--' + flag, '--' + flag.replace('-', '_'), type=kind, dest=flag.replace('-', '_'))
    p.add_argument('--skip-header', '--skip_header', action='store_true', default=None)
    args, rest = p.parse_known_args(argv)
    named = {a.split('=')[0].replace('_', '-') for a in rest if a.startswith('--')}
    if args.bert_model or args.bert_dataset:
        if not args.bert_model or '--model' in named:
            raise BadInputError('--bert-dataset goes with --bert-model (and neither with --model)')
        # GluonNLP's dataset name as its record's tag ('.' and '-' become '_'), spelled here so that nothing
        # imports the model families before the engine's discovery does
        tag = args.bert_dataset.replace('.', '_').replace('-', '_') if args.bert_dataset else ''
        rest += ['--model', f'{args.bert_model}.{tag}' if tag else args.bert_model]
    options = {k: v for k, v in vars(args).items() if v is not None and k not in ('bert_model', 'bert_dataset')}
    if not options:
        return rest
    if not (args.train and args.dev):
        raise BadInputError('TSV fine-tuning needs both --train FILE.tsv and --dev FILE.tsv')
    if named & {'--dataset', '--data', '--dataset-kwargs'}:
        raise BadInputError('--train/--dev name the data: drop --dataset / --dataset-kwargs')
    if ',' in args.train + args.dev:
        raise BadInputError(f'TSV paths cannot hold a comma: rename or link {args.train!r} / {args.dev!r}')
    options = {k: v for k, v in options.items() if k not in ('train', 'dev')}
    return rest + ['--dataset', f'tsv:{args.train},{args.dev}', '--dataset-kwargs', json.dumps(options)]


def main(argv=None):
    from gluonzoo.errors import BadInputError
    from gluonzoo.train.recipe import run_recipe
    try:
        if argv is None:  # the log's command is sys.argv: it gets the engine's spelling, which reruns the same
            sys.argv[1:] = gluonnlp_args(sys.argv[1:])
        else:
            argv = gluonnlp_args(list(argv))
    except BadInputError as e:
        print(f'{os.path.basename(sys.argv[0])}: error: {e}', file=sys.stderr)
        return 2
    return run_recipe(argv, DEFAULTS, __doc__, build=build)


if __name__ == '__main__':
    sys.exit(main())
