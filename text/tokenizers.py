"""Tokenizers that wrap the well-kept libraries: HF `tokenizers` (WordPiece, byte-level BPE) and `sentencepiece`.

Nothing here splits text by hand. Each class assembles the library's own parts, adds one calling convention
(`encode`, `encode_batch`, `encode_pair`, `windows`, `decode`) and turns bad input into one clear error:

>>> tok = WordPieceTokenizer.from_tokens(['hello', 'world', '##s'])
>>> tok.encode('Hello worlds!')
[2, 5, 6, 7, 0, 3]
>>> tok.tokens('Hello worlds!')
['[CLS]', 'hello', 'world', '##s', '[UNK]', '[SEP]']
>>> tok.encode('')
[2, 3]
"""
import dataclasses
import os
from typing import List, Optional, Sequence, Tuple

from ..errors import BadInputError

BERT_SPECIALS = ('[UNK]', '[PAD]', '[CLS]', '[SEP]', '[MASK]')


@dataclasses.dataclass
class Encoding:
    """One encoded text (or pair): ids, segment ids, tokens and (start, end) character offsets per token."""
    ids: List[int]
    type_ids: List[int]
    tokens: List[str]
    offsets: List[Tuple[int, int]]

    def __len__(self):
        return len(self.ids)


def _text(text, what='text'):
    """A str from str or UTF-8 bytes; anything else, or bytes that are not UTF-8, is a BadInputError."""
    if isinstance(text, (bytes, bytearray)):
        try:
            return bytes(text).decode('utf-8')
        except UnicodeDecodeError as e:
            raise BadInputError(f'{what} is not valid UTF-8 (byte {e.start}: {bytes(text)[e.start:e.start + 4]!r}); '
                                "decode it yourself, e.g. data.decode('utf-8', errors='replace')") from None
    if not isinstance(text, str):
        raise BadInputError(f'{what} must be a str or UTF-8 bytes, not {type(text).__name__}')
    try:  # a lone surrogate ('\ud800', e.g. from a bad surrogateescape decode) crashes both libraries (tests/fuzz)
        if not text.isascii():  # ASCII has no surrogates: the common case pays no extra pass
            text.encode('utf-8')
    except UnicodeEncodeError as e:
        raise BadInputError(f'{what} holds {text[e.start]!r} at character {e.start}, which is not Unicode text '
                            '(a lone surrogate); clean it first, e.g. with .encode("utf-8", "replace")') from None
    return text


def _file(path, what):
    if not os.path.isfile(str(path)):
        raise BadInputError(f'{what} {path} does not exist: pass the path of an existing file')
    return str(path)


def _check_window(max_length, stride, reserved):
    if max_length is not None and max_length <= reserved:
        raise BadInputError(f'max_length={max_length} leaves no room for text next to {reserved} special tokens')
    if stride < 0 or (max_length is not None and stride >= max_length - reserved):
        raise BadInputError(f'stride={stride} must be >= 0 and < max_length minus special tokens '
                            f'({None if max_length is None else max_length - reserved})')


