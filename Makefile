# The two quick-start commands:  `make demo` (install, then run the main job)  and  `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.sqlforge-installed

.PHONY: demo demo-record test report check-stats install check-clean readme

# The main job (nbs/42_main_job.ipynb): the demo climb's result re-measured on the CPU. The base SmolLM2-135M-Instruct and
# the climb's last adapter (adapters/demo/step20) are judged on a slice of the climb's held-out tasks (one task on each of
# 12 databases, one seed) with the climb's own judge protocol, into scratch/main-job/ (emptied first); every episode is
# compared token by token with the committed record (results/main-job/) and the paired statistics are printed beside the
# climb's committed GPU judge. STRICT=1 (CI) makes a difference from the record an error. The executed notebook is
# scratch/main_job.ipynb (wherever DEMO_OUT points: a refused DEMO_OUT leaves nothing behind). `make demo-record` remakes
# the record and its executed notebook, report/main_job.ipynb (after a change that moves harness tokens; commit both).
DEMO_OUT ?= scratch/main-job
# The notebook's output goes to the terminal through `-` (click's standard output): a path such as /dev/stdout would be
# opened for writing and truncate a log file that the caller redirects into, losing everything printed before it.
PAPERMILL_TO_TERMINAL = --stdout-file - --stderr-file - --no-progress-bar --log-level ERROR

demo: $(STAMP)
	mkdir -p scratch
	$(BIN)/papermill nbs/42_main_job.ipynb scratch/main_job.ipynb -p out $(DEMO_OUT) $(if $(STRICT),-p strict True) $(PAPERMILL_TO_TERMINAL)

demo-record: $(STAMP)
	$(BIN)/papermill nbs/42_main_job.ipynb report/main_job.ipynb -p out results/main-job -p write_record True $(PAPERMILL_TO_TERMINAL)

# Flagged cells run only when named: `make test FLAGS="slow browser"`. By default FLAGS is `browser` (the transcript
# explorer driven in Chromium, nbs/60_transcripts.ipynb) wherever Debian's Chromium is installed, as in CI, and empty
# elsewhere; `make test FLAGS=` runs no flagged cell. ARGS go to nbdev_test as they are (ARGS="--path nbs/X.ipynb").
FLAGS ?= $(if $(wildcard /usr/bin/chromium),browser)

test: $(STAMP)
	PATH=$(abspath $(BIN)):$$PATH $(BIN)/python tools/run_tests.py $(if $(strip $(FLAGS)),--flags "$(strip $(FLAGS))") $(ARGS)

# The write-up: executes the report chapters (nbs/51-56, 60) against results/ into report/.
report: $(STAMP)
	$(BIN)/python -m sqlforge.report

# Recomputes every committed statistics file from the episodes it records; fails naming each one that differs.
check-stats: $(STAMP)
	$(BIN)/python -m sqlforge.report --check

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
