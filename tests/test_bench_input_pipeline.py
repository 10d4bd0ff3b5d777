"""scripts/bench/input_pipeline.py --quick: the JSON scripts/bench/report.py reads has every figure, each measured
(positive), and gluonzoo's GluonCV-checkpoint pipeline gives MXNet's pixels (the comparison is like for like)."""
import json
import os
import subprocess
import sys

SCRIPT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'scripts', 'bench',
                      'input_pipeline.py')
VARIANTS = ('gluonzoo', 'gluonzoo_area', 'mximage', 'pillow')


def test_quick_run_writes_the_figures(tmp_path):
    out = tmp_path / 'pipeline.json'
    p = subprocess.run([sys.executable, SCRIPT, '--quick', '--json', str(out)], capture_output=True, text=True,
                       timeout=120, env=dict(os.environ))
    assert p.returncode == 0, p.stderr[-2000:]
    assert '| gluonzoo |' in p.stdout and 'gluonzoo / mx.image' in p.stdout
    result = json.loads(out.read_text())
    modes = result['modes']
    assert modes == ['one_thread', 'dataloader_2_workers'] and result['headline_mode'] in modes
    assert sorted(result['variants']) == sorted(VARIANTS)
    for name in VARIANTS:
        assert all(result['variants'][name][m] > 0 for m in modes), result['variants'][name]
    rates = result['variants']
    for mode in modes:
        ratios = result['ratios'][mode]
        assert abs(ratios['vs_mximage'] - rates['gluonzoo'][mode] / rates['mximage'][mode]) < 1e-9
        assert abs(ratios['vs_pillow'] - rates['gluonzoo'][mode] / rates['pillow'][mode]) < 1e-9
    assert result['ratio_vs_mximage'] == result['ratios'][result['headline_mode']]['vs_mximage'] > 0
    assert result['ratio_vs_pillow'] > 0 and result['target_vs_mximage'] == 3.0
    # bilinear without antialiasing on both sides: the same pixels up to JPEG decoders (one level is 0.017 here);
    # the area and Pillow resizes differ by design, and the script says so
    diffs = result['max_abs_diff_vs_mximage']
    assert diffs['mximage'] == 0 and diffs['gluonzoo'] < 0.05, diffs
    assert diffs['gluonzoo_area'] > 0.05 and diffs['pillow'] > 0.05, diffs
    assert not os.path.exists(str(out) + '.part')
