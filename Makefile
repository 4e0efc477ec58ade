# spatialcad — one-command setup, benchmark, tests and performance report.
#   make bench LEVEL=2    build a complete level-2 benchmark in output/bench-L2
#   make bench LEVEL=0-2  build levels 0, 1 and 2 in one run (output/bench-L0 .. -L2)
#   make test             lint (ruff, mypy), then run the test suite
SHELL := /bin/bash
# The venv's interpreter: Debian's python3.11 when it can make venvs (the interpreter Debian's
# freecad-python3 is built for, and built with profile-guided optimisation: ~9% less CPU per
# item than a plain source build such as pyenv's), else python3 from PATH.  PYTHON=... chooses.
PYTHON ?= $(shell /usr/bin/python3.11 -c "import ensurepip, venv" >/dev/null 2>&1 \
  && echo /usr/bin/python3.11 || echo python3)
VENV ?= .venv
# Inside an active conda env (environment.yml) that holds our dependencies, use that env:
# no venv, no pip, no network (cluster nodes). USE_CONDA=0 forces the venv.
USE_CONDA ?= $(if $(CONDA_PREFIX),$(shell $(CONDA_PREFIX)/bin/python -c \
  "import click, numpy, shapely, cv2, tqdm, submitit" >/dev/null 2>&1 && echo 1 || echo 0),0)
ifeq ($(USE_CONDA),1)
VPY := $(CONDA_PREFIX)/bin/python
FC_PYTHON := $(VPY)
INSTALLED :=
export PYTHONPATH := $(CURDIR)$(if $(PYTHONPATH),:$(PYTHONPATH))
else
VPY := $(VENV)/bin/python
FC_PYTHON := $(PYTHON)
INSTALLED := $(VENV)/.installed
endif
LEVEL ?= 2
N_PER_TASK ?= 40
TASK ?= all
SEED ?= 0
OUT ?= output/bench-L{level}
JOBS ?= $(shell nproc 2>/dev/null || echo 1)
PERF_N ?= 20

.PHONY: setup freecad bytecode kernels bench test test-deps perf lint clean

setup: freecad $(INSTALLED)

# FreeCAD: use it if importable (FREECAD_LIB, conda env, Debian paths); otherwise install
# Debian's freecad-python3 when we are root, else stop with instructions.
freecad:
	@if [ "$(USE_CONDA)" = 1 ]; then echo "Python: the active conda env $(CONDA_PREFIX)"; fi
	@if PYTHONPATH=. $(FC_PYTHON) -c "from spatialcad.freecad_env import load; load()" 2>/dev/null; then \
	  echo "FreeCAD: found"; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  echo "FreeCAD: installing Debian's freecad-python3"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq freecad-python3 >/dev/null; \
	  PYTHONPATH=. $(FC_PYTHON) -c "from spatialcad.freecad_env import load; load()"; \
	else \
	  echo "FreeCAD is not importable. Create the conda env from environment.yml" \
	       "(conda env create -f environment.yml), install Debian's freecad-python3," \
	       "or set FREECAD_LIB to the directory holding FreeCAD.so." >&2; \
	  exit 1; \
	fi

# constraints.txt pins the libraries that decide output bytes (same bytes on every machine)
$(VENV)/.installed: pyproject.toml constraints.txt
	@test -x $(VPY) || $(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install -q --upgrade pip
	$(VPY) -m pip install -q -c constraints.txt -e '.[dev]'
	@touch $@

# Python caches compiled modules itself unless PYTHONDONTWRITEBYTECODE is set (as on some
# CI machines): then every worker process would compile the package again (~0.3 s each).
bytecode: setup
	@$(VPY) -m compileall -q spatialcad >/dev/null

# numba compiles its kernels on first use, ~40 s of CPU per process: compile them once, over
# JOBS processes, into numba's disk cache (the module stamps what it compiled for the current
# sources and leaves those tasks out next time).
kernels: setup
	@$(VPY) -m spatialcad.compile_kernels --jobs $(JOBS)

bench: setup bytecode kernels
	$(VPY) -m spatialcad.cli generate --task $(TASK) --level $(LEVEL) --n $(N_PER_TASK) \
	  --seed $(SEED) --out $(OUT) --jobs $(JOBS) --overwrite

# The gallery test renders the HTML page in headless Chromium (Debian's package).
test-deps:
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null || \
	  { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && \
	  { DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null || \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null); }; } || \
	  echo "make test: Debian's chromium and chromium-driver are needed for the page tests" >&2

test: lint test-deps kernels
	$(VPY) -m pytest

perf: setup bytecode kernels
	$(VPY) -m spatialcad.perf --level 0-2 --n $(PERF_N) --section tasks --section bench \
		--section forms

lint: setup
	$(VPY) -m ruff check spatialcad tests macros
	$(VPY) -m mypy

clean:
	rm -rf $(VENV) output/*/ .pytest_cache
