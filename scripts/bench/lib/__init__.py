"""What the benchmark scripts share (a package, so `make bench`'s scripts/bench/*.py loop does not run it)."""


def timing_parser(doc, models, batches='1,16', rounds=3):
    """The argparse parser of a timing benchmark: --models, --batches, --seconds, --rounds, --out."""
    import argparse
    p = argparse.ArgumentParser(description=doc.splitlines()[0])
    p.add_argument('--models', default=','.join(models))
    p.add_argument('--batches', default=batches)
    p.add_argument('--seconds', type=float, default=3.0, help='timing per figure, all rounds together')
    p.add_argument('--rounds', type=int, default=rounds)
    p.add_argument('--out', help='write the markdown report here')
    return p
