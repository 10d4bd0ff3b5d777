"""GluonNLP 0.10's calling convention beside gluonzoo's: `get_model(name, dataset_name=...) -> (model, vocab)`,
`get_tokenizer` and `BERTTokenizer(vocab, lower=...)`. A GluonNLP script changes its import only:

    import gluonzoo.text as nlp                     # was: import gluonnlp as nlp
    model, vocab = nlp.model.get_model('bert_12_768_12', dataset_name='book_corpus_wiki_en_uncased',
                                       use_decoder=False, use_classifier=False)
    tokenizer = nlp.get_tokenizer('bert_12_768_12', 'book_corpus_wiki_en_uncased', vocab)
    ids = vocab[tokenizer('Habit is second nature.')]

The checkpoint is the registry's record `arch.<dataset as tag>` (text/models/_gluonnlp.py), loaded by the one
loading path (gluonzoo.get_model: fetched, sha1-checked, strict). Differences from GluonNLP, each to fail loudly
rather than silently: a `vocab=` passed with a dataset_name is used (GluonNLP ignores it with a warning) once its
size is checked against the checkpoint's embedding; `pretrained` defaults to True for every arch (GluonNLP: BERT
only); the multilingual BERT tokenizers lowercase the uncased one (GluonNLP 0.10's get_tokenizer swaps the two).
"""
import inspect

from ..errors import AssertedInputError, BadInputError
from ..registry import get_entry, get_model as _zoo_get_model
# the model families (.models) are imported on first use: importing gluonzoo.text must not register models before
# gluonzoo.text.tasks has registered the tasks they are checked against (zoo/discovery.py)

# what each GluonNLP builder lets a caller change without hparam_allow_override=True (its `mutable_args`, in
# gluonzoo's option names); every other hyper-parameter of the builder is GluonNLP's "predefined setting"
_BERT_MUTABLE = ('dropout', 'use_residual', 'word_embed')
_MUTABLE = [('bert_', _BERT_MUTABLE), ('ernie_', _BERT_MUTABLE), ('roberta_', _BERT_MUTABLE),
            ('distilbert_', _BERT_MUTABLE), ('standard_lstm_lm_', ('dropout',)),
            ('awd_lstm_lm_', ('dropout', 'weight_drop', 'drop_h', 'drop_i', 'drop_e')),
            ('big_rnn_lm_', ('embed_dropout', 'encode_dropout')),
            ('transformer_', ('units', 'hidden_size', 'dropout', 'num_layers', 'num_heads')), ('elmo_', ())]
# options GluonNLP takes outside its predefined settings: the vocabulary's size and which heads to build
_NOT_HPARAMS = ('vocab_size', 'use_pooler', 'use_decoder', 'use_classifier')
# heads a caller may leave out of a checkpoint that has them (GluonNLP loads such files with ignore_extra)
_HEADS = ('use_pooler', 'use_decoder', 'use_classifier')


def get_model(name, dataset_name=None, pretrained=True, vocab=None, ctx=None, root=None,
              hparam_allow_override=False, **kwargs):
    """GluonNLP's `nlp.model.get_model`: (model, vocab), or (model, src_vocab, tgt_vocab) for the transformer.

    `dataset_name` picks the GluonNLP checkpoint and its vocabulary; `pretrained=False` builds the same shape with
    random weights; without a dataset_name, `vocab` sizes the embedding. `**kwargs` are builder options; changing
    a predefined hyper-parameter needs `hparam_allow_override=True`, as in GluonNLP. `use_pooler`, `use_decoder`
    and `use_classifier` may drop heads the checkpoint has (the rest is loaded strictly). `root` is the cache.
    """
    import mxnet as mx
    from .models._gluonnlp import dataset_of
    entry = get_entry(name)
    arch = entry.name
    _check_overrides(entry, kwargs, hparam_allow_override)
    records = {dataset_of(w): w for w in entry.weights.values() if dataset_of(w)}
    if dataset_name is not None and dataset_name not in records:
        raise BadInputError(f'{arch} has no GluonNLP checkpoint for dataset_name={dataset_name!r}; valid dataset '
                            f'names: {", ".join(sorted(records)) or "none (use pretrained=False and vocab=)"}')
    w = records.get(dataset_name)
    if pretrained and w is None:
        raise BadInputError(f'pretrained=True needs dataset_name=, the dataset of the checkpoint: for {arch} one '
                            f'of {", ".join(sorted(records)) or "none (use pretrained=False)"}')
    vocabs = _vocabs(arch, dataset_name, vocab, kwargs, root, w if pretrained else None)
    options = dict(w.config) if w is not None else {}
    if vocabs:
        options['vocab_size'] = len(vocabs[0])
    options.update(kwargs)
    ctx = ctx or mx.cpu()
    if w is None or not pretrained:
        net = _zoo_get_model(arch, pretrained=False, ctx=ctx, **options)
    else:
        net = _pretrained(entry, w, options, ctx, root)
    return (net, *vocabs) if vocabs else (net, None)


