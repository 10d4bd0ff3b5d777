"""report.py's output: the markdown report, its targets (issue 14) and the bar chart, all from one run's results."""
from report import LABEL, LABELS, ORT_TARGETS, VARIANTS

ISA_NAMES = ['avx512f', 'avx512_vnni', 'avx512_bf16', 'amx']
# BERT-base's encoder, one sequence of 128 tokens: 2 x multiply-adds of its 12 layers' dense products (q, k, v, out:
# 4 x 768^2; feed-forward: 2 x 768 x 3072 a token) and attention products (QK^T and AV: 2 x 128^2 x 768)
BERT_GFLOP = 2 * 12 * (128 * (4 * 768 ** 2 + 2 * 768 * 3072) + 2 * 128 ** 2 * 768) / 1e9


def verdict(value, need):
    return 'MET' if value >= need else f'MISSED BY {100 * (1 - value / need):.0f}%'


def rate(results, model, batch, variant):
    return results['models'].get(model, {}).get('rates', {}).get(batch, {}).get(variant)


def targets(results):
    """[(verdict, text)] for each target of issue 14; 'NOT MEASURED' where this run lacks a figure."""
    m, out = results['machine'], []
    models = results['models']

    def line(name, value, need, figures, why, missing):
        if value is None:
            out.append(('NOT MEASURED', f'{name}: {missing}'))
        else:
            v = verdict(value, need)
            out.append((v, f'{name}: {figures}' + ('' if v == 'MET' else f'. Why: {why}')))

    r50 = models.get('resnet50_v1', {})
    o16, gflops = rate(results, 'resnet50_v1', 16, 'optimized'), r50.get('notes', {}).get('gflops')
    frac = o16 * gflops / m['sgemm'] if o16 and gflops else None
    line('optimized ResNet-50 at batch 16 >= 90% of the sgemm ceiling', frac, 0.9,
         f'{o16 or 0:.1f} img/s x {gflops or 0:.2f} GFLOP = {(o16 or 0) * (gflops or 0):.0f} GFLOP/s = '
         f'{100 * (frac or 0):.0f}% of {m["sgemm"]:.0f}',
         "the fraction counts only conv/dense FLOPs, so pooling, residual adds and oneDNN's layout reorders lower it, "
         'and small convs (the 7x7-spatial last stage, strided 1x1s) likely reach less of the FMA rate than a square '
         'sgemm', 'not measured at batch 16 (resnet50_v1 with batch 16 not in this run)')
    for b in (1, 16):
        o, g, p = (rate(results, 'mobilenetv2_1.0', b, v) for v in ('optimized', 'peer', 'plain'))
        line(f'optimized MobileNetV2 at batch {b} >= 3x GluonCV', o / g if o and g else None, 3.0,
             f'{o or 0:.1f} vs {g or 0:.1f} img/s = {(o or 0) / (g or 1):.2f}x',
             f'our plain graph is {(p or 0) / (g or 1):.2f}x GluonCV (the same MXNet ops) and gz.optimize\'s fusion '
             f'{(o or 0) / (p or 1):.2f}x that: the ratio is what fusing conv + BatchNorm + ReLU6 saves at batch {b}',
             'not measured (mobilenetv2_1.0 at this batch)')
    for b in (1, 16):
        q, o = rate(results, 'resnet50_v1', b, 'int8'), rate(results, 'resnet50_v1', b, 'optimized')
        line(f'INT8 ResNet-50 at batch {b} >= 2x our fp32 optimized', q / o if q and o else None, 2.0,
             f'{q or 0:.1f} vs {o or 0:.1f} img/s = {(q or 0) / (o or 1):.2f}x',
             'VNNI doubles the multiply rate of the convs at most; quantize/dequantize at fp32 boundaries (pooling, '
             f'the residual adds) and memory traffic stay (ISA here: {", ".join(m["flags"]) or "none listed"})',
             'not measured (resnet50_v1 INT8 at this batch)')
    for model in ORT_TARGETS:
        for b in (1, 16):
            ours, theirs = (rate(results, model, b, v) for v in ('ort_ours', 'ort_torch'))
            line(f'ONNX Runtime on our {model} export at batch {b} >= 1.0x on PyTorch\'s',
                 ours / theirs if ours and theirs else None, 1.0,
                 f'{ours or 0:.1f} vs {theirs or 0:.1f} img/s = {(ours or 0) / (theirs or 1):.2f}x',
                 ort_why(models.get(model, {}), b),
                 'not measured (an export or the model at this batch is missing from this run)')
    for b in sorted(models.get('bert_12_768_12', {}).get('rates', {})) or [1]:
        o, t, p = (rate(results, 'bert_12_768_12', b, v) for v in ('optimized', 'torch', 'plain'))
        line(f'optimized BERT-base at batch {b} >= 1.5x PyTorch\'s TransformerEncoder fast path',
             o / t if o and t else None, 1.5, f'{o or 0:.2f} vs {t or 0:.2f} seq/s = {(o or 0) / (t or 1):.2f}x',
             f'gz.optimize gives {(o or 0) / (p or 1):.2f}x our plain graph, and PyTorch already runs the encoder\'s '
             f'matrix products ({BERT_GFLOP:.1f} GFLOP a sequence) at {(t or 0) * BERT_GFLOP:.0f} GFLOP/s = '
             f'{100 * (t or 0) * BERT_GFLOP / m["sgemm"]:.0f}% of the sgemm ceiling: 1.5x that would be '
             f'{150 * (t or 0) * BERT_GFLOP / m["sgemm"]:.0f}%',
             'not measured (bert_12_768_12 not in this run)')
    pipe, why = results['pipeline']
    ratio = pipeline_ratio(pipe)
    line(f'input pipeline >= 3x mx.image ({(pipe or {}).get("headline_mode", "its headline mode")})', ratio, 3.0,
         f'gluonzoo / mx.image = {ratio or 0:.2f}x (scripts/bench/input_pipeline.py)', pipeline_why(pipe),
         why or 'its JSON has no ratio against mx.image')
    return out


