# Two commands for a newcomer: `make test` and `make book`.
# Each bootstraps its own virtual environment in .venv/ from the system Python
# and installs what it needs; nothing else is required on a fresh machine.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PIP    := $(BIN)/python -m pip --disable-pip-version-check -q
export PYDEVD_DISABLE_FILE_VALIDATION := 1

.PHONY: test test-all book pdf dist bench lab clean help assignments grade test-assignments test-seeds test-browser check-html

help:
	@echo "make test   unit tests, doctests and every notebook (nbval), on every core; not the slow suites"
	@echo "make test-all  everything: make test, the PyTorch oracles and the slow suites (what CI runs)"
	@echo "make book   build the HTML book into _build/html/ (executes every notebook)"
	@echo "make pdf    the book as a PDF, _build/latex/book.pdf (needs TeX Live from Debian; see README)"
	@echo "make dist   the release archive _build/dist/mlbook-<version>.zip: offline HTML, PDF, chapters as .ipynb and .py, wheel and sdist"
	@echo "make bench  time mlbook against scikit-learn; writes book/benchmarks/*.json"
	@echo "make lab    open the notebooks in JupyterLab"
	@echo "make assignments             student notebooks + autograders in assignments/dist/"
	@echo "make grade SUBMISSIONS=dir   grade every .ipynb in dir (offline, sandboxed; needs bwrap); writes dir/graded/"
	@echo "make test-assignments        grade every assignment's solution, blank and wrong answers"
	@echo "make test-seeds [SEEDS=1,10000,20000,30000]  run every chapter with its seeds shifted by each offset"
	@echo "make test-browser [HTML=_build/html]  the built book in headless Chromium (after make book)"
	@echo "make check-html [HTML=_build/html]    accessibility (axe-core, light and dark) and HTML (Nu checker) of the built book, and tools/check_book.py (after make book)"
	@echo "make clean  remove the build and the virtual environment"

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --upgrade pip "setuptools>=77"

$(VENV)/.test-installed: $(BIN)/python pyproject.toml
	$(PIP) install -e ".[test]"
	touch $@

$(VENV)/.assign-installed: $(BIN)/python pyproject.toml
	$(PIP) install -e ".[assign]"
	touch $@

$(VENV)/.book-installed: $(BIN)/python pyproject.toml
	$(PIP) install -e ".[book]"
	touch $@

$(VENV)/.oracles-installed: $(BIN)/python pyproject.toml
	$(PIP) install -e ".[oracles]"
	touch $@

# On every core (pytest-xdist); a notebook's cells stay on one worker (loadfile).
# The notebooks' checked outputs are those of the default seeds: MLBOOK_SEED=0.
PYTEST := MLBOOK_SEED=0 $(BIN)/python -m pytest -n auto --dist loadfile

# The grading tests run submissions in the grader's sandbox, made by Debian's bubblewrap.
NEED_BWRAP = command -v bwrap >/dev/null 2>&1 || { echo "bubblewrap (bwrap) is missing: the grading tests run submissions in its sandbox; install Debian's bubblewrap (sudo apt-get install bubblewrap)"; exit 2; }

# The contributor's loop: everything but the slow suites (marker `slow`); the
# PyTorch comparisons skip, saying why, unless the extra [oracles] is installed.
test: $(VENV)/.test-installed
	@$(NEED_BWRAP)
	$(PYTEST) -m "not slow"

# Everything: `make test` with the PyTorch oracles, then the slow suites (the Colab
# simulation, grading every assignment and its Colab grader.check, scikit-learn's
# check_estimator over every estimator, the seed sweep over SEEDS). CI runs this.
test-all: $(VENV)/.test-installed $(VENV)/.oracles-installed
	@$(NEED_BWRAP)
	@t0=$$(date +%s) && $(PYTEST) -m "not slow" && t1=$$(date +%s) && \
	MLBOOK_GRADE_ALL=1 MLBOOK_SEED_SWEEP=$(SEEDS) $(PYTEST) -m slow && t2=$$(date +%s) && \
	echo "make test-all: the tests of make test (with the oracles) $$((t1 - t0)) s, the slow suites $$((t2 - t1)) s"

