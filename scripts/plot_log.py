"""Draw the curves of gluonzoo training logs (JSON lines) to a PNG: training loss and every eval metric by epoch.

    python scripts/plot_log.py logs/cifar_resnet20_v1.fmnist.jsonl -o out/fmnist.png

Several logs go on the same axes (one line each, labelled by file name).
"""
import argparse
import os
import sys


def plot(paths, out):
    import matplotlib
    matplotlib.use('Agg')  # files only, no display
    import matplotlib.pyplot as plt

    from gluonzoo.logs import read_log
    logs = [read_log(p) for p in paths]  # all are checked before anything is drawn
    metrics = sorted({k for log in logs for r in log.epochs for k in r.get('eval', {})})
    keys = ['train.loss'] + [f'eval.{m}' for m in metrics] + ['lr']
    fig, axes = plt.subplots(1, len(keys), figsize=(4 * len(keys), 3.2), squeeze=False)
    for ax, key in zip(axes[0], keys):
        for log in logs:
            points = log.curve(key)
            if points:
                ax.plot(*zip(*points), marker='o', label=os.path.basename(log.path))
        ax.set_title(key)
        ax.set_xlabel('epoch')
        ax.grid(alpha=0.3)
    axes[0][0].legend(fontsize=7)
    fig.tight_layout()
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    fig.savefig(out, dpi=100)
    plt.close(fig)
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('logs', nargs='+')
    p.add_argument('-o', '--out', required=True, help='PNG file to write')
    args = p.parse_args(argv)
    from gluonzoo.errors import GluonzooError
    try:
        print(plot(args.logs, args.out))
    except GluonzooError as e:
        print(f'plot_log.py: error: {e}', file=sys.stderr)
        return 2
    return 0


if __name__ == '__main__':
    sys.exit(main())