class _HFTokenizer:
    """Shared calling convention over a `tokenizers.Tokenizer` (self._tok)."""
    _reserved = 0  # special tokens added around one text

    def _configure(self, max_length, stride):
        _check_window(max_length, stride, self._reserved)
        self.max_length, self.stride = max_length, stride
        self._tok.no_truncation()
        if max_length is not None:
            self._tok.enable_truncation(max_length, stride=stride, strategy='longest_first')

    def _wrap(self, enc):
        return Encoding(list(enc.ids), list(enc.type_ids), list(enc.tokens), [tuple(o) for o in enc.offsets])

    def encode(self, text, pair=None) -> List[int]:
        """Token ids of `text` (and `pair`), special tokens included, truncated to max_length when it is set."""
        return self._tok.encode(_text(text), None if pair is None else _text(pair, 'pair')).ids

    def encode_full(self, text, pair=None) -> Encoding:
        """The Encoding (ids, type_ids, tokens, offsets) of `text` (and `pair`)."""
        pair = None if pair is None else _text(pair, 'pair')
        return self._wrap(self._tok.encode(_text(text), pair))

    def encode_pair(self, text, pair) -> Encoding:
        """A sentence pair: `[CLS] a [SEP] b [SEP]` with type ids 0 then 1 for BERT."""
        return self.encode_full(text, pair)

    def encode_batch(self, texts: Sequence, pairs: Optional[Sequence] = None) -> List[List[int]]:
        """Ids of many texts at once (the library encodes them in parallel)."""
        texts = [t if isinstance(t, str) else _text(t, f'texts[{i}]') for i, t in enumerate(texts)]
        if pairs is not None:
            if len(pairs) != len(texts):
                raise BadInputError(f'{len(texts)} texts but {len(pairs)} pairs: give one pair per text')
            texts = list(zip(texts, [_text(p, f'pairs[{i}]') for i, p in enumerate(pairs)]))
        return [e.ids for e in self._tok.encode_batch(texts)]

    def windows(self, text) -> List[Encoding]:
        """All max_length windows over a long text, consecutive ones sharing `stride` tokens (needs max_length)."""
        if self.max_length is None:
            raise BadInputError('windows() needs a tokenizer made with max_length=N (and optionally stride=S)')
        enc = self._tok.encode(_text(text))
        return [self._wrap(enc)] + [self._wrap(o) for o in enc.overflowing]

    def tokens(self, text, pair=None) -> List[str]:
        return self.encode_full(text, pair).tokens

    def decode(self, ids, skip_special_tokens=True) -> str:
        return self._tok.decode(list(ids), skip_special_tokens=skip_special_tokens)

    @property
    def vocab_size(self):
        return self._tok.get_vocab_size()

    def token_to_id(self, token):
        return self._tok.token_to_id(token)

    def id_to_token(self, idx):
        return self._tok.id_to_token(idx)


