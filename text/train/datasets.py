"""The text datasets recipes train on (gluonzoo.train.datasets registry, by config name): each loader reads a corpus
through gluonzoo.text.data and returns the task the engine runs (text/train/tasks.py).
"""
from ...train.data import checksum
from ...train.datasets import register_dataset


@register_dataset()
def austen(cfg):
    """Jane Austen's six novels (Debian r-cran-janeaustenr): lower-cased word/punctuation tokens, <eos> at each
    paragraph end (a run of blank lines); per novel the first 90% of lines train, the last 10% test; the 10,000
    most frequent training tokens (ties by spelling) plus <unk>. --train-limit / --val-limit cut the streams."""
    import re
    from collections import Counter

    import numpy as np

    from ..data.corpora import austen_novels
    from ..vocab import Vocab
    from .tasks import LanguageModel
    word = re.compile(r"[a-z]+(?:'[a-z]+)?|[.,;:!?\"()-]")
    streams = {'train': [], 'test': []}
    for title, lines in sorted(austen_novels().items()):
        cut = int(len(lines) * 0.9)
        for split, part in (('train', lines[:cut]), ('test', lines[cut:])):
            out = streams[split]
            for line in part:
                if line.strip():
                    out += word.findall(line.lower())
                elif out and out[-1] != '<eos>':  # a run of blank lines ends one paragraph
                    out.append('<eos>')
    vocab = Vocab(Counter(streams['train']), max_size=10000, padding_token=None, bos_token=None)
    ids = {k: np.array(vocab[v], dtype=np.float32) for k, v in streams.items()}
    info = {'name': 'austen', 'source': 'Debian r-cran-janeaustenr', 'train_split': 'train',
            'checksum': checksum(ids['train'], ids['test'])}
    train = ids['train'][:cfg.train_limit] if cfg.train_limit else ids['train']
    test = ids['test'][:cfg.val_limit] if cfg.val_limit else ids['test']
    return LanguageModel(train, test, vocab, info)


@register_dataset()
def wordnet_glosses(cfg, max_length=48):
    """WordNet 3.0 glosses (Debian wordnet-base) -> their 45 lexicographer classes; corpora.split's hash-based
    80/10/10 train/dev/test (each in hash order), test evaluated; WordPiece ids of all-MiniLM-L6-v2's vocab.txt, [CLS] .. [SEP], at most
    `max_length` tokens, padded with [PAD] (0). --train-limit / --val-limit take the first N of train / test."""
    import hashlib

    import numpy as np

    from ...registry import get_weights
    from ...store import package_file
    from ..data.corpora import LEXNAMES, split, wordnet_glosses as read_glosses
    from ..tokenizers import WordPieceTokenizer
    from .tasks import TextClassification
    w = get_weights('bert_6_384_12.all_minilm_l6_v2')
    tok = WordPieceTokenizer(package_file(w.source.package, w.preprocess['vocab']), max_length=max_length)
    # the files list adjectives, adverbs, nouns, verbs in turn: order each split by a hash of the gloss so that
    # the first N (--train-limit) are a fair sample of every class
    train, _, test = (sorted(part, key=lambda ex: hashlib.sha1(ex[0].encode()).digest())
                      for part in split(read_glosses()))
    train, test = train[:cfg.train_limit or None], test[:cfg.val_limit or None]
    classes = {name: i for i, name in enumerate(LEXNAMES)}

    def encode(pairs):
        ids = np.zeros((len(pairs), max_length), np.float32)
        valid = np.zeros(len(pairs), np.float32)
        for i, seq in enumerate(tok.encode_batch([g for g, _ in pairs])):
            ids[i, :len(seq)], valid[i] = seq, len(seq)
        return ids, valid, np.array([classes[c] for _, c in pairs], np.int64)
    tr, te = encode(train), encode(test)
    info = {'name': 'wordnet_glosses', 'source': 'Debian wordnet-base', 'train_split': 'train',
            'checksum': checksum(*tr, *te), 'tokenizer': w.preprocess['vocab']}
    return TextClassification(tr, te, len(LEXNAMES), info)


@register_dataset()
def trans_de_en(cfg, max_words=8, max_pieces=16, vocab_size=4000):
    """German -> English phrase pairs of the Ding dictionary (Debian trans-de-en): the first synonym of each side,
    grammar notes ({n}, [zool.], (...)) removed, at most `max_words` words a side, duplicates dropped;
    corpora.split's hash-based 80/10/10 train/dev/test (each in hash order: the file is alphabetical), test
    evaluated. One SentencePiece unigram model shared by both languages (as transformer_en_de_512's shared BPE),
    trained on the (limited) training split with one thread and no shuffling, so the same config gives the same
    pieces; pairs over `max_pieces` pieces a side are dropped. --train-limit / --val-limit take the first N."""
    import hashlib
    import re
    import tempfile

    import numpy as np

    from ..data.corpora import split, trans_de_en as read_pairs
    from ..tokenizers import SentencePieceTokenizer, train_sentencepiece
    from .tasks import Translation
    notes = re.compile(r'\{[^}]*\}|\[[^\]]*\]|\([^)]*\)')
    pairs, seen = [], set()
    for de, en in read_pairs():
        de, en = (' '.join(notes.sub(' ', s.split(';')[0]).split()) for s in (de, en))
        if de and en and len(de.split()) <= max_words and len(en.split()) <= max_words and (de, en) not in seen:
            seen.add((de, en))
            pairs.append((de, en))
    train, _, test = (sorted(part, key=lambda ex: hashlib.sha1('\t'.join(ex).encode()).digest())
                      for part in split(pairs))
    train, test = train[:cfg.train_limit or None], test[:cfg.val_limit or None]
    with tempfile.TemporaryDirectory() as tmp:
        model = train_sentencepiece([s for pair in train for s in pair], f'{tmp}/spm', vocab_size=vocab_size,
                                    hard_vocab_limit=False, num_threads=1, shuffle_input_sentence=False,
                                    character_coverage=1.0, pad_id=0, unk_id=1, bos_id=2, eos_id=3)
        tok = SentencePieceTokenizer(model)  # loaded into memory: the temporary file can go
    bos, eos = tok.token_to_id('<s>'), tok.token_to_id('</s>')

    def encode(part):
        src, tgt = tok.encode_batch([d for d, _ in part]), tok.encode_batch([e for _, e in part])
        keep = [i for i in range(len(part)) if len(src[i]) <= max_pieces and len(tgt[i]) <= max_pieces]
        s = np.zeros((len(keep), max_pieces + 1), np.float32)  # source + <eos>
        t = np.zeros((len(keep), max_pieces + 2), np.float32)  # <bos> + target + <eos>
        sv, tv = np.zeros(len(keep), np.float32), np.zeros(len(keep), np.float32)
        for row, i in enumerate(keep):
            s[row, :len(src[i]) + 1], sv[row] = src[i] + [eos], len(src[i]) + 1
            t[row, :len(tgt[i]) + 2], tv[row] = [bos] + tgt[i] + [eos], len(tgt[i]) + 2
        return (s, sv, t, tv), [part[i][1] for i in keep]
    (tr, _), (te, refs) = encode(train), encode(test)
    info = {'name': 'trans_de_en', 'source': 'Debian trans-de-en', 'train_split': 'train', 'direction': 'de-en',
            'checksum': checksum(*tr, *te), 'tokenizer': f'sentencepiece unigram {tok.vocab_size} (train split)'}
    return Translation(tr, te, refs, tok, info, bos_id=bos, eos_id=eos)