def _check_overrides(entry, kwargs, allowed):
    """GluonNLP's rule: a predefined hyper-parameter changes only with hparam_allow_override=True."""
    if allowed:
        return
    mutable = next((m for prefix, m in _MUTABLE if entry.name.startswith(prefix)), ())
    predefined = set(inspect.signature(entry.builder).parameters) - set(_NOT_HPARAMS)
    fixed = sorted(k for k in kwargs if k in predefined and k not in mutable)
    if fixed:  # an AssertionError too: GluonNLP's builders assert this rule, and code written for them catches that
        raise AssertedInputError(f'{entry.name}: {", ".join(fixed)} {"is a" if len(fixed) == 1 else "are"} '
                                 'predefined setting(s) of the model: pass hparam_allow_override=True to change them '
                                 '(GluonNLP: "Cannot override predefined model settings")')


def _vocabs(arch, dataset_name, vocab, kwargs, root, w):
    """The vocabularies get_model returns, each checked against the embedding size of the checkpoint `w` that is
    loaded (None with pretrained=False: the net is then built for the vocabulary given, as GluonNLP does)."""
    from .models._gluonnlp import load_vocab, vocab_names
    from .vocab import BERTVocab
    given = [kwargs.pop('src_vocab', None), kwargs.pop('tgt_vocab', None)] if arch.startswith('transformer_') \
        else [vocab]
    names = vocab_names(arch, dataset_name or '')
    if not names:
        return []
    cls = BERTVocab if arch.startswith(('bert_', 'ernie_')) else None
    if dataset_name is None:
        if any(v is None for v in given):
            raise BadInputError(f'{arch} needs dataset_name= (its vocabulary) or the vocabulary itself '
                                f'({"src_vocab= and tgt_vocab=" if len(given) == 2 else "vocab="})')
        return given
    out = [v if v is not None else load_vocab(n, root, cls) for v, n in zip(given, names)]
    if w is not None:
        rows = w.config.get('vocab_size')
        for v, n in zip(out, names):
            if rows is not None and len(v) != rows:
                raise BadInputError(f'the vocabulary has {len(v)} tokens but {w.name}\'s word embedding has {rows} '
                                    f'rows: use the vocabulary of {n} (leave vocab=None) or pretrained=False')
    return out


def _pretrained(entry, w, options, ctx, root):
    """The checkpoint loaded strictly into the net it was saved from; then, when the caller leaves out heads it
    has, the parameters of the smaller net are taken from it by name (each must be there, with its shape)."""
    defaults = {k: p.default for k, p in inspect.signature(entry.builder).parameters.items()}
    heads = {k: options.pop(k) for k in _HEADS if k in options and options[k] != w.config.get(k, defaults.get(k))}
    grown = [k for k, v in heads.items() if v]
    if grown:
        raise BadInputError(f'{w.name} has no weights for {", ".join(grown)}: its file was published without that '
                            f'head; drop {", ".join(f"{k}=True" for k in grown)}')
    full = _zoo_get_model(w.name, pretrained=True, ctx=ctx, root=root,
                          **{k: v for k, v in options.items() if k not in w.config or v != w.config[k]})
    if not heads:
        return full
    net = entry.builder(**{**options, **heads})
    have = full._collect_params_with_prefix()
    for k, p in net._collect_params_with_prefix().items():
        if k not in have or (p.shape and all(p.shape) and tuple(p.shape) != have[k].shape):
            raise BadInputError(f'{w.name}: {k} is not in the checkpoint with shape {p.shape}')
        p._load_init(have[k].data(), ctx)
    net.weights = w
    return net


