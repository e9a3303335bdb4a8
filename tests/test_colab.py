"""Colab simulation: every chapter runs alone, from its install cell to the end.

Colab opens one notebook by itself, in an empty folder, on a Python that has
NumPy, matplotlib and scikit-learn but not ``mlbook``. This test does the same
for every chapter in ``_toc.yml``:

1. it builds a wheel of ``mlbook`` from this checkout;
2. it makes a bare virtual environment with only numpy, matplotlib,
   scikit-learn, ipykernel and nbclient (once; kept in ``.venv/colab-base-<key>``,
   keyed on the Python version and that list, so a second run reuses it);
3. for each chapter it makes a fresh, empty virtual environment layered on
   that base (a ``.pth`` file adds the base's site-packages: mlbook is never in
   it), copies the notebook alone into an empty temporary folder and executes
   it there with the environment's own nbclient and kernel, with
   ``MLBOOK_INSTALL_SOURCE`` pointing the install cell at the wheel and pip
   cut off from any index (``PIP_NO_INDEX``), so that only the wheel can
   satisfy the import;
4. it checks that every cell ran and that ``mlbook`` was imported from the
   wheel the install cell installed, not from this checkout.

Chapters run two at a time (the kernels mostly wait on each other's pip and
imports). Set ``MLBOOK_SKIP_COLAB=1`` to leave the simulation out of a run.

The second part runs an assignment's student notebook alone in an empty folder, in a
kernel that believes it runs on Colab (a stand-in ``google.colab``), and checks that its
``grader.check`` cells pass on the solution and fail on wrong answers (see the comment
above ``COLAB_STUB``).
"""

from __future__ import annotations

import concurrent.futures
import copy
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BASE_PACKAGES = ["numpy", "matplotlib", "scikit-learn", "ipykernel", "nbclient"]
WORKERS = 2
TIMEOUT = 600  # seconds for one notebook, install included


def toc_notebooks() -> list[Path]:
    """The chapter notebooks of the table of contents, in book order."""
    found = []
    for line in (ROOT / "_toc.yml").read_text(encoding="utf-8").splitlines():
        m = re.match(r"^\s*-\s*file:\s*(\S+)", line)  # commented lines do not match
        if m and (ROOT / f"{m.group(1)}.ipynb").is_file():
            found.append(ROOT / f"{m.group(1)}.ipynb")
    return found


NOTEBOOKS = toc_notebooks()

# Run inside the bare environment: execute one notebook with that environment's
# own nbclient and kernel, then report where mlbook came from.
RUNNER = r'''
import json, sys, time
import nbformat
from nbclient import NotebookClient

path, report = sys.argv[1], sys.argv[2]
nb = nbformat.read(path, as_version=4)
nb.cells.append(nbformat.v4.new_code_cell(
    "import mlbook as _m, sys as _s\nprint('MLBOOK_FROM', _m.__file__, _s.executable)"))
t0 = time.perf_counter()
NotebookClient(nb, timeout=int(sys.argv[3]), kernel_name="python3",
               resources={"metadata": {"path": "."}}).execute()
text = "".join(o.get("text", "") for o in nb.cells[-1].outputs if o.output_type == "stream")
with open(report, "w") as f:
    json.dump({"seconds": time.perf_counter() - t0, "where": text}, f)
'''


