"""The image-classification task the training engine runs (gluonzoo.train.protocol): softmax cross-entropy over
ArrayData batches; vision/train/datasets.py makes it from the datasets.
"""
import numpy as np


class ImageClassification:
    """Softmax cross-entropy with optional label smoothing and mixup; evaluation: top-1 accuracy and loss."""

    def __init__(self, train, val, classes, info, eval_split='test', eval_batch_size=500):
        self.train, self.val, self.classes = train, val, classes
        self.info, self.eval_split, self.eval_batch_size = info, eval_split, eval_batch_size

    def dataset_info(self):
        return dict(self.info, train_size=len(self.train), eval_size=len(self.val), eval_split=self.eval_split)

    def settle(self, net, ctx):
        import mxnet as mx
        x, _ = next(self.val.eval_batches(2))
        net(mx.nd.array(x, ctx=ctx))

    def num_batches(self, batch_size, workers):
        return self.train.num_batches(batch_size, workers)

    def batches(self, epoch, cfg, rank, workers):
        for b, rng, x, y in self.train.batches(epoch, cfg.batch_size, cfg.seed, rank, workers):
            yield b, (rng, x, y)

    def _targets(self, y, smoothing):
        t = np.full((len(y), self.classes), smoothing / self.classes, np.float32)
        t[np.arange(len(y)), y] += 1.0 - smoothing
        return t

    def train_step(self, net, batch, cfg, epoch, ctx):
        import mxnet as mx
        from mxnet import autograd, gluon
        rng, x, y = batch
        mix = cfg.mixup > 0 and epoch < cfg.epochs - cfg.mixup_off_epochs
        t = self._targets(y, cfg.label_smoothing)
        if mix:
            lam = np.float32(rng.beta(cfg.mixup, cfg.mixup))
            perm = rng.permutation(len(y))
            x, t = lam * x + (1 - lam) * x[perm], lam * t + (1 - lam) * t[perm]
        loss_fn = gluon.loss.SoftmaxCrossEntropyLoss(sparse_label=False)
        xd, td = mx.nd.array(x, ctx=ctx), mx.nd.array(t, ctx=ctx)
        with autograd.record():
            out = net(xd)
            loss = loss_fn(out, td)
        loss.backward()
        stats = {'loss': float(loss.sum().asscalar()), 'n': len(y)}
        if not mix:
            stats['top1'] = float((out.argmax(axis=1).asnumpy().astype(np.int64) == y).sum())
        return stats

    def evaluate(self, net, ctx):
        import mxnet as mx
        from mxnet import gluon
        loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
        correct = total = loss = 0.0
        for x, y in self.val.eval_batches(self.eval_batch_size):
            out = net(mx.nd.array(x, ctx=ctx))
            loss += float(loss_fn(out, mx.nd.array(y, ctx=ctx)).sum().asscalar())
            correct += float((out.argmax(axis=1).asnumpy().astype(np.int64) == y).sum())
            total += len(y)
        return {'top1': correct / total, 'loss': loss / total}


def refuse_classification_options(cfg, training, augments=('none', 'crop_flip')):
    """One BadInputError when `cfg` sets an option only image classification takes (mixup, label smoothing) or an
    --augment that `training` (e.g. 'detection training') does not take: `augments` are the ones it does."""
    from ...errors import BadInputError
    problems = [f'--{k.replace("_", "-")}' for k in ('mixup', 'label_smoothing') if getattr(cfg, k)]
    if problems:
        raise BadInputError(f'{" and ".join(problems)} are image-classification options; {training} does not '
                            'take them')
    if cfg.augment not in augments:
        raise BadInputError(f'--augment {cfg.augment}: {training} takes {" or ".join(augments)}')