# -- tokenizers ---------------------------------------------------------------------------------------------------
class BERTTokenizer:
    """GluonNLP's BERTTokenizer over a vocabulary: `tokenizer(text)` -> WordPiece tokens (no [CLS]/[SEP]),
    `convert_tokens_to_ids(tokens)`, `is_first_subword(token)`, and `encode(text, pair=None)` -> the ids with
    [CLS]/[SEP] (a BERT vocabulary's; gluonzoo's addition). As GluonNLP's, any Vocab with an unknown token splits
    text. The work is done by the HF tokenizer gluonzoo wraps (gluonzoo.text.tokenizers.WordPieceTokenizer) over
    the vocabulary's tokens in index order, so its ids are the vocabulary's."""
    _special_prefix = '##'

    def __init__(self, vocab, lower=True, max_input_chars_per_word=200):
        from .tokenizers import WordPieceTokenizer
        if getattr(vocab, 'unknown_token', None) is None:
            raise BadInputError('BERTTokenizer needs a vocabulary with an unknown token (WordPiece gives it for a word '
                                'it cannot split): build the Vocab with unknown_token=\'[UNK]\'')
        self.vocab, self.lower, self.max_input_chars_per_word = vocab, lower, max_input_chars_per_word
        self._wp = WordPieceTokenizer.from_vocab(vocab, lowercase=lower, max_chars_per_word=max_input_chars_per_word)
        moved = [t for i, t in enumerate(vocab.idx_to_token) if self._wp.token_to_id(t) != i]
        if moved:  # a token with a line break or surrounding spaces cannot be a line of vocab.txt
            raise BadInputError(f'the vocabulary holds {len(moved)} token(s) WordPiece cannot keep at their index, '
                                f'e.g. {moved[0]!r}')

    def __call__(self, text):
        from .tokenizers import _text
        return self._wp._tok.encode(_text(text), add_special_tokens=False).tokens

    def convert_tokens_to_ids(self, tokens):
        return self.vocab[tokens]

    @staticmethod
    def is_first_subword(token):
        """Whether `token` starts a word (is not a '##' continuation piece)."""
        return not token.startswith(BERTTokenizer._special_prefix)

    def encode(self, text, pair=None):
        if None in (self._wp.specials['cls_token'], self._wp.specials['sep_token']):
            raise BadInputError('encode() adds [CLS] and [SEP], which this vocabulary does not name (cls_token, '
                                'sep_token): use a text.vocab.BERTVocab, or vocab[tokenizer(text)] for the bare ids')
        return self._wp.encode(text, pair)


def get_tokenizer(model_name, dataset_name, vocab=None, root=None, **kwargs):
    """GluonNLP's `nlp.data.get_tokenizer` for the WordPiece (BERT, ERNIE) checkpoints: a BERTTokenizer over the
    dataset's vocabulary (or `vocab`), lowercasing when the checkpoint is uncased."""
    from .models._gluonnlp import dataset_of, load_vocab
    from .vocab import BERTVocab
    entry = get_entry(model_name)
    records = {dataset_of(w): w for w in entry.weights.values() if dataset_of(w)}
    w = records.get(dataset_name)
    if w is None or 'lowercase' not in w.preprocess:
        known = sorted(d for d, r in records.items() if 'lowercase' in r.preprocess)
        raise BadInputError(f'no WordPiece tokenizer for {entry.name} with dataset_name={dataset_name!r}; valid '
                            f'dataset names: {", ".join(known) or "none (its tokenizer is not a WordPiece one)"}')
    if vocab is None:
        vocab = load_vocab(dataset_name, root, BERTVocab)
    kwargs.setdefault('lower', w.preprocess['lowercase'])
    return BERTTokenizer(vocab, **kwargs)


# -- GluonNLP's builder functions ---------------------------------------------------------------------------------
#: the builders of GluonNLP 0.10's model zoo (nlp.model.<name>), each get_model(<name>, ...) under its name
BUILDERS = ('awd_lstm_lm_1150', 'awd_lstm_lm_600', 'bert_12_768_12', 'bert_24_1024_16', 'big_rnn_lm_2048_512',
            'distilbert_6_768_12', 'elmo_2x1024_128_2048cnn_1xhighway', 'elmo_2x2048_256_2048cnn_1xhighway',
            'elmo_2x4096_512_2048cnn_2xhighway', 'ernie_12_768_12', 'roberta_12_768_12', 'roberta_24_1024_16',
            'standard_lstm_lm_1500', 'standard_lstm_lm_200', 'standard_lstm_lm_650', 'transformer_en_de_512')
# GluonNLP's BERT-family builders load a checkpoint unless told not to; its language-model, ELMo and Transformer
# builders build random weights unless told to (get_model itself defaults to pretrained=True for all)
_PRETRAINED_BY_DEFAULT = ('bert_', 'ernie_', 'roberta_', 'distilbert_')


def builder(name):
    """GluonNLP's `name(dataset_name=None, vocab=None, pretrained=..., ctx=None, root=None, **kwargs)`."""
    default = name.startswith(_PRETRAINED_BY_DEFAULT)

    def build(dataset_name=None, vocab=None, pretrained=default, ctx=None, root=None, **kwargs):
        return get_model(name, dataset_name=dataset_name, pretrained=pretrained, vocab=vocab, ctx=ctx, root=root,
                         **kwargs)
    build.__name__ = build.__qualname__ = name
    build.__doc__ = (f"GluonNLP's `{name}`: get_model({name!r}, dataset_name=..., pretrained=..., vocab=...) -> "
                     f'(model, vocab) ((model, src_vocab, tgt_vocab) for the Transformer); pretrained defaults to '
                     f'{default}, as there.')
    return build


def list_models():
    """GluonNLP's builder names (what nlp.model.get_model builds)."""
    return list(BUILDERS)


for _name in BUILDERS:
    globals()[_name] = builder(_name)
del _name