class WordPieceTokenizer(_HFTokenizer):
    """BERT's WordPiece: BertNormalizer (lowercase, strip accents, CJK split), BertPreTokenizer, WordPiece, then
    `[CLS] a [SEP] (b [SEP])`. Gives the ids HF's BertWordPieceTokenizer gives for the same vocab.txt. Special
    tokens other than unk_token may be None where the vocabulary has none (GluonNLP's BERTTokenizer splits text over
    any Vocab); without cls_token or sep_token nothing is added around texts."""
    _reserved = 2

    def __init__(self, vocab_file, lowercase=True, max_length=None, stride=0, unk_token='[UNK]', cls_token='[CLS]',
                 sep_token='[SEP]', pad_token='[PAD]', mask_token='[MASK]', max_chars_per_word=100):
        from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors
        vocab = models.WordPiece.read_file(_file(vocab_file, 'vocab file'))
        specials = dict(unk_token=unk_token, cls_token=cls_token, sep_token=sep_token, pad_token=pad_token,
                        mask_token=mask_token)
        # WordPiece emits unk_token for a word it cannot split, so that one must be there
        missing = [f'{k}={v!r}' for k, v in specials.items() if v not in vocab and (v is not None or k == 'unk_token')]
        if missing:
            raise BadInputError(f'special tokens {", ".join(missing)} are not in {vocab_file}: pass the names '
                                'that vocab uses (e.g. cls_token=\'<s>\')')
        self.vocab_file, self.lowercase, self.specials = str(vocab_file), lowercase, specials
        tok = Tokenizer(models.WordPiece(vocab, unk_token=unk_token, max_input_chars_per_word=max_chars_per_word))
        tok.normalizer = normalizers.BertNormalizer(clean_text=True, handle_chinese_chars=True, strip_accents=None,
                                                    lowercase=lowercase)
        tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
        if cls_token is not None and sep_token is not None:
            cls, sep = (cls_token, vocab[cls_token]), (sep_token, vocab[sep_token])
            tok.post_processor = processors.BertProcessing(sep, cls)  # [CLS] a [SEP] (b [SEP]), types 0 then 1
        else:
            self._reserved = 0
        tok.decoder = decoders.WordPiece()
        tok.add_special_tokens([v for v in specials.values() if v is not None])
        self._tok = tok
        self._configure(max_length, stride)

    @classmethod
    def from_vocab(cls, vocab, **kwargs):
        """A tokenizer over a vocabulary object (text.vocab.BERTVocab, or a Vocab whose missing BERT special tokens
        are None): its tokens in index order, so its ids are the vocabulary's, and its special tokens; the library
        reads a file: a temp one, removed once read."""
        import tempfile
        fd, path = tempfile.mkstemp(suffix='-vocab.txt')
        try:
            with os.fdopen(fd, 'w', encoding='utf-8') as f:
                f.write('\n'.join(vocab.idx_to_token) + '\n')
            return cls(path, unk_token=vocab.unknown_token, cls_token=getattr(vocab, 'cls_token', None),
                       sep_token=getattr(vocab, 'sep_token', None), pad_token=vocab.padding_token,
                       mask_token=getattr(vocab, 'mask_token', None), **kwargs)
        finally:
            os.remove(path)

    @classmethod
    def from_tokens(cls, tokens, path=None, **kwargs):
        """A tokenizer over BERT's five special tokens plus `tokens`, written to a vocab file (doctests, tests)."""
        import tempfile
        if path is None:
            fd, path = tempfile.mkstemp(suffix='-vocab.txt')
            os.close(fd)
        with open(path, 'w', encoding='utf-8') as f:
            f.write('\n'.join(list(BERT_SPECIALS) + [t for t in tokens if t not in BERT_SPECIALS]) + '\n')
        return cls(path, **kwargs)


class ByteBPETokenizer(_HFTokenizer):
    """GPT-2's byte-level BPE from a vocab.json and merges.txt: every byte string has an encoding, no unknowns."""

    def __init__(self, vocab_file, merges_file, add_prefix_space=False, max_length=None, stride=0):
        from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors
        try:
            model = models.BPE.from_file(_file(vocab_file, 'vocab file'), _file(merges_file, 'merges file'))
        except Exception as e:  # the library raises plain Exception for a malformed file
            raise BadInputError(f'cannot read BPE files {vocab_file}, {merges_file}: {e}') from None
        tok = Tokenizer(model)
        tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=add_prefix_space)
        tok.decoder = decoders.ByteLevel()
        tok.post_processor = processors.ByteLevel(trim_offsets=False)
        self._tok = tok
        self._configure(max_length, stride)


