"""BERT-base (bert_12_768_12) forward throughput at batch 8, sequence 128: hybridized vs imperative, one run.

Random weights (throughput does not depend on them), CPU, MXNet's default threads unless OMP_NUM_THREADS is set.
    python scripts/bench/text_bert.py [--iters 5] [--batch 8] [--length 128]
"""
import argparse
import os
import time


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--iters', type=int, default=5)
    ap.add_argument('--batch', type=int, default=8)
    ap.add_argument('--length', type=int, default=128)
    ap.add_argument('--model', default='bert_12_768_12')
    args = ap.parse_args()

    import mxnet as mx
    import gluonzoo as gz

    mx.random.seed(0)
    ids = mx.nd.random.randint(0, 30522, shape=(args.batch, args.length)).astype('float32')
    types = mx.nd.zeros((args.batch, args.length))
    valid = mx.nd.full((args.batch,), args.length)
    rates = {}
    for mode in ('imperative', 'hybridized'):
        net = gz.get_model(args.model, use_decoder=False, use_classifier=False)
        net.initialize()
        if mode == 'hybridized':
            net.hybridize(static_alloc=True, static_shape=True)
        for _ in range(2):  # warm-up (and graph build)
            net(ids, types, valid)[0].wait_to_read()
        t0 = time.perf_counter()
        for _ in range(args.iters):
            net(ids, types, valid)[0].wait_to_read()
        rates[mode] = args.iters * args.batch / (time.perf_counter() - t0)
    print(f'{args.model} batch {args.batch} x {args.length} tokens, {args.iters} iterations, '
          f'{os.cpu_count()} CPUs, OMP_NUM_THREADS={os.environ.get("OMP_NUM_THREADS", "default")}')
    for mode, r in rates.items():
        print(f'{mode:>11}: {r:7.2f} seq/s')
    print(f'hybridized / imperative: {rates["hybridized"] / rates["imperative"]:.2f}x')


if __name__ == '__main__':
    main()
