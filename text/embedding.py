"""Sentence embeddings from a pretrained encoder: tokenize, batch, encode, mean-pool, L2-normalise.

    >>> import gluonzoo.text as gt
    >>> v = gt.embed('bert_6_384_12', ['A cat sits.', 'A dog runs.'])   # doctest: +SKIP
    >>> v.shape                                                          # doctest: +SKIP
    (2, 384)

What to do with a checkpoint (tokenizer, vocab file, max_length, pooling) comes from its Weights record's
`preprocess`, so a new encoder is a new record, not new code here.
"""
import functools

import numpy as np

from ..errors import BadInputError
from ..optimizing import optimize
from ..store import package_file

DEFAULT = 'bert_6_384_12.all_minilm_l6_v2'


@functools.lru_cache(maxsize=4)
def load_encoder(name=DEFAULT, ctx=None):
    """(net, tokenizer, preprocess) for a text-embedding checkpoint; built once per name."""
    from ..registry import get_model, get_weights
    from .models.bert import check_vocab
    from .tokenizers import WordPieceTokenizer
    w = get_weights(name)
    pre = dict(w.preprocess)
    if w.task != 'text-embedding' or pre.get('tokenizer') != 'wordpiece':
        raise BadInputError(f'{w.name} is a {w.task} checkpoint without a sentence-embedding recipe; '
                            f'use one of gluonzoo list --task text-embedding --pretrained')
    tok = WordPieceTokenizer(package_file(w.source.package, pre['vocab']), lowercase=pre.get('lowercase', True),
                             max_length=pre.get('max_length'))
    net = get_model(w.name, pretrained=True, ctx=ctx)
    check_vocab(net, tok.vocab_size)
    net.hybridize(static_alloc=True)
    return net, tok, pre


def embed(name, texts, batch_size=32, ctx=None):
    """Embeddings of `texts` (a str or a list of str) as a float32 numpy array (n, units), rows of unit L2 norm.

    Texts longer than the checkpoint's max_length tokens are truncated (as sentence-transformers does). Empty and
    whitespace-only texts are embedded from `[CLS] [SEP]` alone.
    """
    import mxnet as mx
    if isinstance(texts, (str, bytes)):
        texts = [texts]
    texts = list(texts)
    if not texts:
        raise BadInputError('embed() got no texts: pass a string or a non-empty list of strings')
    net, tok, pre = load_encoder(name or DEFAULT, ctx)
    ctx = ctx or mx.cpu()
    ids = tok.encode_batch(texts)
    out = []
    for start in range(0, len(ids), batch_size):
        chunk = ids[start:start + batch_size]
        longest = max(len(x) for x in chunk)
        batch = np.zeros((len(chunk), longest), dtype='float32')  # [PAD] is 0; masked out by valid_length
        for i, x in enumerate(chunk):
            batch[i, :len(x)] = x
        valid = np.array([len(x) for x in chunk], dtype='float32')
        inputs = mx.nd.array(batch, ctx=ctx), mx.nd.zeros(batch.shape, ctx=ctx), mx.nd.array(valid, ctx=ctx)
        # the first batch: fused oneDNN graph, checked against the plain net; then a no-op (the net is cached).
        # Each batch is as long as its longest text, so memory is not planned for one shape
        optimize(net, *inputs, static_shape=False)
        seq = net(*inputs)
        seq = (seq[0] if isinstance(seq, (list, tuple)) else seq).asnumpy()  # padded positions are zeros
        if pre.get('pooling', 'mean') == 'mean':
            pooled = seq.sum(axis=1) / valid[:, None]
        else:
            pooled = seq[:, 0]
        out.append(pooled)
    vecs = np.concatenate(out).astype('float32')
    if pre.get('normalize', True):
        vecs /= np.maximum(np.linalg.norm(vecs, axis=1, keepdims=True), 1e-12)
    return vecs


def cosine_matrix(vecs):
    """Pairwise cosine similarities of row vectors."""
    v = vecs / np.maximum(np.linalg.norm(vecs, axis=1, keepdims=True), 1e-12)
    return v @ v.T
