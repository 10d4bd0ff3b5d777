"""Fine-tuning on your own GLUE-style TSV files (GluonNLP's `finetune_classifier.py` tasks, without a task class):
`--dataset tsv:TRAIN,DEV` with `--dataset-kwargs` naming the text and label columns, or the same as GluonNLP-style
flags through scripts/text/classification/finetune.py (`--train A.tsv --dev B.tsv --text-cols 0,1 --label-col 2`).

One text column is a single-sentence task (SST, CoLA), two a sentence-pair one (MRPC, QQP): `[CLS] a [SEP] b [SEP]`
with segment ids 0 then 1, cut to `max_len` tokens longest-first, as GluonNLP's BERTSentenceTransform. The WordPiece
vocabulary is the one of the checkpoint being fine-tuned (cfg.model's record). Fields are split on tabs with no
quoting, as GluonNLP's TSVDataset reads GLUE.
"""
import hashlib
import os

import numpy as np

from ...errors import BadInputError
from ...train.data import checksum
from ...train.datasets import register_dataset
from .tasks import TextClassification

METRICS = ('acc', 'f1', 'mcc')


def read_tsv(path, text_cols, label_col, skip_header=False):
    """[(texts, label, row number)] of a TSV file; rows are numbered from 1, the header counted. A ragged row (not as
    many fields as the first), a missing column, an empty text or label, or bytes that are not UTF-8: BadInputError
    naming the file and row."""
    if not os.path.isfile(path):
        raise BadInputError(f'TSV file {path} does not exist: pass the path of an existing file')
    with open(path, 'rb') as f:
        lines = f.read().splitlines()
    if len(lines) <= skip_header:
        raise BadInputError(f'{path} holds no rows{" after its header" if skip_header else ""}')
    need = max(max(text_cols), label_col) + 1
    out, width = [], None
    for row, raw in enumerate(lines, 1):
        try:
            fields = raw.decode('utf-8-sig' if row == 1 else 'utf-8').split('\t')  # a BOM is no text
        except UnicodeDecodeError as e:
            raise BadInputError(f'{path} row {row}: byte {e.start} is not UTF-8; save the file as UTF-8') from None
        width = width or len(fields)
        if len(fields) != width:
            raise BadInputError(f'{path} row {row} has {len(fields)} tab-separated fields but row 1 has {width}: '
                                'a ragged row (a tab inside a text, or a missing field); fix or drop it')
        if width < need:
            raise BadInputError(f'{path} row {row} has {width} fields, too few for --text-cols '
                                f'{",".join(map(str, text_cols))} --label-col {label_col} (columns count from 0)')
        if row == 1 and skip_header:
            continue
        texts = tuple(fields[c].strip() for c in text_cols)
        empty = [c for c, t in zip(text_cols, texts) if not t] + ([label_col] if not fields[label_col].strip() else [])
        if empty:
            raise BadInputError(f'{path} row {row}: column {empty[0]} is empty; every text and label needs a value')
        out.append((texts, fields[label_col].strip(), row))
    return out


def _columns(value, what):
    """0,1 / [0, 1] / 0 -> a tuple of column numbers."""
    try:
        cols = tuple(int(c) for c in (value.split(',') if isinstance(value, str) else
                                      value if isinstance(value, (list, tuple)) else [value]))
    except (TypeError, ValueError):
        cols = ()
    if not cols or min(cols) < 0:
        raise BadInputError(f'{what} {value!r}: give column numbers counted from 0, joined by commas (e.g. 0,1)')
    return cols


def wordpiece_for(model):
    """The WordPiece tokenizer of checkpoint `model`: a record with a vocab.txt in a package, or a GluonNLP BERT
    record with its vocabulary."""
    from ...registry import get_weights
    from ...store import package_file
    from ..models._gluonnlp import dataset_of, load_vocab
    from ..tokenizers import WordPieceTokenizer
    from ..vocab import BERTVocab
    w = get_weights(model)
    pre = w.preprocess or {}
    lower = pre.get('lowercase', True)
    if w.source.kind == 'package' and pre.get('vocab', '').endswith('.txt'):
        return WordPieceTokenizer(package_file(w.source.package, pre['vocab']), lowercase=lower)
    if dataset_of(w) and 'lowercase' in pre:
        return WordPieceTokenizer.from_vocab(load_vocab(dataset_of(w), cls=BERTVocab), lowercase=lower)
    raise BadInputError(f'{w.name} has no WordPiece vocabulary ({pre.get("tokenizer", "no tokenizer")}): TSV '
                        'fine-tuning takes a WordPiece checkpoint (BERT, ERNIE, MiniLM), e.g. '
                        'bert_6_384_12.all_minilm_l6_v2')


def encode(tok, rows, max_len):
    """(ids and segment ids stacked (N, 2, max_len), valid lengths (N,)) of [CLS] a [SEP] (b [SEP]) per row, cut as
    GluonNLP's BERTSentenceTransform: the longer text loses its last token until the pair fits, the second on a
    tie (the tokenizers library's longest_first cuts the first, so the cut is made here)."""
    cls, sep = (tok.token_to_id(tok.specials[k]) for k in ('cls_token', 'sep_token'))
    texts = [[seq[1:-1] for seq in tok.encode_batch([r[0][c] for r in rows])] for c in range(len(rows[0][0]))]
    out = np.zeros((len(rows), 2, max_len), np.float32)
    valid = np.zeros(len(rows), np.float32)
    for i in range(len(rows)):
        a = texts[0][i]
        if len(texts) == 1:
            seq = [cls] + a[:max_len - 2] + [sep]
            first = len(seq)
        else:
            b = texts[1][i]
            la, lb = len(a), len(b)
            while la + lb > max_len - 3:
                la, lb = (la - 1, lb) if la > lb else (la, lb - 1)
            seq, first = [cls] + a[:la] + [sep] + b[:lb] + [sep], la + 2
        out[i, 0, :len(seq)], valid[i] = seq, len(seq)
        out[i, 1, first:len(seq)] = 1  # the second text and its [SEP]
    return out, valid


