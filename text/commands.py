"""The `gluonzoo` subcommands of the text tasks (registered in text/tasks.py)."""
import numpy as np


def embed(args):
    """`gluonzoo embed NAME TEXT...`: sentence embeddings; with two or more texts, their cosine similarity matrix."""
    from ..cli import table
    from .embedding import cosine_matrix, embed as embed_texts
    vecs = embed_texts(args.name, args.texts)
    np.set_printoptions(precision=4, suppress=True, linewidth=120)
    if len(args.texts) == 1 or args.vectors:
        for text, v in zip(args.texts, vecs):
            print(f'{text!r}: {np.array2string(v, max_line_width=10**6)}')
    if len(args.texts) > 1:
        sims = cosine_matrix(vecs)
        print(table([[f'[{i}]'] + [f'{x:.4f}' for x in row] for i, row in enumerate(sims)],
                    [''] + [f'[{i}]' for i in range(len(sims))]))
        for i, text in enumerate(args.texts):
            print(f'[{i}] {text}')
    return 0
