"""Write a GLUE-style sentence-pair task from the WordNet glosses: two definitions, label 1 when their synsets share a
lexicographer class (noun.animal, verb.motion, ...), else 0; half of each file is 1.

    python scripts/text/classification/make_gloss_pairs.py --out data/gloss_pairs   # train.tsv 4,000, dev.tsv 400

Each file has a header row (gloss_a, gloss_b, same_class: fine-tune with --skip-header --text-cols 0,1
--label-col 2). Train pairs come from corpora.split's training glosses, dev pairs from its dev glosses, so no
definition is in both; the same --seed gives the same bytes. A gloss is its definition, the example sentences
after it dropped. Needs `make text-data` (Debian wordnet-base).
"""
import argparse
import os
import random
import sys
import tempfile
from collections import defaultdict

HEADER = ('gloss_a', 'gloss_b', 'same_class')


def definition(gloss):
    """The definition part of a WordNet gloss: the text before its first quoted example, one line, no tabs."""
    return ' '.join(gloss.split('; "')[0].split())


def pairs(glosses, n, rng):
    """`n` rows (a, b, label), alternately 1 (same class) and 0 (another class), then shuffled; a != b."""
    by_class = defaultdict(list)
    for text, cls in glosses:
        by_class[cls].append(text)
    classes = sorted(c for c, texts in by_class.items() if len(set(texts)) >= 2)  # a positive needs two
    other = sorted(by_class)
    rows = []
    for i in range(n):
        cls = rng.choice(classes)
        a = rng.choice(by_class[cls])
        if i % 2 == 0:
            b = a
            while b == a:
                b = rng.choice(by_class[cls])
        else:
            b = rng.choice(by_class[rng.choice([c for c in other if c != cls])])
        rows.append((a, b, str(1 - i % 2)))
    rng.shuffle(rows)
    return rows


def write_tsv(path, rows):
    """All rows or nothing: a temporary file in the same folder, renamed when complete."""
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(path)), suffix='.part')
    try:
        with os.fdopen(fd, 'w', encoding='utf-8', newline='\n') as f:
            for row in [HEADER] + rows:
                f.write('\t'.join(row) + '\n')
        os.replace(tmp, path)
    except BaseException:
        os.remove(tmp)
        raise


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('--out', required=True, help='folder for train.tsv and dev.tsv (created)')
    p.add_argument('--train-size', type=int, default=4000)
    p.add_argument('--dev-size', type=int, default=400)
    p.add_argument('--seed', type=int, default=0)
    args = p.parse_args(argv)
    if args.train_size < 2 or args.dev_size < 2:
        p.error('--train-size and --dev-size must be >= 2 (one pair of each label)')
    from gluonzoo.errors import GluonzooError
    from gluonzoo.text.data.corpora import split, wordnet_glosses
    try:
        glosses = [(definition(g), c) for g, c in wordnet_glosses()]
    except GluonzooError as e:
        print(f'{os.path.basename(sys.argv[0])}: error: {e}', file=sys.stderr)
        return 2
    train, dev, _ = split(glosses)
    os.makedirs(args.out, exist_ok=True)
    rng = random.Random(args.seed)
    for name, part, n in (('train', train, args.train_size), ('dev', dev, args.dev_size)):
        write_tsv(os.path.join(args.out, f'{name}.tsv'), pairs(part, n, rng))
    print(f'wrote {args.out}/train.tsv ({args.train_size} pairs) and dev.tsv ({args.dev_size} pairs)')
    return 0


if __name__ == '__main__':
    sys.exit(main())