def pipeline_ratio(pipe):
    """Ours over mx.image from input_pipeline.py's JSON: a top-level 'ratio_vs_mx_image' (or similar), else the
    one-thread img/s of 'gluonzoo' over 'mx.image'."""
    if not isinstance(pipe, dict):
        return None
    for k, v in pipe.items():
        if 'ratio' in k and 'mx' in k and isinstance(v, (int, float)):
            return float(v)
    flat = dict(_leaves(pipe))
    ours = [v for k, v in flat.items() if ('gluonzoo' in k or 'opencv' in k) and 'worker' not in k]
    base = [v for k, v in flat.items() if ('mx.image' in k or 'mx_image' in k) and 'worker' not in k]
    return ours[0] / base[0] if ours and base and base[0] else None


def pipeline_lines(pipe):
    """input_pipeline.py's JSON as tables: img/s per variant and mode, the ratios, the stage times."""
    variants = pipe.get('variants')
    if not isinstance(variants, dict):
        return ['| figure | value |', '|---|---|'] + [f'| {k} | {x:.4g} |' for k, x in _leaves(pipe)]
    modes = list(dict.fromkeys(m for v in variants.values() for m in v))
    lines = ['From `scripts/bench/input_pipeline.py --json` (run by this report), images/s:', '',
             '| pipeline | ' + ' | '.join(modes) + ' |', '|---|' + '---|' * len(modes)]
    lines += [f'| {name} | ' + ' | '.join(f'{v.get(m, 0):.1f}' for m in modes) + ' |' for name, v in variants.items()]
    lines += ['', '- ratios: ' + ', '.join(f'{k} {x:.2f}x' for k, x in _leaves(pipe.get('ratios', {})))]
    lines += [f'- stages of {name}, ms an image: ' + ', '.join(f'{k} {x:.2f}' for k, x in stages.items())
              for name, stages in (pipe.get('stages_ms') or {}).items()]
    return lines


