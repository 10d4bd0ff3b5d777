"""gluonzoo.nlp.data.bert / .xlnet (GluonNLP 0.10's fine-tuning preprocessing) against gluonnlp's own functions
(the peers venv, one run): the same calls, seeded random cases and the edge cases (empty documents, budgets
below every length, spans at the ends, unmapped indices), through each library's BERTTokenizer; bad inputs."""
import importlib
import json

import numpy as np
import pytest

import gluonzoo.nlp as nlp
from gluonzoo.errors import BadInputError
from tests.peers import run_peer
from tests.peers.calls_json import jsonable

VOCAB = ['the', 'leader', 'was', 'john', 'smith', '(', '1895', '-', '1943', ')', '.', 'jack', '##son', '##ville',
         'is', 'this', '?', 'japan', '##ese', 'no', 'it', 'not']
TOK = {'tokenizer': True}
GLUE, SQUAD, XLNET = 'data.bert.glue', 'data.bert.squad', 'data.xlnet.squad'
PARAGRAPH = 'The leader was  John Smith (1895-1943).\tIs this Jacksonville?'


def _cases():
    rng = np.random.RandomState(0)
    calls = []
    for _ in range(60):
        seqs = [list(range(rng.randint(0, 10))) for _ in range(rng.randint(1, 5))]
        calls.append((GLUE, 'truncate_seqs_equal', [seqs, int(rng.randint(0, 22))]))
    seqs = [['is', 'this', 'jacksonville', '?'], ['no', 'it', 'is', 'not', '.']]
    for sep, seq_mask, sep_mask in (([['[SEP]'], ['[SEP]'], ['[CLS]']], 0, 1),
                                    ([['[SEP]'], ['[SEP]'], ['[CLS]']], 0, [[1], [1], [0]]),
                                    ([['[SEP]'], ['[SEP]'], ['[CLS]']], [[1, 1, 1, 1], [0, 0, 0, 0, 0]], [[1], [1], [0]]),
                                    ([['[SEP]']], 1, 0), ([], 0, 1), ([['a', 'b'], ['c'], [], ['d']], 2, 3)):
        calls.append((GLUE, 'concat_sequences', [seqs, sep, seq_mask, sep_mask]))
    words = ['the', 'leader', 'is', 'jacksonville', '(1895-1943).', 'japanese', 'unknownword']
    for start, end in ((0, 0), (0, 2), (3, 3), (2, 6), (6, 6), (4, 5)):
        calls.append((SQUAD, 'tokenize_and_align_positions', [words, start, end, TOK]))
    for n in (0, 1, 5, 12):
        for max_length in (1, 3, 5):
            for stride in (1, 2, 4):
                calls.append((SQUAD, 'get_doc_spans', [list(range(n)), max_length, stride]))
    for positions in (2, [2, 6], [1, 3], [0, 4], [4], []):
        for kwargs in ((0, -1, True), (3, -2, False), (1, -1, False)):
            calls.append((SQUAD, 'align_position2doc_spans', [positions, [1, 4], *kwargs]))
    doc = ['the', 'leader', 'was', 'john', 'smith', '(', '1895', '-', '1943', ')', '.', 'japan', '##ese']
    for start, end, answer in ((5, 10, '1895'), (5, 10, '(1895-1943)'), (3, 4, 'John Smith'), (11, 12, 'Japan'),
                               (0, 12, 'smith ('), (2, 2, 'nothing')):
        calls.append((SQUAD, 'improve_answer_span', [doc, start, end, TOK, answer]))
    for spans in ([(0, 5), (3, 8), (6, 11)], [(0, 4), (2, 6)], [(0, 3)], [(2, 2), (0, 6)], [(1, 5), (1, 5)], [(0, 7), (1, 5)]):
        for index in range(len(spans)):
            for position in range(-1, 12):
                calls.append((SQUAD, 'check_is_max_context', [spans, index, position]))
    answer_at = PARAGRAPH.index('John Smith')
    for record in ([0, 'q0', 'Who?', PARAGRAPH, ['John Smith'], [answer_at]],
                   [1, 'q1', 'When?', PARAGRAPH, ['1895'], [PARAGRAPH.index('1895')], False],
                   [2, 'q2', 'Why?', PARAGRAPH, [], [], True], [3, 'q3', 'Where?', '  lead  space ', ['lead'], [2]],
                   [4, 'q4', 'What?', PARAGRAPH, ['Jacksonville?'], [PARAGRAPH.index('Jack')], False]):
        for training in (True, False):
            calls.append((SQUAD, 'convert_squad_examples', [record, training]))
    for _ in range(80):
        n = rng.randint(1, 8)
        index_map = [None if rng.rand() < 0.5 else int(rng.randint(0, 6)) for _ in range(n)]
        if all(i is None for i in index_map):
            index_map[rng.randint(n)] = int(rng.randint(0, 6))
        calls.append((XLNET, 'convert_index', [index_map, int(rng.randint(n)), [None, 3, 7][rng.randint(3)],
                                               bool(rng.rand() < 0.5)]))
    for seq1, seq2, max_dist, lower in ((['▁The', 'cat', '``', 'sat', "''"], ['▁the', 'cat', '"', 'sat', '"'], 2, True),
                                        (['a', 'b', 'c', 'd'], ['a', 'x', 'c', 'd', 'e'], 1, False),
                                        (['café', 'x'], ['cafe', 'x'], 3, False), ([], ['a'], 2, False),
                                        (['a', 'b', 'a', 'b', 'a'], ['b', 'a', 'b'], 4, False)):
        calls.append((XLNET, 'lcs_match', [max_dist, seq1, seq2, 8, lower]))
    return calls


