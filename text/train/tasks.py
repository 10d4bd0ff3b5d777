"""The text tasks the training engine runs (gluonzoo.train.protocol): language modelling, text classification and
translation; text/train/datasets.py makes them from the corpora.
"""
import numpy as np

from ...train.data import epoch_indices


class LanguageModel:
    """Next-token prediction on one token stream (truncated BPTT); evaluation: perplexity on another stream.

    The train stream is cut into `batch_size` parallel columns, read `bptt` steps at a time; the LSTM state runs
    on from batch to batch (detached) and starts from zeros at every epoch, so a checkpoint at an epoch boundary
    holds everything a resumed run needs. One process only (dist workers would need their own columns).
    """

    def __init__(self, train, val, vocab, info, bptt=35, eval_batch_size=10, eval_split='test'):
        self.train, self.val, self.vocab, self.info = train, val, vocab, info
        self.bptt, self.eval_batch_size, self.eval_split = bptt, eval_batch_size, eval_split
        self._state = None

    def dataset_info(self):
        return dict(self.info, train_tokens=len(self.train), eval_tokens=len(self.val), vocab_size=len(self.vocab),
                    eval_split=self.eval_split, bptt=self.bptt)

    def model_kwargs(self):
        return {'vocab_size': len(self.vocab)}

    @staticmethod
    def _columns(ids, batch_size):
        n = (len(ids) - 1) // batch_size
        data = ids[:n * batch_size].reshape(batch_size, n).T
        target = ids[1:n * batch_size + 1].reshape(batch_size, n).T
        return data, target

    def settle(self, net, ctx):
        import mxnet as mx
        net(mx.nd.array(self.val[:2].reshape(2, 1), ctx=ctx))

    def num_batches(self, batch_size, workers):
        if workers != 1:
            raise ValueError('the language-model task trains in one process (no dist kvstore)')
        return ((len(self.train) - 1) // batch_size) // self.bptt

    def batches(self, epoch, cfg, rank, workers):
        data, target = self._columns(self.train, cfg.batch_size)
        for b in range(self.num_batches(cfg.batch_size, workers)):
            at = slice(b * self.bptt, (b + 1) * self.bptt)
            yield b, (b == 0, data[at], target[at])

    def train_step(self, net, batch, cfg, epoch, ctx):
        import mxnet as mx
        from mxnet import autograd, gluon
        first, x, y = batch
        if first or self._state is None:
            self._state = net.begin_state(batch_size=x.shape[1], ctx=ctx)
        loss_fn = gluon.loss.SoftmaxCrossEntropyLoss(axis=-1, batch_axis=1)  # mean over time, one per column
        with autograd.record():
            out, state = net(mx.nd.array(x, ctx=ctx), self._state)
            loss = loss_fn(out, mx.nd.array(y, ctx=ctx))
        loss.backward()
        self._state = [s.detach() for s in state]
        return {'loss': float(loss.sum().asscalar()), 'n': x.shape[1]}

    def evaluate(self, net, ctx):
        import math

        import mxnet as mx
        from mxnet import gluon
        loss_fn = gluon.loss.SoftmaxCrossEntropyLoss(axis=-1, batch_axis=1)
        data, target = self._columns(self.val, self.eval_batch_size)
        state = net.begin_state(batch_size=self.eval_batch_size, ctx=ctx)
        total = count = 0.0
        for at in range(0, len(data), self.bptt):
            x, y = data[at:at + self.bptt], target[at:at + self.bptt]
            out, state = net(mx.nd.array(x, ctx=ctx), state)
            total += float(loss_fn(out, mx.nd.array(y, ctx=ctx)).sum().asscalar()) * len(x)
            count += len(x) * self.eval_batch_size
        return {'ppl': math.exp(total / count), 'loss': total / count}


class TextClassification:
    """Padded token ids (N, L) with valid lengths -> one class each; softmax cross-entropy, top-1 accuracy.

    The net is called as net(ids, token_types, valid_length) (BERTClassifier's signature).
    """

    def __init__(self, train, val, classes, info, eval_split='test', eval_batch_size=64):
        self.train, self.val, self.classes, self.info = train, val, classes, info  # (ids, valid, labels) each
        self.eval_split, self.eval_batch_size = eval_split, eval_batch_size

    def __len__(self):
        return len(self.train[2])

    def dataset_info(self):
        return dict(self.info, train_size=len(self.train[2]), eval_size=len(self.val[2]), eval_split=self.eval_split,
                    max_length=self.train[0].shape[1])

    def _call(self, net, ids, valid, ctx):
        import mxnet as mx
        x = mx.nd.array(ids, ctx=ctx)
        return net(x, mx.nd.zeros_like(x), mx.nd.array(valid, ctx=ctx))

    def settle(self, net, ctx):
        self._call(net, self.val[0][:2], self.val[1][:2], ctx)

    def num_batches(self, batch_size, workers):
        return len(self.train[2]) // (batch_size * workers)

    def batches(self, epoch, cfg, rank, workers):
        for b, idx in epoch_indices(len(self.train[2]), epoch, cfg.batch_size, cfg.seed, rank, workers):
            yield b, tuple(a[idx] for a in self.train)

    def train_step(self, net, batch, cfg, epoch, ctx):
        import mxnet as mx
        from mxnet import autograd, gluon
        ids, valid, y = batch
        t = np.full((len(y), self.classes), cfg.label_smoothing / self.classes, np.float32)
        t[np.arange(len(y)), y] += 1.0 - cfg.label_smoothing
        loss_fn = gluon.loss.SoftmaxCrossEntropyLoss(sparse_label=False)
        with autograd.record():
            out = self._call(net, ids, valid, ctx)
            loss = loss_fn(out, mx.nd.array(t, ctx=ctx))
        loss.backward()
        return {'loss': float(loss.sum().asscalar()), 'n': len(y),
                'top1': float((out.argmax(axis=1).asnumpy().astype(np.int64) == y).sum())}

    def evaluate(self, net, ctx):
        import mxnet as mx
        from mxnet import gluon
        loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
        ids, valid, y = self.val
        correct = loss = 0.0
        for at in range(0, len(y), self.eval_batch_size):
            sl = slice(at, at + self.eval_batch_size)
            out = self._call(net, ids[sl], valid[sl], ctx)
            loss += float(loss_fn(out, mx.nd.array(y[sl], ctx=ctx)).sum().asscalar())
            correct += float((out.argmax(axis=1).asnumpy().astype(np.int64) == y[sl]).sum())
        return {'top1': correct / len(y), 'loss': loss / len(y)}


class Translation:
    """Sequence to sequence: padded source / target ids with valid lengths (NMTModel's call), per-token softmax
    cross-entropy (teacher forcing); evaluation: corpus BLEU of greedy decodes against the reference strings.

    `train` and `val` are (src (N, Ls), src_valid, tgt (N, Lt), tgt_valid) float32 arrays, each target
    <bos> .. <eos>; `val_refs` the detokenized reference of each val row; `tokenizer` decodes ids to text.
    """

    def __init__(self, train, val, val_refs, tokenizer, info, bos_id, eos_id, eval_split='test',
                 eval_batch_size=256):
        self.train, self.val, self.val_refs, self.tokenizer, self.info = train, val, val_refs, tokenizer, info
        self.bos_id, self.eos_id = bos_id, eos_id
        self.eval_split, self.eval_batch_size = eval_split, eval_batch_size

    def __len__(self):
        return len(self.train[0])

    def dataset_info(self):
        return dict(self.info, train_size=len(self.train[0]), eval_size=len(self.val[0]),
                    eval_split=self.eval_split, vocab_size=self.tokenizer.vocab_size,
                    max_src_length=self.train[0].shape[1], max_tgt_length=self.train[2].shape[1])

    def model_kwargs(self):
        # the position tables only need the longest sequence the data holds (+1: the decoder's own margin)
        return {'vocab_size': self.tokenizer.vocab_size, 'max_src_length': self.train[0].shape[1],
                'max_tgt_length': self.train[2].shape[1] + 1}

    @staticmethod
    def _call(net, arrays, ctx):
        import mxnet as mx
        src, src_valid, tgt, tgt_valid = (mx.nd.array(a, ctx=ctx) for a in arrays)
        # teacher forcing: read <bos> w1 .. wn, predict w1 .. wn <eos>
        return net(src, tgt[:, :-1], src_valid, tgt_valid - 1), tgt[:, 1:], tgt_valid - 1

    def _loss(self, out, label, valid, smoothing):
        """Per-sentence loss whose batch sum is (batch size) x (mean loss per target token)."""
        import mxnet as mx
        from mxnet import gluon
        mask = mx.nd.broadcast_lesser(mx.nd.arange(label.shape[1], ctx=label.context).reshape(1, -1),
                                      valid.reshape(-1, 1))
        if smoothing:
            v = out.shape[-1]
            label = mx.nd.one_hot(label, v) * (1.0 - smoothing) + smoothing / v
        loss_fn = gluon.loss.SoftmaxCrossEntropyLoss(axis=-1, sparse_label=not smoothing)
        per_token = loss_fn(out, label, mx.nd.expand_dims(mask, axis=2)) * label.shape[1]  # sum over steps
        return per_token / (valid.sum() / valid.shape[0])

    def settle(self, net, ctx):
        self._call(net, tuple(a[:2] for a in self.val), ctx)

    def num_batches(self, batch_size, workers):
        return len(self.train[0]) // (batch_size * workers)

    def batches(self, epoch, cfg, rank, workers):
        for b, idx in epoch_indices(len(self.train[0]), epoch, cfg.batch_size, cfg.seed, rank, workers):
            yield b, tuple(a[idx] for a in self.train)

    def train_step(self, net, batch, cfg, epoch, ctx):
        from mxnet import autograd
        with autograd.record():
            out, label, valid = self._call(net, batch, ctx)
            loss = self._loss(out, label, valid, cfg.label_smoothing)
        loss.backward()
        return {'loss': float(loss.sum().asscalar()), 'n': len(batch[0])}

    def translate(self, net, ctx):
        """Greedy decodes of every val source (gluonzoo.text.decoding), as text."""
        import mxnet as mx
        from ..decoding import greedy_search, nmt_step_fn
        src, src_valid = self.val[0], self.val[1]
        max_length = self.val[2].shape[1]
        out = []
        for i in range(len(src)):
            n = int(src_valid[i])
            step = nmt_step_fn(net, mx.nd.array(src[i:i + 1, :n], ctx=ctx))
            ids = greedy_search(step, [[self.bos_id]], eos_id=self.eos_id, max_length=max_length)[0]
            out.append(self.tokenizer.decode([t for t in ids[1:] if t != self.eos_id]))
        return out

    def evaluate(self, net, ctx):
        from ..metrics import corpus_bleu
        loss = 0.0
        for at in range(0, len(self.val[0]), self.eval_batch_size):
            out, label, valid = self._call(net, tuple(a[at:at + self.eval_batch_size] for a in self.val), ctx)
            per_sentence = self._loss(out, label, valid, 0.0)
            loss += float(per_sentence.sum().asscalar()) * float(valid.mean().asscalar())  # summed over tokens
        hyps = self.translate(net, ctx)
        return {'bleu': corpus_bleu(hyps, [self.val_refs]), 'loss': loss / float((self.val[3] - 1).sum())}
