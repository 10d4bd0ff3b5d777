"""Pack what run.sh needs to rerun gluonzoo's vision recipes on a machine with another CPU, another Python and no
network (issue 16: `make weights` on a machine unlike the one that wrote logs/), into .dev/ (git-ignored, ~58 MB).

    .venv/bin/python scripts/stress/other_machine/pack.py [--python-version 3.12]
    # carry .dev to the other machine, then, from the repository root there:
    OUT=/some/folder bash scripts/stress/other_machine/run.sh

.dev holds MXNet 1.9.1 and numpy 1.26.4 (+ ml_dtypes 0.5.4, pycocotools 2.0.11) built for that Python (our numpy pin,
1.23.5, has no wheels past Python 3.11), xz-compressed; the ImageNet MobileNetV2 file the vision recipes start from
(from this machine's cache, converted from its weights package on first use); and the opencv-doc photos and digits
sheet the digits, scenes and figures datasets are made from. Run after `make weights-packages data-digits`.
"""
import argparse
import glob
import lzma
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
DEV = os.path.join(ROOT, '.dev')
PINS = {'mxnet': ['mxnet==1.9.1'], 'numpy': ['numpy==1.26.4', 'ml_dtypes==0.5.4', 'pycocotools==2.0.11']}
PLATFORMS = ('manylinux_2_28_x86_64', 'manylinux_2_17_x86_64', 'manylinux2014_x86_64')


def wheels(pins, python_version, folder):
    cmd = [sys.executable, '-m', 'pip', 'download', '-q', '--no-deps', '--only-binary=:all:', '--python-version',
           python_version, '--implementation', 'cp', '-d', folder] + [a for p in PLATFORMS for a in ('--platform', p)]
    subprocess.run(cmd + pins, check=True)
    return sorted(glob.glob(os.path.join(folder, '*.whl')))


def _no_numpy_tests(info):
    """numpy's own test suites: 1 MB that the 64 MiB a device call carries has no room for."""
    parts = info.name.split('/')
    return None if parts[0] == 'numpy' and 'tests' in parts else info


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--python-version', default='3.12', help="the other machine's Python (default 3.12)")
    args = ap.parse_args(argv)
    import gluonzoo as gz
    from gluonzoo.store import fetch
    from gluonzoo.vision.data.scenes import PHOTO_DIR, TEST_PHOTOS, TRAIN_PHOTOS
    shutil.rmtree(DEV, ignore_errors=True)
    os.makedirs(os.path.join(DEV, 'photos'))
    with tempfile.TemporaryDirectory() as tmp:
        for name, pins in PINS.items():
            with tarfile.open(os.path.join(DEV, f'{name}.tar.xz'), 'w:xz', preset=9) as tar:
                for whl in wheels(pins, args.python_version, os.path.join(tmp, name)):
                    with zipfile.ZipFile(whl) as z:
                        z.extractall(os.path.join(tmp, name, 'site'))
                site = os.path.join(tmp, name, 'site')
                for member in sorted(os.listdir(site)):
                    tar.add(os.path.join(site, member), member, filter=_no_numpy_tests)
    base = gz.get_weights('mobilenetv2_1.0')
    path = fetch(base, progress=False)
    with open(path, 'rb') as f, lzma.open(os.path.join(DEV, base.file_name + '.xz'), 'wb', preset=9) as g:
        shutil.copyfileobj(f, g)
    for name in TRAIN_PHOTOS + TEST_PHOTOS + ('digits.png',):
        shutil.copy(os.path.join(PHOTO_DIR, name), os.path.join(DEV, 'photos', name))
    size = sum(os.path.getsize(p) for p in glob.glob(os.path.join(DEV, '**'), recursive=True) if os.path.isfile(p))
    print(f'{DEV}: {size / 2**20:.1f} MiB')


if __name__ == '__main__':
    main()
