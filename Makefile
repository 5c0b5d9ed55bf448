# The two quick-start commands:  `make demo` (install, then run the main job)  and  `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.sqlforge-installed

.PHONY: demo test report install check-clean readme

# The main job: the judge (nbs/40_judge.ipynb) with the embedded default, SmolLM2-135M-Instruct, on the 42-task demo
# suite, on the CPU, at two turns of at most 160 tokens (thinking off) so that it ends in minutes. The executed notebook
# goes to report/judge_demo.ipynb, the run to results/demo/smollm2-135m__base/ (a second `make demo` finds it complete).
DEMO ?= -p max_turns 2 -p max_new_tokens 160 -p thinking False

demo: $(STAMP)
	$(BIN)/papermill nbs/40_judge.ipynb report/judge_demo.ipynb $(DEMO) --log-level WARNING
	$(BIN)/python -m sqlforge.sweeps --show results/demo/smollm2-135m__base

# Flagged cells run only when named: `make test FLAGS="slow browser"`. By default FLAGS is `browser` (the transcript
# explorer driven in Chromium, nbs/60_transcripts.ipynb) wherever Debian's Chromium is installed, as in CI, and empty
# elsewhere; `make test FLAGS=` runs no flagged cell. ARGS go to nbdev_test as they are (ARGS="--path nbs/X.ipynb").
FLAGS ?= $(if $(wildcard /usr/bin/chromium),browser)

test: $(STAMP)
	PATH=$(abspath $(BIN)):$$PATH $(BIN)/python tools/run_tests.py $(if $(strip $(FLAGS)),--flags "$(strip $(FLAGS))") $(ARGS)

# The write-up: executes the report chapters (nbs/51-54, 60) against results/ into report/.
report: $(STAMP)
	$(BIN)/python -m sqlforge.report

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
