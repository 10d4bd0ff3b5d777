"""Intrinsic evaluation of word embeddings (GluonNLP 0.10's gluonnlp.embedding.evaluation): similarity of word
pairs and word analogies (a : b :: c : ?) over an idx_to_vec matrix, as Gluon HybridBlocks on index arrays.

    >>> import mxnet as mx
    >>> sim = WordEmbeddingSimilarity(mx.nd.array([[1, 0], [0, 1], [1, 1]]))   # three 2-d word vectors
    >>> sim.initialize()
    >>> sim(mx.nd.array([0, 0]), mx.nd.array([1, 2])).asnumpy().round(4)     # one cosine per pair
    array([0.    , 0.7071], dtype=float32)
"""
from mxnet import nd
from mxnet.gluon import HybridBlock

from ..errors import BadInputError


class _EvaluationFunction(HybridBlock):
    """Base of the similarity and analogy functions."""


class WordEmbeddingSimilarityFunction(_EvaluationFunction):
    """Base class for word embedding similarity functions: (x, y) rows -> one score per row."""


class WordEmbeddingAnalogyFunction(_EvaluationFunction):
    """Base class for word embedding analogy functions: (words1, words2, words3) -> top-k word indices."""


_KINDS = {'similarity': WordEmbeddingSimilarityFunction, 'analogy': WordEmbeddingAnalogyFunction}
_REGISTRY = {'similarity': {}, 'analogy': {}}


def _kind_of(cls):
    for kind, base in _KINDS.items():
        if isinstance(cls, type) and issubclass(cls, base):
            return kind
    return None


def register(class_):
    """Register a WordEmbeddingSimilarityFunction or WordEmbeddingAnalogyFunction subclass (a decorator)."""
    kind = _kind_of(class_)
    if kind is None:
        raise RuntimeError('The custom function must either subclass WordEmbeddingSimilarityFunction or '
                           'WordEmbeddingAnalogyFunction')
    _REGISTRY[kind][class_.__name__.lower()] = class_
    return class_


def create(kind, name, **kwargs):
    """An instance of the registered evaluation function `name` of `kind` ('similarity' or 'analogy')."""
    if kind not in _KINDS:
        raise KeyError(f'Cannot find `kind` {kind}: use one of {sorted(_KINDS)}')
    if isinstance(name, str) and name.lower() in _REGISTRY[kind]:
        return _REGISTRY[kind][name.lower()](**kwargs)
    raise ValueError(f'Cannot find word embedding {kind} evaluation function {name!r}: use one of '
                     f'{sorted(_REGISTRY[kind])}')


def list_evaluation_functions(kind=None):
    """The registered names of `kind`, or {kind: [names]} for every kind."""
    if kind is None:
        kind = tuple(_KINDS)
    if isinstance(kind, tuple):
        return {k: list_evaluation_functions(k) for k in kind}
    if kind not in _KINDS:
        raise KeyError(f'Cannot find `kind` {kind}: use one of {sorted(_KINDS)}')
    return list(_REGISTRY[kind])


@register
class CosineSimilarity(WordEmbeddingSimilarityFunction):
    """Cosine of each row pair of x and y (both (N, dim)), with `eps` guarding zero vectors."""

    def __init__(self, eps=1e-10, **kwargs):
        super().__init__(**kwargs)
        self.eps = eps

    def hybrid_forward(self, F, x, y):  # pylint: disable=arguments-differ
        xn = F.L2Normalization(x, eps=self.eps)
        yn = F.L2Normalization(y, eps=self.eps)
        return F.sum(xn * yn, axis=-1).reshape((-1,))


def _unit_rows(idx_to_vec, eps):
    return nd.L2Normalization(idx_to_vec, eps=eps)


class _Analogy(WordEmbeddingAnalogyFunction):
    def _setup(self, idx_to_vec, k, eps, exclude_question_words, normalize):
        self.k = k
        self.eps = eps
        self._exclude_question_words = exclude_question_words
        self._vocab_size, self._embed_size = idx_to_vec.shape
        with self.name_scope():
            self.weight = self.params.get_constant('weight', _unit_rows(idx_to_vec, eps) if normalize
                                                   else idx_to_vec)

    def _scores_to_top(self, F, score, words1, words2, words3):
        if self._exclude_question_words:
            for w in (words1, words2, words3):
                score = score * F.one_hot(w, self._vocab_size, 0, 1)  # 0 at the question's words
        return F.topk(score, k=self.k)

    def _cosines(self, F, words, weight):
        rows = F.Embedding(words, weight, input_dim=self._vocab_size, output_dim=self._embed_size)
        return F.FullyConnected(rows, weight, no_bias=True, num_hidden=self._vocab_size, flatten=False)


