"""Readers for the real text corpora that Debian packages put on disk (see DATA.md; `make text-data` installs them).

Each reader checks the bytes it reads against the sha256 of the package version the zoo was built with, so a
changed corpus is an error rather than silently different numbers, and `split` divides examples by a hash of their
text: the same example lands in the same split on every machine, whatever the order or the other examples.

    pairs = wordnet_glosses()                 # [(gloss, 'noun.animal'), ...], 45 lexicographer classes
    train, dev, test = split(pairs)
"""
import glob
import gzip
import hashlib
import os
import zlib

from ...errors import BadInputError, ChecksumError

FORTUNES_DIR = '/usr/share/games/fortunes'
WORDNET_DIR = '/usr/share/wordnet'
AUSTEN_DIR = '/usr/lib/R/site-library/janeaustenr/data'
TRANS_DE_EN = '/usr/share/trans/de-en'

# sha256 of what each reader reads, for the Debian bookworm package versions named
SHA256 = {
    'fortunes': ('fortunes 1:1.99.1-7.3', '1b02477d44d7cb55bd8ef9c1dc233dace0de4d534c25243a2d34ed01699b1dc3'),
    'wordnet': ('wordnet-base 1:3.0-37', 'd4cf72b052790c982f0572feffb92217b1bbc2c3584efa8d5670fcfe0570400d'),
    'austen': ('r-cran-janeaustenr 1.0.0-1', 'f1ba53b87cc46062176148d39011c6e53a8370184ad1c9d6236dddcd2f6f049c'),
    'trans-de-en': ('trans-de-en 1.9-6', '2e4c6f7ec3e9e73b5f819a0acf7598bc6ffde0e5e56eb83633599a961241431e'),
}

# WordNet 3.0's lexicographer files, by lex_filenum (the `lexnames` file of the WordNet distribution)
LEXNAMES = ('adj.all adj.pert adv.all noun.Tops noun.act noun.animal noun.artifact noun.attribute noun.body '
            'noun.cognition noun.communication noun.event noun.feeling noun.food noun.group noun.location '
            'noun.motive noun.object noun.person noun.phenomenon noun.plant noun.possession noun.process '
            'noun.quantity noun.relation noun.shape noun.state noun.substance noun.time verb.body verb.change '
            'verb.cognition verb.communication verb.competition verb.consumption verb.contact verb.creation '
            'verb.emotion verb.motion verb.perception verb.possession verb.social verb.stative verb.weather '
            'adj.ppl').split()


def _read(paths, corpus, package):
    """The bytes of `paths` (sorted), checked against SHA256[corpus]."""
    missing = [p for p in paths if not os.path.isfile(p)]
    if not paths or missing:
        raise BadInputError(f'{corpus}: {missing[0] if missing else "no files"} not found: install the Debian '
                            f'package ({package}; `make text-data` does)')
    h = hashlib.sha256()
    blobs = {}
    for p in sorted(paths):
        with open(p, 'rb') as f:
            blobs[p] = f.read()
        h.update(os.path.basename(p).encode() + b'\0' + blobs[p])
    version, want = SHA256[corpus]
    if h.hexdigest() != want:
        raise ChecksumError(f'{corpus}: the files have sha256 {h.hexdigest()[:12]}..., gluonzoo was built against '
                            f'{version} ({want[:12]}...): install that version or update SHA256 after checking')
    return blobs


def corpus_sha256(corpus):
    """Recompute the checksum a reader compares (for updating SHA256 after a deliberate package upgrade)."""
    paths = {'fortunes': _fortune_files, 'wordnet': _wordnet_files, 'austen': _austen_files,
             'trans-de-en': lambda: [TRANS_DE_EN]}[corpus]()
    h = hashlib.sha256()
    for p in sorted(paths):
        with open(p, 'rb') as f:
            h.update(os.path.basename(p).encode() + b'\0' + f.read())
    return h.hexdigest()


def _fortune_files(root=FORTUNES_DIR):
    return [p for p in glob.glob(os.path.join(root, '*')) if os.path.isfile(p) and not os.path.islink(p)
            and not p.endswith(('.dat', '.u8'))]