CALLS = _cases()


@pytest.fixture(scope='module')
def ref(tmp_path_factory):
    out = tmp_path_factory.mktemp('bert_squad_peer')
    run_peer('gluonnlp_calls.py', out, [{'calls': [[f'gluonnlp.{m}', f, a] for m, f, a in CALLS], 'vocab': VOCAB}],
             timeout=300)
    with open(out / 'calls.json') as f:
        return json.load(f)


def test_same_results_as_gluonnlp(ref):
    tokenizer = nlp.data.BERTTokenizer(nlp.vocab.BERTVocab(nlp.data.count_tokens(VOCAB)), lower=True)
    assert len(ref) == len(CALLS)
    for (module, name, args), expected in zip(CALLS, ref):
        args = [tokenizer if a is TOK else a for a in args]
        got = jsonable(getattr(importlib.import_module(f'gluonzoo.nlp.{module}'), name)(*args))
        assert json.loads(json.dumps(got)) == expected, (module, name, args)


def test_the_names_are_one_function_in_each_gluonnlp_place():
    assert nlp.data.bert.glue.concat_sequences is nlp.data.concat_sequences is nlp.data.bert.concat_sequences
    assert nlp.data.xlnet.squad.lcs_match is nlp.data.lcs_match


@pytest.mark.parametrize('call, message', [
    (lambda: nlp.data.truncate_seqs_equal((['a'], ['b']), 1), 'list of sequences'),
    (lambda: nlp.data.concat_sequences([], []), 'non-empty'),
    (lambda: nlp.data.concat_sequences([['a']], [['b']], seq_mask=0.5), 'seq_mask'),
    (lambda: nlp.data.get_doc_spans(list('abc'), 2, 0), 'doc_stride'),  # GluonNLP loops for ever here
    (lambda: nlp.data.convert_squad_examples([0, 'q', 'Q?', 'text', ['text'], []], True), 'answer offset'),
    (lambda: nlp.data.convert_index([None, None], 0), 'no mapped index'),
])
def test_bad_inputs_say_what_to_do(call, message):
    with pytest.raises(BadInputError, match=message):
        call()
