#!/usr/bin/env bash
# Rerun gluonzoo's vision recipes on another machine from what pack.py put in .dev/ (no network there): the digits
# recipe through `gluonzoo train` to its end (byte-exact, else the stand-in path), then loading and verifying it;
# beside it a second digits run (does that machine reproduce itself?) and the pose and detection recipes for as many
# epochs as fit in $T seconds (12-25 minutes of one thread each here: their first epochs are compared). Run from the
# repository root; results go to $OUT/r.tgz (logs, outputs, the machine's lscpu).
#   OUT=/tmp/o PY=python3 T=450 bash scripts/stress/other_machine/run.sh
# Validated here with Python 3.12 and that machine's kind of packages (numpy 2 builds of scipy, opencv, onnx).
PY=${PY:-python3}; T=${T:-450}; R=/tmp/r; rm -rf $R /tmp/site; mkdir -p $R
trap 'cd /tmp && tar czf $OUT/r.tgz r' EXIT
t0=$(date +%s)
$PY -c "import tarfile; [tarfile.open(f'.dev/{n}.tar.xz').extractall('/tmp/site') for n in ('mxnet', 'numpy')]" || exit 3
# that machine's scipy is built for numpy 2: gluonzoo never imports it, and MXNet's import of it is optional
mkdir -p /tmp/site/scipy && echo "raise ImportError('scipy is hidden: built for numpy 2')" >/tmp/site/scipy/__init__.py
# MXNet 1.9.1 uses np.bool, which numpy 1.24 to 1.26 do not have
echo "import numpy; numpy.__dict__.setdefault('bool', bool)" >/tmp/site/sitecustomize.py
export PYTHONPATH=/tmp/site
$PY -m pip install -q --no-deps --no-build-isolation --no-index --ignore-requires-python -e . >$R/pip.txt 2>&1 \
  || { cat $R/pip.txt; exit 4; }
GZ="$PY -m gluonzoo.cli"
export GLUONZOO_HOME=/tmp/gzhome GLUONZOO_OFFLINE=1
# where the scenes, figures and digits datasets read opencv-doc's files when the Debian package is not there
export GLUONZOO_OPENCV_DATA=$PWD/.dev/photos GLUONZOO_OPENCV_DIGITS=$PWD/.dev/photos/digits.png
mkdir -p $GLUONZOO_HOME/models
for f in .dev/*.params.xz; do
  $PY -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" \
    $f $GLUONZOO_HOME/models/$(basename $f .xz)
done
{ lscpu; nproc; $PY -c "import sys, numpy, mxnet, cv2; print(sys.version, numpy.__version__, mxnet.__version__,
  cv2.__version__); print(mxnet.runtime.Features())"; } >$R/machine.txt 2>&1
grep -E "Model name|^Flags" $R/machine.txt | cut -c1-300; tail -2 $R/machine.txt
echo "setup took $(( $(date +%s) - t0 )) s"
left() { echo $(( T - ($(date +%s) - t0) - 30 )); }
for n in mobile_pose_mobilenetv2_1.0.figures ssd_128_mobilenetv2_1.0_scenes.digits; do
  timeout $(left) $GZ train $n >$R/train-$n.txt 2>&1 &
done
timeout $(left) $PY scripts/stress/rerun.py mobilenetv2_1.0.digits 1 >$R/stress-digits.txt 2>&1 &
timeout $(left) $GZ train mobilenetv2_1.0.digits >$R/train-digits.txt 2>&1
echo "train digits exit $?"; tail -n 15 $R/train-digits.txt
$PY -W always -c "import gluonzoo; gluonzoo.get_model('mobilenetv2_1.0.digits', pretrained=True); print('loaded')" \
  >$R/load.txt 2>&1; echo "load exit $?"; tail -n 5 $R/load.txt
$GZ verify mobilenetv2_1.0.digits >$R/verify.txt 2>&1; echo "verify exit $?"; tail -n 5 $R/verify.txt
cp $GLUONZOO_HOME/models/*.standin.json $GLUONZOO_HOME/models/*.jsonl $R/ 2>/dev/null
wait
cp out/*.jsonl $R/
for f in $R/stress-digits.txt $R/train-mobile*.txt $R/train-ssd*.txt; do echo "== $f"; tail -n 5 $f; done
echo "total $(( $(date +%s) - t0 )) s"