class SentencePieceTokenizer:
    """A trained SentencePiece model (unigram or BPE); `add_bos` / `add_eos` wrap each text in those ids."""

    def __init__(self, model_file, add_bos=False, add_eos=False, max_length=None, stride=0):
        import sentencepiece as spm
        self._sp = spm.SentencePieceProcessor()
        try:
            self._sp.Load(_file(model_file, 'SentencePiece model'))
        except (OSError, RuntimeError) as e:
            raise BadInputError(f'{model_file} is not a SentencePiece model: {e}') from None
        self.add_bos, self.add_eos = add_bos, add_eos
        for flag, idx, name in ((add_bos, self._sp.bos_id(), 'bos'), (add_eos, self._sp.eos_id(), 'eos')):
            if flag and idx < 0:
                raise BadInputError(f'{model_file} has no {name} piece; use add_{name}=False')
        self._reserved = int(add_bos) + int(add_eos)
        _check_window(max_length, stride, self._reserved)
        self.max_length, self.stride = max_length, stride

    def _pieces(self, text):
        text = _text(text)
        proto = self._sp.encode(text, return_type='proto')
        # sentencepiece reports UTF-8 byte offsets; callers index the str, so map bytes -> characters
        char_at = [0] * (len(text.encode('utf-8')) + 1)
        pos = 0
        for i, ch in enumerate(text):
            n = len(ch.encode('utf-8'))
            char_at[pos:pos + n] = [i] * n
            pos += n
        char_at[pos] = len(text)
        return [(p.id, p.piece, (char_at[p.begin], char_at[p.end])) for p in proto.pieces]

    def _assemble(self, pieces):
        bos = [(self._sp.bos_id(), self._sp.id_to_piece(self._sp.bos_id()), (0, 0))] if self.add_bos else []
        eos = [(self._sp.eos_id(), self._sp.id_to_piece(self._sp.eos_id()), (0, 0))] if self.add_eos else []
        items = bos + pieces + eos
        return Encoding([i for i, _, _ in items], [0] * len(items), [p for _, p, _ in items],
                        [o for _, _, o in items])

    def encode_full(self, text) -> Encoding:
        pieces = self._pieces(text)
        if self.max_length is not None:
            pieces = pieces[:self.max_length - self._reserved]
        return self._assemble(pieces)

    def encode(self, text) -> List[int]:
        ids = self._sp.encode(_text(text))  # ids only: the proto with offsets costs several times more
        if self.max_length is not None:
            ids = ids[:self.max_length - self._reserved]
        return ([self._sp.bos_id()] if self.add_bos else []) + ids + ([self._sp.eos_id()] if self.add_eos else [])

    def encode_batch(self, texts) -> List[List[int]]:
        texts = [t if isinstance(t, str) else _text(t, f'texts[{i}]') for i, t in enumerate(texts)]
        bos = [self._sp.bos_id()] if self.add_bos else []
        eos = [self._sp.eos_id()] if self.add_eos else []
        room = None if self.max_length is None else self.max_length - self._reserved
        out = self._sp.encode(texts)  # the library's batch call
        return out if not (bos or eos or room is not None) else [bos + ids[:room] + eos for ids in out]

    def windows(self, text) -> List[Encoding]:
        if self.max_length is None:
            raise BadInputError('windows() needs a tokenizer made with max_length=N (and optionally stride=S)')
        pieces, room = self._pieces(text), self.max_length - self._reserved
        starts = range(0, max(len(pieces) - self.stride, 1), room - self.stride)
        return [self._assemble(pieces[s:s + room]) for s in starts]

    def tokens(self, text) -> List[str]:
        return self.encode_full(text).tokens

    def decode(self, ids) -> str:
        return self._sp.decode(list(ids))

    @property
    def vocab_size(self):
        return self._sp.get_piece_size()

    def token_to_id(self, token):
        return self._sp.piece_to_id(token)

    def id_to_token(self, idx):
        return self._sp.id_to_piece(idx)


def train_sentencepiece(texts, model_prefix, vocab_size=1000, model_type='unigram', **options):
    """Train a SentencePiece model on an iterable of strings; returns the `.model` path. Extra options go to
    `sentencepiece.SentencePieceTrainer.train` (e.g. character_coverage=1.0)."""
    import sentencepiece as spm
    sentences = [_text(t, 'training text') for t in texts]
    if not any(s.strip() for s in sentences):
        raise BadInputError('train_sentencepiece got no non-empty training text')
    os.makedirs(os.path.dirname(os.path.abspath(model_prefix)), exist_ok=True)
    try:
        spm.SentencePieceTrainer.train(sentence_iterator=iter(sentences), model_prefix=str(model_prefix),
                                       vocab_size=vocab_size, model_type=model_type, minloglevel=2, **options)
    except RuntimeError as e:
        raise BadInputError(f'SentencePiece training failed: {str(e).splitlines()[-1]}') from None
    return f'{model_prefix}.model'
