"""The text tasks, as the zoo sees them (gluonzoo.tasks): what a text record's preprocess may say, the example
inputs (each arch's own small `test_input`) and the output contract of each task, and `gluonzoo embed`.

Preprocess keys of a text record:
    tokenizer  'wordpiece' (a vocab.txt the record names), or a description of how the ids were made
    vocab      the vocabulary file inside the weights package, or a description     lowercase  bool
    max_length the longest token sequence the checkpoint takes                      bos / eos  special tokens
    pooling    'mean' | 'cls' (sentence embeddings)                                 normalize  L2-normalize them
"""
from ..tasks import Command, Task, flag, one_of, positive_int, register_command, register_task, text

TEXT_PREPROCESS = {
    'tokenizer': text('tokenizer'), 'vocab': text('vocab'), 'lowercase': flag('lowercase'),
    'max_length': positive_int('max_length'), 'pooling': one_of('pooling', 'mean', 'cls'),
    'normalize': flag('normalize'), 'bos': text('bos'), 'eos': text('eos'),
}


def _inputs(entry):
    return tuple(entry.test_input())


def _finite(outputs):
    import numpy as np
    for o in outputs:
        assert np.isfinite(o.asnumpy()).all(), 'outputs are not all finite'


def _per_token(axis_of_tokens):
    """Outputs whose first array has one row per token of input `axis_of_tokens` (ids in (batch, T) or (T, batch),
    or characters in (batch, T, chars))."""
    def check(outputs, inputs, classes):
        want = inputs[axis_of_tokens].shape[:2]
        assert tuple(outputs[0].shape[:2]) == tuple(want), \
            f'first output of shape {outputs[0].shape}, expected it to start with the token ids\' {want}'
        _finite(outputs)
    return check


def _check_logits(outputs, inputs, classes):
    want = (inputs[0].shape[0], classes)
    assert outputs[0].shape == want, f'logits of shape {outputs[0].shape}, expected {want} (batch, classes)'
    _finite(outputs)


def _check_spans(outputs, inputs, classes):
    want = inputs[0].shape + (2,)
    assert outputs[0].shape == want, f'span scores of shape {outputs[0].shape}, expected {want} (batch, T, 2)'
    _finite(outputs)


def _embed_args(parser):
    parser.add_argument('name', help='a text-embedding checkpoint, e.g. bert_6_384_12')
    parser.add_argument('texts', nargs='+')
    parser.add_argument('--vectors', action='store_true', help='print the vectors too when there are 2+ texts')


def _embed(args):
    from .commands import embed
    return embed(args)


register_command(Command('embed', 'sentence embeddings, or the cosine similarity matrix of 2+ texts', _embed_args,
                         _embed))
register_task(Task('text-embedding', 'text', TEXT_PREPROCESS, _inputs, _per_token(0), command='embed'))
register_task(Task('text-classification', 'text', TEXT_PREPROCESS, _inputs, _check_logits, has_classes=True))
register_task(Task('question-answering', 'text', TEXT_PREPROCESS, _inputs, _check_spans))
register_task(Task('language-model', 'text', TEXT_PREPROCESS, _inputs, _per_token(0)))
register_task(Task('translation', 'text', TEXT_PREPROCESS, _inputs, _per_token(1)))