def pipeline_why(pipe):
    """Where the time goes, from input_pipeline.py's stage times: decoding bounds the ratio."""
    stages = (pipe or {}).get('stages_ms') or {}
    decode = {k: sum(x for s, x in v.items() if 'decode' in s) for k, v in stages.items()}
    total = {k: sum(v.values()) for k, v in stages.items()}
    parts = [f'{k} spends {decode[k]:.1f} of {total[k]:.1f} ms an image decoding the JPEG' for k in stages]
    if 'gluonzoo' in decode and 'mximage' in total and decode['gluonzoo']:
        parts.append(f'the stages alone add up to {total["mximage"] / total["gluonzoo"]:.2f}x mx.image, and with '
                     f'every stage but the decoding free ours would be at most '
                     f'{total["mximage"] / decode["gluonzoo"]:.1f}x; the whole pipelines measure less than the '
                     f'stage sums (the transform chain\'s per-image calls and allocations)')
    return '; '.join(parts) or 'input_pipeline.py gave no stage times'


def _leaves(d, prefix=''):
    for k, v in d.items():
        if isinstance(v, dict):
            yield from _leaves(v, f'{prefix}{k}.')
        elif isinstance(v, (int, float)) and not isinstance(v, bool):
            yield f'{prefix}{k}', v


def model_table(results, model):
    """Markdown rows: one a variant, items/s and ratios at each batch size."""
    r = results['models'][model]
    batches, bert = sorted(r['rates']), model == 'bert_12_768_12'
    head = ['variant'] + [f'b{b} {c}' for b in batches for c in ('items/s', 'x plain', 'x GluonNLP' if bert else
                                                                   'x GluonCV', 'x PyTorch' if bert else
                                                                   'x ORT-PyTorch')]
    rows = ['| ' + ' | '.join(head) + ' |', '|' + '---|' * len(head)]
    for v, _, label in VARIANTS:
        if not any(v in r['rates'][b] for b in batches):
            continue
        cells = [label]
        for b in batches:
            got = r['rates'][b]
            x = got.get(v)
            ref = 'torch' if bert else 'ort_torch'
            cells += [f'{x:.1f}' if x else '-'] + [f'{x / got[k]:.2f}x' if x and got.get(k) else '-'
                                                  for k in ('plain', 'peer', ref)]
        rows.append('| ' + ' | '.join(cells) + ' |')
    return rows


def ort_why(model, batch):
    """Why ONNX Runtime runs our file slower than PyTorch's, from ORT's profiler on both in this run."""
    nodes, prof = model.get('nodes', {}), model.get('profiles', {}).get(batch)
    graphs = (f'our graph has {nodes.get("ort_ours", "?")} nodes, PyTorch\'s {nodes.get("ort_torch", "?")} '
              '(before ORT\'s own fusions)')
    if not prof:
        return f'not profiled in this run; {graphs}'
    o, t = prof['ort_ours'], prof['ort_torch']
    ops = sorted(set(o['by_op']) | set(t['by_op']), key=lambda k: -max(o['by_op'].get(k, 0), t['by_op'].get(k, 0)))
    split = ', '.join(f'{k} {o["by_op"].get(k, 0):.2f} vs {t["by_op"].get(k, 0):.2f}' for k in ops[:3])
    return (f'ORT\'s profiler, ms of the fastest of {o.get("calls", "?")} calls, ours vs PyTorch\'s: in its kernels '
            f'{o["kernel_ms"]:.2f} vs {t["kernel_ms"]:.2f} ({split}), the whole run {o["run_ms"]:.2f} vs '
            f'{t["run_ms"]:.2f}; {graphs}. '
            + ('ORT\'s own timing of a call is no slower on ours either, so the gap lies in the wall-clock windows '
               '(noise between them), not in the graph' if o['run_ms'] <= t['run_ms'] else
               'Our kernels take no longer; the run loses its time between them (thread hand-offs, memory)'
               if o['kernel_ms'] <= t['kernel_ms'] else 'Our kernels take longer: the operators above say where'))


