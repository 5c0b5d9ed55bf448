# The two quick-start commands:  `make demo` (install, then run the main job)  and  `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.sqlforge-installed

.PHONY: demo test install check-clean readme

demo: $(STAMP)
	$(BIN)/python -m sqlforge.verify demo

test: $(STAMP)
	PATH=$(abspath $(BIN)):$$PATH $(BIN)/python tools/run_tests.py

install: $(STAMP)

# torch first and exactly: on these machines 2.13.0 is a CPU build on local disk, and pinning it keeps any
# later resolution from pulling a multi-GB CUDA build.
$(STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q torch==2.13.0 -c constraints.txt
	$(BIN)/python -m pip install -q -e ".[test]" -c constraints.txt
	touch $(STAMP)

# Fails when notebooks are not clean or the library is not exported from them, or README.md is stale.
check-clean: $(STAMP)
	PATH=$(abspath $(BIN)):$$PATH $(BIN)/python tools/check_clean.py

readme: $(STAMP)
	$(BIN)/python tools/readme.py