def fortunes(root=FORTUNES_DIR):
    """[(quote, category)] from the category files of the `fortunes` packages (quotes split on a line '%')."""
    blobs = _read(_fortune_files(root), 'fortunes', 'fortunes, fortunes-min')
    out = []
    for path, data in sorted(blobs.items()):
        text = data.decode('utf-8', errors='replace')
        for quote in text.split('\n%\n'):
            quote = quote.strip('%\n ')
            if quote:
                out.append((quote, os.path.basename(path)))
    return out


def _wordnet_files(root=WORDNET_DIR):
    return [os.path.join(root, f'data.{pos}') for pos in ('adj', 'adv', 'noun', 'verb')]


def wordnet_glosses(root=WORDNET_DIR):
    """[(gloss, lexicographer class)] of every WordNet 3.0 synset: text classification over 45 classes."""
    blobs = _read(_wordnet_files(root), 'wordnet', 'wordnet-base')
    out = []
    for data in blobs.values():
        for line in data.decode('utf-8').splitlines():
            if line.startswith('  ') or ' | ' not in line:  # the license header
                continue
            head, gloss = line.split(' | ', 1)
            out.append((gloss.strip(), LEXNAMES[int(head.split()[1])]))
    return out


def _austen_files(root=AUSTEN_DIR):
    return [os.path.join(root, 'Rdata.rdb'), os.path.join(root, 'Rdata.rdx')]


def austen_novels(root=AUSTEN_DIR):
    """{title: [line, ...]} of Jane Austen's six novels from janeaustenr's R lazy-load database (read by rdata)."""
    import rdata
    blobs = _read(_austen_files(root), 'austen', 'r-cran-janeaustenr')
    rdb, rdx = blobs[os.path.join(root, 'Rdata.rdb')], blobs[os.path.join(root, 'Rdata.rdx')]

    def unserialize(raw):
        import warnings
        with warnings.catch_warnings():  # rdata notes that a bare serialized object has no file header
            warnings.simplefilter('ignore')
            return rdata.conversion.convert(rdata.parser.parse_data(raw))
    index = unserialize(gzip.decompress(rdx))['variables']
    novels = {}
    for title, (offset, length) in sorted(index.items()):
        # each object: a 4-byte big-endian length, then a zlib stream of R's serialization
        lines = unserialize(zlib.decompress(rdb[int(offset) + 4:int(offset) + int(length)]))
        novels[title] = [str(x) for x in lines]
    return novels


def trans_de_en(path=TRANS_DE_EN):
    """[(german, english)] phrase pairs of the Ding dictionary: entries split on ' :: ', senses on ' | '."""
    data = _read([path], 'trans-de-en', 'trans-de-en')[path].decode('utf-8')
    out = []
    for line in data.splitlines():
        if line.startswith('#') or ' :: ' not in line:
            continue
        de, en = line.split(' :: ', 1)
        out.extend((d.strip(), e.strip()) for d, e in zip(de.split(' | '), en.split(' | ')) if d.strip() and e.strip())
    return out


def split(examples, fractions=(0.8, 0.1, 0.1), key=None):
    """Deterministic train/dev/test (or any number of) splits by a hash of each example's text.

    `key(example)` gives the text to hash (default: the first element of a tuple, or the example itself).
    """
    if abs(sum(fractions) - 1.0) > 1e-9 or any(f < 0 for f in fractions):
        raise BadInputError(f'split fractions {fractions} must be >= 0 and sum to 1')
    key = key or (lambda ex: ex[0] if isinstance(ex, tuple) else ex)
    bounds, acc = [], 0.0
    for f in fractions:
        acc += f
        bounds.append(acc)
    parts = [[] for _ in fractions]
    for ex in examples:
        u = int.from_bytes(hashlib.sha1(str(key(ex)).encode('utf-8')).digest()[:8], 'big') / 2.0 ** 64
        parts[next(i for i, b in enumerate(bounds) if u < b or i == len(bounds) - 1)].append(ex)
    return parts
