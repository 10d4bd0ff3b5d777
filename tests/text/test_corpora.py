"""Readers of the Debian text corpora: sizes as DATA.md describes them, checksums enforced, splits deterministic."""
import os
import shutil

import pytest

from gluonzoo.errors import BadInputError, ChecksumError
from gluonzoo.text.data import corpora


def test_wordnet_glosses_45_classes():
    pairs = corpora.wordnet_glosses()
    assert len(pairs) == 117659 and len({c for _, c in pairs}) == 45
    assert ('that which is perceived or known or inferred to have its own distinct existence (living or nonliving)',
            'noun.Tops') in pairs


def test_fortunes_by_category():
    quotes = corpora.fortunes()
    cats = {c for _, c in quotes}
    assert len(quotes) > 14000 and {'computers', 'science', 'literature'} <= cats
    assert all(q and '\n%\n' not in q for q, _ in quotes)


def test_austen_six_novels():
    novels = corpora.austen_novels()
    assert sorted(novels) == ['emma', 'mansfieldpark', 'northangerabbey', 'persuasion', 'prideprejudice',
                              'sensesensibility']
    assert novels['prideprejudice'][0] == 'PRIDE AND PREJUDICE'
    assert 3.9e6 < sum(len(line) for lines in novels.values() for line in lines) < 4.1e6


def test_trans_de_en_pairs():
    pairs = corpora.trans_de_en()
    assert len(pairs) > 390000
    assert ('das A und O [ugs.]', 'the nuts and bolts [coll.]') in pairs
    assert all(' | ' not in d and ' :: ' not in e for d, e in pairs[:1000])


def test_split_is_deterministic_and_order_free():
    pairs = corpora.wordnet_glosses()[:20000]
    a = corpora.split(pairs)
    b = corpora.split(list(reversed(pairs)))
    assert [sorted(x) for x in a] == [sorted(x) for x in b]
    assert sum(map(len, a)) == len(pairs) and 0.78 < len(a[0]) / len(pairs) < 0.82
    few = corpora.split(pairs[:100])  # an example's split does not depend on the others
    assert set(few[0]) <= set(a[0]) and set(few[2]) <= set(a[2])
    with pytest.raises(BadInputError, match='sum to 1'):
        corpora.split(pairs, fractions=(0.5, 0.2))


def test_changed_or_missing_files_are_refused(tmp_path):
    root = tmp_path / 'wordnet'
    shutil.copytree(corpora.WORDNET_DIR, root)
    with open(root / 'data.adv', 'ab') as f:
        f.write(b'x')
    with pytest.raises(ChecksumError, match='wordnet-base 1:3.0-37'):
        corpora.wordnet_glosses(str(root))
    os.remove(root / 'data.adv')
    with pytest.raises(BadInputError, match='install the Debian package .wordnet-base'):
        corpora.wordnet_glosses(str(root))
    with pytest.raises(BadInputError, match='not found'):
        corpora.trans_de_en(str(tmp_path / 'de-en'))