def _clean_env() -> dict:
    env = {k: v for k, v in os.environ.items()
           if k not in {"PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "JUPYTER_PATH", "PYTHONSTARTUP"}}
    env.update(PIP_DISABLE_PIP_VERSION_CHECK="1", PYTHONNOUSERSITE="1",
               JUPYTER_PLATFORM_DIRS="1", PYDEVD_DISABLE_FILE_VALIDATION="1")
    return env


def _run(cmd, **kw):
    done = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if done.returncode:
        raise RuntimeError(f"{' '.join(map(str, cmd))} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return done


def _venv_python(venv: Path) -> Path:
    return venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def _site_packages(python: Path) -> Path:
    out = _run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"])
    return Path(out.stdout.strip())


def _base_env() -> Path:
    """The bare environment (no mlbook), built once and reused while its key holds."""
    base_python = getattr(sys, "_base_executable", sys.executable)
    key = hashlib.sha256(json.dumps(
        [sys.version, base_python, BASE_PACKAGES]).encode()).hexdigest()[:12]
    venv = ROOT / ".venv" / f"colab-base-{key}"
    if (venv / "ready").is_file():
        return venv
    venv.parent.mkdir(exist_ok=True)
    for old in (ROOT / ".venv").glob("colab-base-*"):
        shutil.rmtree(old, ignore_errors=True)
    _run([base_python, "-m", "venv", venv], env=_clean_env())
    _run([_venv_python(venv), "-m", "pip", "install", "-q", *BASE_PACKAGES], env=_clean_env())
    (venv / "ready").write_text("\n".join(BASE_PACKAGES) + "\n")
    return venv


def _wheel(out: Path) -> Path:
    """A wheel of mlbook, built as the book build builds the one its site serves
    (``_ext/site_wheel.py``: from a copy, so nothing is written into the checkout)."""
    sys.path.insert(0, str(ROOT / "_ext"))
    try:
        import site_wheel
    finally:
        sys.path.pop(0)
    return site_wheel.build_wheel(ROOT, out, env=_clean_env())


def _layered_env(base: Path, where: Path) -> Path:
    """A fresh empty venv that sees the base's packages; pip installs into it alone."""
    base_python = getattr(sys, "_base_executable", sys.executable)
    _run([base_python, "-m", "venv", "--without-pip", where], env=_clean_env())
    python = _venv_python(where)
    site = _site_packages(python)
    base_site = _site_packages(_venv_python(base))
    (site / "_colab_base.pth").write_text(f"import site; site.addsitedir({str(base_site)!r})\n")
    # the kernel that nbclient starts is this environment's Python
    spec = where / "share" / "jupyter" / "kernels" / "python3"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [str(python), "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "Python 3 (Colab simulation)", "language": "python"}))
    return python


def _simulate(notebook: Path, base: Path, wheel: Path, scratch: Path) -> dict:
    work = scratch / notebook.stem
    folder = work / "content"              # the notebook alone, as Colab opens it
    folder.mkdir(parents=True)
    shutil.copy(notebook, folder / notebook.name)
    python = _layered_env(base, work / "env")
    env = _clean_env()
    env.update(MLBOOK_INSTALL_SOURCE=str(wheel), PIP_NO_INDEX="1",
               JUPYTER_PATH=str(work / "env" / "share" / "jupyter"),
               MPLBACKEND="module://matplotlib_inline.backend_inline")
    runner = work / "run_notebook.py"
    runner.write_text(RUNNER)
    report = work / "report.json"
    t0 = time.perf_counter()
    done = subprocess.run([python, runner, notebook.name, report, str(TIMEOUT)], cwd=folder,
                          env=env, capture_output=True, text=True, timeout=TIMEOUT + 60)
    result = {"returncode": done.returncode, "stderr": done.stderr[-6000:],
              "wall": time.perf_counter() - t0, "env": str(work / "env")}
    if report.is_file():
        result.update(json.loads(report.read_text()))
    return result


@pytest.fixture(scope="session")
def colab_runs(tmp_path_factory):
    """Start every chapter's simulation once; each test waits for its own."""
    if os.environ.get("MLBOOK_SKIP_COLAB"):
        pytest.skip("MLBOOK_SKIP_COLAB is set")
    scratch = Path(tempfile.mkdtemp(prefix="mlbook-colab-"))
    t0 = time.perf_counter()
    base = _base_env()
    wheel = _wheel(tmp_path_factory.mktemp("wheel"))
    setup = time.perf_counter() - t0
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=WORKERS)
    futures = {nb: pool.submit(_simulate, nb, base, wheel, scratch) for nb in NOTEBOOKS}
    yield {"futures": futures, "setup": setup, "wheel": wheel}
    pool.shutdown(wait=True)
    shutil.rmtree(scratch, ignore_errors=True)


def test_the_toc_lists_chapters():
    assert NOTEBOOKS, "no chapter notebook found through _toc.yml"


@pytest.mark.slow   # every chapter in a bare environment: `make test-all`
@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.relative_to(ROOT / "book").as_posix())
def test_chapter_runs_alone_as_on_colab(colab_runs, notebook):
    result = colab_runs["futures"][notebook].result()
    assert result["returncode"] == 0, (
        f"{notebook.name} failed in the Colab simulation:\n{result['stderr']}")
    where = result.get("where", "")
    # mlbook came from the wheel, installed by the notebook's own install cell
    # into its fresh environment (not from this checkout, not from the base)
    assert "MLBOOK_FROM" in where, where
    module_file = Path(where.split()[1])
    assert Path(result["env"]) in module_file.parents, (
        f"mlbook was imported from {module_file}, not from the wheel the install cell installed")
    assert ROOT not in module_file.parents


# --------------------------------------------------------------------------
# grader.check in an assignment's student notebook, on Colab
# --------------------------------------------------------------------------
# Colab keeps the notebook in Drive: the kernel's working folder (/content) holds neither
# the notebook's file nor a tests/ folder, and otter 7 refuses on Colab the public tests
# it otherwise reads from the notebook's metadata (otter.Notebook raises "Tests directory
# ./tests does not exist"). The student notebook's grader cell carries the public tests
# and writes them out there (tools/assignments.py, GRADER_CELL).
#
# The stand-in for Colab is what otter and the grader cell look at, nothing more. Colab
# starts its kernel with ``c.IPKernelApp.kernel_class = 'google.colab._kernel.Kernel'``
# (its IPython configuration), a kernel whose shell is ``google.colab._shell.Shell``, a
# subclass of ipykernel's shell. Otter 7 decides it runs on Colab when "google.colab" is
# in ``str(get_ipython())``; the grader cell, when ``google.colab`` is imported. The stub
# package below has those two classes, and the kernel is started with that kernel class
# and the stub on its PYTHONPATH. Nothing else of Colab is stubbed: otter 7 does not ask
# Colab for the notebook (no ``google.colab._message``), and neither does the grader cell.
# ``google`` stays a namespace package, so other ``google.*`` packages still import.
#
# mlbook and otter come from this checkout's environment (the install cell and the
# grader cell install nothing): the chapter simulation above covers installing mlbook.
# By default one assignment runs (the smallest); MLBOOK_GRADE_ALL=1 runs every one, as
# in tests/test_assignments.py. MLBOOK_SKIP_COLAB=1 leaves it out, as the chapters.

COLAB_STUB = {
    "google/colab/__init__.py":
        '"""Stand-in for Colab\'s google.colab (tests/test_colab.py): its kernel and shell."""\n',
    "google/colab/_shell.py":
        "from ipykernel.zmqshell import ZMQInteractiveShell\n\n\n"
        "class Shell(ZMQInteractiveShell):\n"
        '    """Colab\'s shell: otter looks for "google.colab" in str(get_ipython())."""\n',
    "google/colab/_kernel.py":
        "from ipykernel.ipkernel import IPythonKernel\n"
        "from traitlets import Type\n\n"
        "from google.colab import _shell\n\n\n"
        "class Kernel(IPythonKernel):\n"
        '    """Colab\'s kernel class, with its shell."""\n\n'
        "    shell_class = Type(_shell.Shell)\n",
}
COLAB_ASSIGNMENT = "naive_bayes"      # the smallest assignment
GRADE_ALL = os.environ.get("MLBOOK_GRADE_ALL") == "1"
# Seconds per cell. A whole assignment notebook runs in about a second here (5 of them,
# kernel starts included, take 5-8 s); the limit only stops a kernel that hangs.
CELL_TIMEOUT = 120
# Appended to the executed copy (never to the notebook): does otter believe it runs on Colab?
PROBE = ('import json as _json\n'
         'print("PROBE" + _json.dumps({"interpreter": getattr(grader.interpreter, "name", None)}))')


def _assignments_tool():
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import assignments
    finally:
        sys.path.pop(0)
    return assignments


def _colab_ids() -> list:
    try:
        ids = _assignments_tool().assignment_ids()
    except (ImportError, FileNotFoundError):  # no tools/ or assignments/: the test says so
        return [COLAB_ASSIGNMENT]
    if not GRADE_ALL:
        return [COLAB_ASSIGNMENT]
    # the default one runs in `make test`; the others are part of the slow suites
    return [aid if aid == COLAB_ASSIGNMENT else pytest.param(aid, marks=pytest.mark.slow) for aid in ids]


@pytest.fixture(scope="module")
def colab_kernels(tmp_path_factory) -> Path:
    """Two kernel specs: "colab" (the stand-in) and "jupyter" (a plain ipykernel)."""
    if os.environ.get("MLBOOK_SKIP_COLAB"):
        pytest.skip("MLBOOK_SKIP_COLAB is set")
    pytest.importorskip("otter", reason="otter-grader is in the test extra")
    where = tmp_path_factory.mktemp("colab-kernel")
    for rel, text in COLAB_STUB.items():
        (where / "stub" / rel).parent.mkdir(parents=True, exist_ok=True)
        (where / "stub" / rel).write_text(text)
    launch = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    specs = {"colab": (launch[:3] + ["--IPKernelApp.kernel_class=google.colab._kernel.Kernel"]
                       + launch[3:], {"PYTHONPATH": str(where / "stub")}),
             "jupyter": (launch, {})}
    for name, (argv, env) in specs.items():
        spec = where / "kernels" / name
        spec.mkdir(parents=True)
        (spec / "kernel.json").write_text(json.dumps(
            {"argv": argv, "env": env, "display_name": name, "language": "python"}))
    return where / "kernels"


def _execute(nb, folder: Path, kernels: Path, kernel: str) -> dict:
    """Run a copy of ``nb`` with ``folder`` as the working folder; return the outcome of
    every grader.check cell ("passed", "failed" or the error), the errors of other cells,
    and the probe's answer."""
    import nbformat
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import KernelManager
    from nbclient import NotebookClient

    nb = copy.deepcopy(nb)
    nb.cells.append(nbformat.v4.new_code_cell(PROBE))
    km = KernelManager(kernel_name=kernel,
                       kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(kernels)]))
    client = NotebookClient(nb, km=km, timeout=CELL_TIMEOUT, allow_errors=True,
                            resources={"metadata": {"path": str(folder)}})
    try:
        client.execute()
    finally:  # nbclient leaves a kernel it was handed running
        if client.kc is not None:
            client.kc.stop_channels()
        if km.has_kernel:
            km.shutdown_kernel(now=True)
    checks, errors, probe = {}, [], None
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        failed = [f"{o.ename}: {o.evalue}" for o in cell.outputs if o.output_type == "error"]
        text = "".join(o.get("data", {}).get("text/plain", "") + o.get("text", "")
                       for o in cell.outputs)
        m = re.fullmatch(r'grader\.check\("(q\d+)"\)', cell.source.strip())
        if m:
            q = m.group(1)
            checks[q] = (f"error: {failed[0]}" if failed
                         else "passed" if text.startswith(f"{q} results: All test cases passed!")
                         else "failed" if text.startswith(f"{q} results:")
                         else f"no result: {text[:200]!r}")
        elif failed:
            errors.append(f"{cell.source.splitlines()[0][:70]!r}: {failed[0]}")
        if "PROBE{" in text:
            probe = json.loads(text.split("PROBE", 1)[1])
    return {"checks": checks, "errors": errors, "probe": probe}