# The seed sweep: every chapter executed with MLBOOK_SEED set to each offset in
# SEEDS; every assertion of every chapter must hold (tests/test_seeds.py).
# A chapter's seeds are below 10,000 and loops draw seed(0), seed(1), ...: offsets
# 10,000 apart share no draw, where offsets 1 and 2 would share all but one.
SEEDS ?= 1,10000,20000,30000
test-seeds: $(VENV)/.test-installed
	MLBOOK_SEED_SWEEP=$(SEEDS) $(BIN)/python -m pytest tests/test_seeds.py

# The HTML folder is emptied first: Sphinx never deletes the page of a chapter that was
# renamed or removed, and make dist packs the folder as it is.
book: $(VENV)/.book-installed
	rm -rf _build/html
	$(BIN)/jupyter-book build . -W -n --keep-going
	$(BIN)/python tools/check_book.py _build/html
	$(BIN)/python tools/check_math.py _build/html

# The PDF: XeLaTeX over the executed chapters (as make book runs them). TeX
# Live comes from Debian; tools/build_pdf.py names any missing package and fails on a
# missing glyph, an undefined command or a LaTeX error in the log (xelatex exits 0 on
# the first two).
pdf: $(VENV)/.book-installed
	$(BIN)/python tools/build_pdf.py

# The release a reader downloads (tools/make_dist.py): one zip holding the offline HTML
# book, the PDF, every chapter as .ipynb and as a jupytext .py script, and the wheel and
# sdist of mlbook (checked by twine). It reuses _build/latex/book.pdf and _build/html when
# they are up to date and the HTML was built with that PDF (MLBOOK_PDF, so that every
# chapter page links to it); otherwise it runs make pdf and make book MLBOOK_PDF=... first.
$(VENV)/.dist-installed: $(BIN)/python pyproject.toml
	$(PIP) install -e ".[book,dist]"
	touch $@

dist: $(VENV)/.dist-installed
	$(BIN)/python tools/make_dist.py

# The built book in headless Chromium (tests/browser/): the phone's menu buttons,
# solutions opened from their titles, no page error, no sideways scrolling,
# code that wraps, figure text of at least 9 px, dark mode. Run `make book` first.
# Playwright drives Debian's chromium (no browser download).
CHROMIUM ?= /usr/bin/chromium
HTML     ?= _build/html

$(VENV)/.browser-installed: $(BIN)/python pyproject.toml
	$(PIP) install -e ".[browser]"
	touch $@

test-browser:
	@test -x "$(CHROMIUM)" || { echo "Chromium is missing: install Debian's chromium (apt-get install chromium)"; exit 2; }
	@$(MAKE) --no-print-directory $(VENV)/.browser-installed
	MLBOOK_BROWSER=1 MLBOOK_CHROMIUM=$(CHROMIUM) MLBOOK_HTML=$(HTML) \
		$(BIN)/python -m pytest tests/browser -o addopts="" -p no:cacheprovider

# Accessibility and HTML checks of the built book (tools/check_html.py): axe-core over
# every page in Debian's headless chromium, light and dark mode (Playwright drives it,
# as in test-browser), failing on serious or critical violations; the Nu HTML checker
# (vnu-jar on Debian's Java), failing on a new kind of error; tools/check_book.py
# (links and #fragments, alt text, offline assets, ...). axe-core and vnu-jar come from
# npm, pinned by tools/html/package-lock.json: `npm ci`, with --ignore-scripts since
# vnu-jar's postinstall would fetch a Java of its own. The extensions' tests run first.
# Run `make book` first. JOBS_HTML pages are checked at a time.
JOBS_HTML ?= 2
tools/html/node_modules/.installed: tools/html/package.json tools/html/package-lock.json
	@command -v npm >/dev/null 2>&1 || { echo "npm is missing: axe-core and vnu-jar come from npm; install Debian's npm (apt-get install npm)"; exit 2; }
	cd tools/html && npm ci --ignore-scripts --no-audit --no-fund
	touch $@

