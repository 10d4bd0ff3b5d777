"""GluonNLP 0.10's GPT2BPETokenizer and GPT2BPEDetokenizer (gluonnlp.data.transforms): OpenAI GPT-2's byte-level
BPE, the merge ranks from the file GluonNLP hosts at $MXNET_GLUON_REPO/gluon/dataset/vocab/ (fetched into
$MXNET_HOME/models by text/data/hosted.py), the splitting and merging done by HF `tokenizers` (its ByteLevel
pre-tokenizer is GPT-2's regex and byte-to-unicode table, its BPE model merges by rank as GluonNLP does).

GPT2BPETokenizer()(text) -> the subword strings (bytes shown as GPT-2's printable characters, 'Ġ' a space);
GPT2BPEDetokenizer()(subwords) -> the text.
"""
import io
import os

from . import hosted

__all__ = ['GPT2BPETokenizer', 'GPT2BPEDetokenizer']


class GPT2BPETokenizer:
    """GPT-2's BPE tokenizer. root: where the BPE rank file is kept, default $MXNET_HOME/models."""
    bpe_ranks_file_hash = ('openai_webtext_bpe_ranks-396d4d8e.json', '396d4d8ec90cb02f4d56e049e0e4add868bcd943')
    bpe_ranks_archive_hash = ('openai_webtext_bpe_ranks-396d4d8e.zip', '1a770728fd102bc9dc332f322e6bfb294767a685')

    def __init__(self, root=os.path.join(hosted.home_dir(), 'models')):
        root = os.path.expanduser(root)
        name, sha1 = self.bpe_ranks_file_hash
        hosted.fetch(hosted.repo_file_url('gluon/dataset/vocab', self.bpe_ranks_archive_hash[0]), root,
                     tuple(self.bpe_ranks_archive_hash), {name: sha1}, what='GPT2BPETokenizer')
        self._read_bpe_ranks(os.path.join(root, name))

    def _read_bpe_ranks(self, file_path):
        from tokenizers import Tokenizer, models, pre_tokenizers
        with io.open(file_path, 'r', encoding='utf-8') as f:
            lines = f.read().split('\n')[1:-1]  # a '#version' line first, a newline last
        merges = [tuple(line.split()) for line in lines]
        self._bpe_ranks = {m: i for i, m in enumerate(merges)}
        vocab = {}
        for c in pre_tokenizers.ByteLevel.alphabet():  # GPT-2's 256 printable stand-ins for the bytes
            vocab.setdefault(c, len(vocab))
        for a, b in merges:  # HF's BPE wants every part in its vocab; the ids are not used
            for token in (a, b, a + b):
                vocab.setdefault(token, len(vocab))
        tok = Tokenizer(models.BPE(vocab=vocab, merges=merges))
        tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
        self._tok = tok

    def __call__(self, sample):
        """The BPE subwords (list of str) of text `sample`."""
        return list(self._tok.encode(sample, add_special_tokens=False).tokens) if sample else []


class GPT2BPEDetokenizer:
    """GPT-2's BPE detokenizer: subwords -> text (bytes that are not utf-8 become U+FFFD), by HF's ByteLevel
    decoder."""

    def __init__(self):
        from tokenizers import decoders
        self._decoder = decoders.ByteLevel()

    def __call__(self, sample):
        return self._decoder.decode(list(sample))