def _with_answers(student, solution, wrong: list[dict] = ()):
    """The student notebook with the solution's answer cells (and these mistakes, written
    in as tests/test_assignments.py writes them into the solution) in it."""
    from test_assignments import apply_wrong_answer

    nb = copy.deepcopy(student)
    assert len(nb.cells) == len(solution.cells)
    filled = 0
    for cell, sol in zip(nb.cells, solution.cells):
        if "otter_answer_cell" in cell.metadata.get("tags", []):
            assert "otter_assign_solution_cell" in sol.metadata.get("tags", [])
            cell.source = sol.source
            filled += 1
        else:
            assert cell.source == sol.source, "student and solution notebooks differ outside answers"
    assert filled, "no answer cell found in the student notebook"
    for entry in wrong:
        nb = apply_wrong_answer(nb, entry)
    return nb


@pytest.mark.parametrize("aid", _colab_ids())
def test_grader_check_runs_on_colab(colab_kernels, aid, tmp_path):
    import nbformat

    tool = _assignments_tool()
    assert aid in tool.assignment_ids(), f"no assignment {aid} in {tool.SOURCE}"
    from test_assignments import CACHE   # the builds test_assignments uses too
    dist = tool.build_cached(aid, CACHE)
    student_file = dist / "student" / f"{aid}.ipynb"
    student = nbformat.read(student_file, as_version=4)
    solution = nbformat.read(dist / "autograder" / f"{aid}.ipynb", as_version=4)
    questions = sorted(student.metadata["otter"]["tests"], key=lambda q: int(q[1:]))
    t0 = time.perf_counter()

    def folder(name, with_notebook=None):
        """An empty working folder; with the notebook's file in it only if asked."""
        path = tmp_path / name / "content"
        path.mkdir(parents=True)
        if with_notebook is not None:
            nbformat.write(with_notebook, path / f"{aid}.ipynb")
        return path

    # 1. Colab, the solution's answers, no notebook file and no tests/ in /content:
    # every check passes, and otter did run in its Colab mode
    content = folder("solution")
    run = _execute(_with_answers(student, solution), content, colab_kernels, "colab")
    assert not run["errors"], f"{aid}: cells failed on Colab: {run['errors']}"
    assert run["probe"] == {"interpreter": "COLAB"}, run
    assert run["checks"] == {q: "passed" for q in questions}, run["checks"]
    written = sorted(p.name for p in (content / ".otter_public_tests" / aid).glob("*.py"))
    assert written == sorted(f"{q}.py" for q in questions)
    assert not (content / "tests").exists()

    # 2. wrong answers. Each check on Colab must say what the same check says in plain
    # Jupyter, where otter reads the public tests from the notebook's file: the notebook
    # as handed out (every answer `...`; its file uploaded into /content this time, where
    # otter still refuses metadata tests), and a plausible mistake per question written
    # into the solution (the first of each question in wrong_answers.yml).
    from test_assignments import _wrong_answers
    wrong, seen = [], set()
    for entry in _wrong_answers(aid):
        if entry["question"] not in seen:
            seen.add(entry["question"])
            wrong.append(entry)
    variants = {"blank": (student, True), "mistakes": (_with_answers(student, solution, wrong), False)}
    outcome = {}
    for name, (nb, uploaded) in variants.items():
        on_colab = _execute(nb, folder(f"{name}-colab", student if uploaded else None),
                            colab_kernels, "colab")
        local = folder(f"{name}-jupyter", with_notebook=student)
        in_jupyter = _execute(nb, local, colab_kernels, "jupyter")
        assert on_colab["probe"] == {"interpreter": "COLAB"}, on_colab
        assert in_jupyter["probe"] == {"interpreter": None}, in_jupyter
        assert not (local / ".otter_public_tests").exists()   # otter read the notebook's file
        assert set(in_jupyter["checks"].values()) <= {"passed", "failed"}, in_jupyter["checks"]
        assert on_colab["checks"] == in_jupyter["checks"], (name, on_colab, in_jupyter)
        outcome[name] = on_colab["checks"]
    # (a stub that already returns an array of the right shape may pass a test of shape)
    assert "failed" in outcome["blank"].values(), outcome
    for q in questions:
        if q not in seen:     # a question with no mistake written in still passes
            assert outcome["mistakes"][q] == "passed", (q, outcome)
    if aid == COLAB_ASSIGNMENT:
        # its first mistake (the Laplace denominator without the k pseudo-counts) breaks
        # the public test laplace_estimate([1, 1]) == [0.5, 0.5]: 2/3 each instead
        assert outcome["mistakes"][wrong[0]["question"]] == "failed", outcome
        assert outcome["blank"][wrong[0]["question"]] == "failed", outcome
    print(f"{aid}: grader.check on Colab, 5 notebooks in {time.perf_counter() - t0:.1f} s")