check-html: tools/html/node_modules/.installed
	@test -x "$(CHROMIUM)" || { echo "Chromium is missing: install Debian's chromium (apt-get install chromium)"; exit 2; }
	@command -v java >/dev/null 2>&1 || { echo "Java is missing: the Nu HTML checker runs on it; install Debian's default-jre-headless (apt-get install default-jre-headless)"; exit 2; }
	@$(MAKE) --no-print-directory $(VENV)/.book-installed $(VENV)/.browser-installed
	$(BIN)/python -m pytest tests/test_html_a11y.py -o addopts="" -p no:cacheprovider -q
	MLBOOK_CHROMIUM=$(CHROMIUM) $(BIN)/python tools/check_html.py $(HTML) --jobs $(JOBS_HTML)

bench: $(VENV)/.test-installed
	@for f in benchmarks/bench_*.py; do echo "== $$f"; $(BIN)/python $$f || exit 1; done

# JupyterLab with jupyterlab-myst, which renders the chapters' MyST (theorems,
# proofs, dropdown solutions, roles) as the book does: the extra [lab] of
# pyproject.toml, the list Binder installs too; no test stack.
$(VENV)/.lab-installed: $(BIN)/python pyproject.toml
	$(PIP) install -e ".[lab]"
	touch $@

lab: $(VENV)/.lab-installed
	$(BIN)/jupyter lab book/

# Course assignments (see assignments/README.md and the instructors' page of the book).
# ASSIGNMENT=<id> picks the autograder when it cannot be inferred from the folder;
# JOBS submissions are graded at a time, each stopped after TIMEOUT seconds and
# limited to MEMORY megabytes of address space per process. Each submission runs in a
# bubblewrap sandbox (Debian's bubblewrap: no network, nothing of this checkout) and
# the tests in a separate process that calls its functions (tools/grading/); a cell is
# stopped after CELL_TIMEOUT seconds and a call into the submission after TEST_TIMEOUT.
ASSIGNMENT   ?=
JOBS         ?= 2
TIMEOUT      ?= 600
CELL_TIMEOUT ?= 60
TEST_TIMEOUT ?= 20
MEMORY       ?= 4096

assignments: $(VENV)/.assign-installed
	$(BIN)/python tools/assignments.py build --jobs $(JOBS)

# Grade every assignment's solution, blank student version and wrong answers, and
# run every student notebook's grader.check on a stand-in Colab (slow; plain
# `make test` only builds them, checks the student versions and one Colab run;
# `make test-all`, which CI runs, includes this).
test-assignments: $(VENV)/.test-installed
	@$(NEED_BWRAP)
	MLBOOK_GRADE_ALL=1 $(BIN)/python -m pytest tests/test_assignments.py tests/test_colab.py \
		-k "solution_full or grader_check"

grade: $(VENV)/.assign-installed
	@test -n "$(SUBMISSIONS)" || { echo "usage: make grade SUBMISSIONS=<folder of .ipynb> [ASSIGNMENT=<id>]"; exit 2; }
	@$(NEED_BWRAP)
	$(BIN)/python tools/assignments.py grade "$(SUBMISSIONS)" --jobs $(JOBS) --timeout $(TIMEOUT) \
		--cell-timeout $(CELL_TIMEOUT) --test-timeout $(TEST_TIMEOUT) --memory $(MEMORY) \
		$(if $(ASSIGNMENT),--assignment $(ASSIGNMENT))

clean:
	rm -rf _build $(VENV) .pytest_cache assignments/dist