def others(m):
    """The share of the cores' time that processes other than this run's took while it ran, or None."""
    if not (m.get('cpu_before') and m.get('cpu_after')):
        return None
    (all0, own0), (all1, own1) = m['cpu_before'], m['cpu_after']
    return max(0.0, (all1 - all0) - (own1 - own0)) / (m['seconds'] * m['cores'])


def other_cpu(m):
    share = others(m)
    return 'not measured (no /proc/stat)' if share is None else f'{share:.1%} of the {m["cores"]} cores\' time'


def busy(m):
    """A warning when other processes took over 5% of the cores' time during the run: the load average cannot tell
    (before, it still decays from work that has just ended; after, it counts this run's own threads)."""
    return (f' (**busy**: other work shared the {m["cores"]} cores, so these figures are noisy; rerun on a quiet '
            'machine)' if (others(m) or 0) > 0.05 else '')


def write_report(results, args, chart_rel):
    m = results['machine']
    when = m['started'].strftime('%Y-%m-%d %H:%M UTC')
    cmd = 'python scripts/bench/report.py ' + ' '.join(
        [f'--models {",".join(args.models)}', f'--seconds {args.seconds:g}', f'--rounds {args.rounds}']
        + (['--quick'] if args.quick else []))
    v = m['versions']
    lines = ['# Benchmarks', '',
             f'Written by `make bench` (`{cmd}`) on {when}, in {m["seconds"] / 60:.1f} minutes; every figure below '
             'comes from that one run. Weights are random (speed does not depend on their values); every side gets '
             'the same seeded input. Each figure is the best of '
             f'{args.rounds} windows of {args.seconds / args.rounds:.2f} s, the variants alternating window by '
             'window in a rotating order, each side (gluonzoo, GluonCV/GluonNLP, PyTorch, ONNX Runtime) in its own '
             'process (two OpenMP runtimes in one process slow each other down), all with the same thread count.',
             '', '## Machine', '', '| | |', '|---|---|',
             f'| CPU | {m["cpu"]} |', f'| ISA flags | {", ".join(m["flags"]) or "none of " + "/".join(ISA_NAMES)} |',
             f'| cores visible | {m["cores"]} |', f'| OMP_NUM_THREADS | {m["omp"]} (threads used: {m["threads"]}) |',
             f'| load average before / after | {m["load_before"]} / {m["load_after"]} (for reference: before, it '
             'decays from work just ended; after, it counts this run\'s own threads) |',
             f'| CPU taken by other processes during the run | {other_cpu(m)}{busy(m)} |',
             f'| versions | mxnet {v["mxnet"]}, onnxruntime {v["onnxruntime"]}, torch {v["torch"]}, torchvision '
             f'{v["torchvision"]}, onnx {v["onnx"]} |',
             f'| sgemm ceiling (oneDNN) | {m["sgemm"]:.1f} GFLOP/s: `mx.nd.FullyConnected` 2048 x 2048 x 2048 float32, '
             'best of 3 windows, before and after the models |',
             f'| mx.nd.dot 2048^3 | {m["sgemm_dot"]:.1f} GFLOP/s (OpenBLAS in this MXNet build, OPENBLAS_CORETYPE='
             f'{m["openblas"]}; for reference, not the ceiling) |', '', '## Throughput', '',
             'items/s (images, or sequences of 128 tokens for BERT) and ratios against gluonzoo plain, GluonCV / '
             "GluonNLP and ONNX Runtime on PyTorch's export (for BERT: PyTorch's `nn.TransformerEncoder` of BERT-base "
             'shape, 12 layers, d 768, 12 heads, ff 3072, gelu, batch_first, eval + inference_mode: its fast path; '
             "it has no embedding or pooler, ours and GluonNLP's have both). Batch sizes: "
             + '; '.join(f'{LABELS[k]} {", ".join(map(str, sorted(r["rates"])))}' for k, r in results['models'].items())
             + ' (BERT stops at 8 by default: a call at 16 x 128 takes long windows). Our ONNX export is '
             "`gz.export` (opset 13; its QDQ INT8 file calibrated on the same pictures as gz.quantize); PyTorch's "
             f"is `torch.onnx.export` (TorchScript exporter, opset 17) of torchvision {v['torchvision']}'s resnet50 / "
             'mobilenet_v2.',
             '', f'![items/s relative to gluonzoo plain]({chart_rel})', '']
    for model in results['models']:
        r = results['models'][model]
        lines += [f'### {LABELS[model]}', ''] + model_table(results, model) + ['']
        for key, why in sorted(r['skipped'].items()):
            lines.append(f'- {LABEL.get(key, key)}: not measured: {why}')
        if 'optimized' in r['notes']:
            lines.append(f'- gluonzoo optimized: {r["notes"]["optimized"]}')
        if 'calib' in r['notes']:
            lines.append(f'- INT8 (both) calibrated on {r["notes"]["calib"]}, naive (min/max) calibration, every conv '
                         'and dense layer in INT8; accuracy is not measured here (docs/vision.md "INT8")')
        lines.append('')
    lines += ['## ResNet-50 against the sgemm ceiling', '']
    r50 = results['models'].get('resnet50_v1', {})
    o16, gflops = rate(results, 'resnet50_v1', 16, 'optimized'), r50.get('notes', {}).get('gflops')
    if o16 and gflops:
        lines.append(f'FLOPs per image: {gflops:.3f} GFLOP = 2 x {gflops / 2:.3f} G multiply-adds, counted by forward '
                     "hooks on every Conv2D and Dense of gluonzoo's resnet50_v1 at 224x224 "
                     '(`conv_dense_flops` in scripts/bench/vision_models.py; batch norm, pooling, adds not counted). '
                     f'Optimized at batch 16: {o16:.1f} img/s x {gflops:.3f} = {o16 * gflops:.0f} GFLOP/s = '
                     f'**{100 * o16 * gflops / m["sgemm"]:.0f}%** of the {m["sgemm"]:.0f} GFLOP/s ceiling.')
    else:
        lines.append('Not measured: this run has no optimized resnet50_v1 at batch 16.')
    pipe, why = results['pipeline']
    lines += ['', '## Input pipeline', ''] + (pipeline_lines(pipe) if pipe else [f'{why[0].upper()}{why[1:]}.'])
    lines += ['', '## Targets', '', 'Issue 14\'s targets, judged on the figures above.', '']
    lines += [f'- **{v}**: {text}' for v, text in targets(results)]
    return '\n'.join(lines) + '\n'


