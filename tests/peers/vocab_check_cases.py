"""Vocab and TokenEmbedding calls that GluonNLP answers with an assertion, a warning or a repaired result, written
once for both sides: `outcomes(nlp, tmp)` runs each with the module `nlp` (gluonnlp in the peers venv, gluonzoo.nlp
in ours) and returns {case: {'raised': builtin exception classes the error is, 'warned': bool, 'result': ...}}.
GluonNLP's own tests catch these errors by their builtin class, so ours must be (at least) the same one."""
import os
import warnings

import mxnet as mx

BUILTINS = (AssertionError, ValueError, KeyError, TypeError, IndexError)
# GluonNLP before 0.7 wrote eos == padding as two entries; GluonNLP 0.10 still reads such a file
CORRUPTED = ('{"eos_token": "<eos>", "unknown_token": "<unk>", "bos_token": "<bos>", "padding_token": "<eos>", '
             '"idx_to_token": ["<unk>", "<eos>", "<bos>", "<eos>", "token"], '
             '"token_to_idx": {"<unk>": 0, "<bos>": 2, "<eos>": 3, "token": 4}, '
             '"reserved_tokens": ["<eos>", "<bos>", "<eos>"]}')


def _file(tmp, name, lines):
    path = os.path.join(tmp, name)
    with open(path, 'w') as f:
        f.write(''.join('\t'.join(line) + '\n' for line in lines))
    return path


def _embedding(nlp, extend=True):
    return nlp.embedding.TokenEmbedding(unknown_token='<unk>', idx_to_token=['<unk>', 'a', 'b'],
                                        idx_to_vec=mx.nd.arange(6).reshape(3, 2), allow_extend=extend)


def _set(emb, tokens, vecs):
    emb[tokens] = mx.nd.array(vecs)
    return emb.idx_to_token


def cases(nlp, tmp):
    c = nlp.data.count_tokens('a b b c c c'.split())
    vocab = nlp.Vocab
    empty = nlp.embedding.TokenEmbedding(unknown_token='<unk>')
    return {
        'min_freq_0': lambda: vocab(c, min_freq=0),
        'reserved_repeats_eos': lambda: vocab(c, eos_token='<eos>', reserved_tokens=['<eos>']),
        'reserved_twice': lambda: vocab(c, reserved_tokens=['b', 'b']),
        'reserved_is_unknown': lambda: vocab(c, unknown_token='<u>', reserved_tokens=['b', '<u>']),
        'special_name': lambda: vocab(c, special_tok='<t>'),
        'private_special': lambda: vocab(c, _private_token='<t>'),
        'eos_is_padding': lambda: vocab(c, padding_token='<eos>', eos_token='<eos>').idx_to_token,
        'set_embedding_none_among': lambda: vocab(c).set_embedding(_embedding(nlp), None),
        'set_embedding_no_vectors': lambda: vocab(c).set_embedding(empty),
        'setitem_rows': lambda: _set(_embedding(nlp), 'a', [[0, 0], [0, 0]]),
        'setitem_width': lambda: _set(_embedding(nlp), 'a', [0]),
        'setitem_one_new': lambda: _set(_embedding(nlp), 'new', [1, 2]),
        'setitem_two_new': lambda: _set(_embedding(nlp), ['n1', 'n2'], [[1, 2], [3, 4]]),
        'setitem_new_no_extend': lambda: _set(_embedding(nlp, extend=False), 'new', [1, 2]),
        'file_no_vector': lambda: nlp.embedding.TokenEmbedding.from_file(
            _file(tmp, 'novec.txt', [['a', '0.1', '0.2'], ['c']]), '\t'),
        'file_ragged': lambda: nlp.embedding.TokenEmbedding.from_file(
            _file(tmp, 'ragged.txt', [['a', '0.1', '0.2'], ['c', '0.3']]), '\t'),
        'corrupted_json': lambda: _read(nlp.Vocab.from_json(CORRUPTED)),
    }


def _read(v):
    return {'idx_to_token': v.idx_to_token, 'token_to_idx': dict(v.token_to_idx), 'lookup': v[['<eos>', 'x']]}


def outcomes(nlp, tmp):
    out = {}
    for name, call in cases(nlp, tmp).items():
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter('always')
            try:
                result, raised = call(), []
            except BUILTINS as e:
                result, raised = None, [b.__name__ for b in BUILTINS if isinstance(e, b)]
        warned = any(issubclass(w.category, UserWarning) and not issubclass(w.category, DeprecationWarning)
                     for w in caught)
        out[name] = {'raised': raised, 'warned': warned,
                     'result': result if isinstance(result, (list, dict)) else None}
    return out
