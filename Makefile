# Two commands for a newcomer: `make test` and `make book`.
# Each bootstraps its own virtual environment in .venv/ from the system Python
# and installs what it needs; nothing else is required on a fresh machine.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PIP    := $(BIN)/python -m pip --disable-pip-version-check -q
export PYDEVD_DISABLE_FILE_VALIDATION := 1

.PHONY: test book bench lab clean help

help:
	@echo "make test   unit tests, doctests and every notebook (nbval)"
	@echo "make book   build the HTML book into _build/html/ (executes every notebook)"
	@echo "make bench  time mlbook against scikit-learn; writes book/benchmarks/*.json"
	@echo "make lab    open the notebooks in JupyterLab"
	@echo "make clean  remove the build and the virtual environment"

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --upgrade pip

$(VENV)/.test-installed: $(BIN)/python pyproject.toml
	$(PIP) install -e ".[test]"
	touch $@

$(VENV)/.book-installed: $(BIN)/python pyproject.toml
	$(PIP) install -e ".[book]"
	touch $@

test: $(VENV)/.test-installed
	$(BIN)/python -m pytest

book: $(VENV)/.book-installed
	$(BIN)/jupyter-book build . -W -n --keep-going
	$(BIN)/python tools/check_book.py _build/html

bench: $(VENV)/.test-installed
	@for f in benchmarks/bench_*.py; do echo "== $$f"; $(BIN)/python $$f || exit 1; done

# JupyterLab with jupyterlab-myst, which renders the chapters' MyST (theorems,
# proofs, dropdown solutions, roles) as the book does; Binder installs the same.
lab: $(VENV)/.test-installed
	$(PIP) install "jupyterlab>=4" "jupyterlab-myst>=2"
	$(BIN)/jupyter lab book/

clean:
	rm -rf _build $(VENV) .pytest_cache