def chart(results, path):
    """Horizontal bars: each variant's items/s over gluonzoo plain's; a row of panels a model, a column a batch size."""
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    models = results['models']
    cols = max([len(r['rates']) for r in models.values()] + [1])
    fig, axes = plt.subplots(max(len(models), 1), cols, figsize=(6.5 * cols, 0.5 + 2.6 * max(len(models), 1)),
                             squeeze=False)
    for row, (model, r) in zip(axes, models.items()):
        for ax, b in zip(row, sorted(r['rates'])):
            got = r['rates'][b]
            names = [v for v, _, _ in VARIANTS if v in got][::-1]
            base = got.get('plain') or 1.0
            ax.barh([LABEL[v] for v in names], [got[v] / base for v in names], color='tab:blue')
            for i, v in enumerate(names):
                ax.text(got[v] / base, i, f' {got[v]:.1f}/s', va='center', fontsize=7)
            ax.set_xlim(0, 1.25 * max([got[v] / base for v in names] + [1.0]))
            ax.axvline(1.0, color='grey', lw=0.8)
            ax.set_title(f'{LABELS[model]}, batch {b}', fontsize=9)
            ax.tick_params(labelsize=7)
            ax.set_xlabel('x gluonzoo plain (higher is faster)', fontsize=7)
    for ax in axes.flat:
        if not ax.has_data():
            ax.set_visible(False)
    m = results['machine']
    fig.suptitle(f'gluonzoo benchmarks, {m["started"]:%Y-%m-%d}: {m["cpu"]}, {m["threads"]} threads', fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 0.97))
    fig.savefig(path, format='png', dpi=100)
    plt.close(fig)