@register
class ThreeCosMul(_Analogy):
    """3CosMul (Levy & Goldberg 2014): argmax_d cos'(d, b) cos'(d, c) / (cos'(d, a) + eps), cos' = (cos + 1) / 2."""

    def __init__(self, idx_to_vec, k=1, eps=1E-10, exclude_question_words=True, **kwargs):
        super().__init__(**kwargs)
        self._setup(idx_to_vec, k, eps, exclude_question_words, normalize=True)

    def hybrid_forward(self, F, words1, words2, words3, weight):  # pylint: disable=arguments-differ
        s1, s2, s3 = [(self._cosines(F, w, weight) + 1) / 2 for w in (words1, words2, words3)]
        return self._scores_to_top(F, (s2 * s3) / (s1 + self.eps), words1, words2, words3)


@register
class ThreeCosAdd(_Analogy):
    """3CosAdd: argmax_d cos(d, c - a + b) (on unit rows when `normalize`, else raw dot products)."""

    def __init__(self, idx_to_vec, normalize=True, k=1, eps=1E-10, exclude_question_words=True, **kwargs):
        super().__init__(**kwargs)
        self.normalize = normalize
        self._setup(idx_to_vec, k, eps, exclude_question_words, normalize=normalize)

    def hybrid_forward(self, F, words1, words2, words3, weight):  # pylint: disable=arguments-differ
        if self.normalize:
            s1, s2, s3 = [self._cosines(F, w, weight) for w in (words1, words2, words3)]
            score = s3 - s1 + s2
        else:
            e1, e2, e3 = [F.Embedding(w, weight, input_dim=self._vocab_size, output_dim=self._embed_size)
                          for w in (words1, words2, words3)]
            score = F.FullyConnected(e3 - e1 + e2, weight, no_bias=True, num_hidden=self._vocab_size,
                                     flatten=False)
        return self._scores_to_top(F, score, words1, words2, words3)


class WordEmbeddingSimilarity(HybridBlock):
    """Similarity of word pairs given as index arrays, over the rows of idx_to_vec."""

    def __init__(self, idx_to_vec, similarity_function='CosineSimilarity', eps=1e-10, **kwargs):
        super().__init__(**kwargs)
        self.eps = eps
        self._vocab_size, self._embed_size = idx_to_vec.shape
        with self.name_scope():
            self.weight = self.params.get_constant('weight', idx_to_vec)
            self.similarity = create(kind='similarity', name=similarity_function, eps=self.eps)
        if not isinstance(self.similarity, WordEmbeddingSimilarityFunction):
            raise BadInputError(f'{type(self.similarity).__name__} is not a WordEmbeddingSimilarityFunction')

    def hybrid_forward(self, F, words1, words2, weight):  # pylint: disable=arguments-differ
        e1 = F.Embedding(words1, weight, input_dim=self._vocab_size, output_dim=self._embed_size)
        e2 = F.Embedding(words2, weight, input_dim=self._vocab_size, output_dim=self._embed_size)
        return self.similarity(e1, e2)


class WordEmbeddingAnalogy(HybridBlock):
    """The k best answers d (indices) to a : b :: c : d for index arrays words1, words2, words3."""

    def __init__(self, idx_to_vec, analogy_function='ThreeCosMul', k=1, exclude_question_words=True, **kwargs):
        super().__init__(**kwargs)
        if k < 1:
            raise ValueError(f'k={k}: the number of answers must be at least 1')
        self.k = k
        self.exclude_question_words = exclude_question_words
        with self.name_scope():
            self.analogy = create(kind='analogy', name=analogy_function, idx_to_vec=idx_to_vec, k=self.k,
                                  exclude_question_words=exclude_question_words)
        if not isinstance(self.analogy, WordEmbeddingAnalogyFunction):
            raise BadInputError(f'{type(self.analogy).__name__} is not a WordEmbeddingAnalogyFunction')

    def hybrid_forward(self, F, words1, words2, words3):  # pylint: disable=arguments-differ
        return self.analogy(words1, words2, words3)