class TsvClassification(TextClassification):
    """TextClassification of TSV rows with segment ids and GLUE's metrics: accuracy, F1 (of the second label, GLUE's
    1, for two labels; macro over the labels for more) and Matthews correlation, as `metric` asks.

    Ids and segment ids travel as one (N, 2, L) array, so the parent's batching and steps carry them unchanged."""

    def __init__(self, train, val, labels, metric, info):
        super().__init__(train, val, len(labels), info, eval_split='dev')
        self.labels, self.metric = list(labels), metric

    def dataset_info(self):
        return dict(super().dataset_info(), max_length=self.train[0].shape[2])

    def _call(self, net, ids, valid, ctx):
        import mxnet as mx
        return net(mx.nd.array(ids[:, 0], ctx=ctx), mx.nd.array(ids[:, 1], ctx=ctx), mx.nd.array(valid, ctx=ctx))

    def evaluate(self, net, ctx):
        import mxnet as mx
        from mxnet import gluon
        from .. import metrics
        loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
        ids, valid, y = self.val
        pred, loss = [], 0.0
        for at in range(0, len(y), self.eval_batch_size):
            sl = slice(at, at + self.eval_batch_size)
            out = self._call(net, ids[sl], valid[sl], ctx)
            loss += float(loss_fn(out, mx.nd.array(y[sl], ctx=ctx)).sum().asscalar())
            pred.append(out.argmax(axis=1).asnumpy().astype(np.int64))
        pred = np.concatenate(pred)
        score = {'acc': lambda: metrics.accuracy(pred, y), 'mcc': lambda: metrics.mcc(pred, y),
                 'f1': lambda: metrics.f1(pred, y, 'binary' if self.classes == 2 else 'macro')}
        return dict({m: score[m]() for m in self.metric}, loss=loss / len(y))


@register_dataset()
def tsv(cfg, path, text_cols=(0,), label_col=1, skip_header=False, labels=None, metric='acc', max_len=128):
    """Your GLUE-style TSV files, `PATH` = `TRAIN,DEV` (dev evaluated): text column(s) (one, or two for pairs) and a
    label column, counted from 0; `skip_header` drops each file's first row. The labels are `labels` (names joined
    by commas, in class order) or the sorted set of the training labels; `metric` is acc, f1, mcc or several joined
    by commas. --train-limit / --val-limit take the first N rows."""
    files = [p.strip() for p in path.split(',')]
    if len(files) != 2 or not all(files):
        raise BadInputError(f'--dataset tsv:{path}: give the training and the dev file, tsv:TRAIN.tsv,DEV.tsv')
    text_cols, label_col = _columns(text_cols, 'text_cols'), _columns(label_col, 'label_col')
    if len(text_cols) > 2 or len(label_col) != 1:
        raise BadInputError(f'text_cols {text_cols}, label_col {label_col}: one or two text columns (a sentence '
                            'or a pair) and one label column')
    label_col = label_col[0]
    metric = tuple(m.strip() for m in metric.split(',')) if isinstance(metric, str) else tuple(metric)
    if not metric or any(m not in METRICS for m in metric):
        raise BadInputError(f'metric {",".join(metric)!r}: use {", ".join(METRICS)} or several joined by commas')
    if not isinstance(max_len, int) or max_len < len(text_cols) + 2:
        raise BadInputError(f'max_len {max_len!r} leaves no room for text beside [CLS] and [SEP]: use e.g. 128')
    train, dev = (read_tsv(f, text_cols, label_col, bool(skip_header)) for f in files)
    train, dev = train[:cfg.train_limit or None], dev[:cfg.val_limit or None]
    if labels is None:
        labels = sorted({r[1] for r in train})
    else:
        labels = [s.strip() for s in labels.split(',')] if isinstance(labels, str) else [str(s) for s in labels]
    if len(labels) < 2 or len(set(labels)) != len(labels):
        raise BadInputError(f'labels {labels}: a classifier needs two or more distinct labels')
    index = {name: i for i, name in enumerate(labels)}
    for f, rows in zip(files, (train, dev)):
        for _, label, row in rows:
            if label not in index:
                raise BadInputError(f'{f} row {row}: label {label!r} is not one of the labels {labels} (the '
                                    'training labels, or --labels): fix the row or name all labels with --labels')
    tok = wordpiece_for(cfg.model)
    arrays = [(*encode(tok, rows, max_len), np.array([index[r[1]] for r in rows], np.int64))
              for rows in (train, dev)]
    sha1s = []
    for f in files:
        with open(f, 'rb') as fh:
            sha1s.append(hashlib.sha1(fh.read()).hexdigest())
    info = {'name': 'tsv', 'source': 'your TSV files', 'train_split': 'train', 'train_file': files[0],
            'dev_file': files[1], 'sha1': sha1s, 'text_cols': list(text_cols), 'label_col': label_col,
            'labels': labels, 'metric': list(metric), 'tokenizer': f'WordPiece of {cfg.model}',
            'checksum': checksum(*arrays[0], *arrays[1])}
    return TsvClassification(arrays[0], arrays[1], labels, metric, info)
