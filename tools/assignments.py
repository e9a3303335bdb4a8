"""Build the course assignments and grade the students' notebooks, offline (otter-grader).

    python tools/assignments.py build [ID ...]          # what `make assignments` runs
    python tools/assignments.py grade FOLDER [--assignment ID] [--jobs 2] [--timeout 600]
                                        [--cell-timeout 60] [--test-timeout 20] [--memory 4096]
                                                        # what `make grade SUBMISSIONS=FOLDER` runs

``build`` turns each ``assignments/source/<id>/<id>.ipynb`` (a notebook in otter
assign's format, written with its solutions and tests) into

* ``assignments/dist/<id>/student/<id>.ipynb``: what the students get (no solution,
  no hidden test; the public tests travel in its metadata, where otter reads them, and in
  the cell that loads otter, which writes them out where the kernel cannot see the
  notebook's file, as on Colab);
* ``assignments/dist/<id>/autograder/<id>-autograder.zip``: every test, hidden ones
  included; it never leaves the instructor's machine.

Before handing a notebook to ``otter assign`` it merges the shared settings of
``assignments/otter_config.yml`` into the notebook's ``# ASSIGNMENT CONFIG`` cell
(the notebook's keys win), makes every question all-or-nothing unless it says
otherwise, and inserts the cell that loads otter right after the install cell; once
otter assign has run, it copies the public tests into that cell.

``grade`` grades every ``*.ipynb`` directly in FOLDER, several at a time. Each file is
read once and hashed before any is graded; its copy runs in a bubblewrap sandbox
(tools/grading/sandbox.py, runner.py) and the tests in a trusted process
(tools/grading/trusted.py) that calls its functions over a pipe with plain data
(protocol.py), with a wall-clock limit and a memory cap. A cell that runs too long is
stopped and the next one runs; a call that runs too long fails its test. A notebook
that cannot be read, crashes, loops or deletes cells scores zero on what it breaks;
nothing a submission does stops the run. It writes ``FOLDER/graded/grades.csv`` (one
row per student, one column per question, the total, a status, the seconds, the flags
of a scan of its code and its sha256) and ``FOLDER/graded/feedback/<student>.txt``.
``build`` also writes ``<id>-gradescope.zip`` (tools/grading/gradescope.py).
"""

from __future__ import annotations

import argparse
import ast
import concurrent.futures
import copy
import csv
import inspect
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent / "grading"))
try:
    import gradescope  # noqa: F401 - build_one writes Gradescope's zip with it
    import protocol as grading_protocol
    import sandbox as grading_sandbox
finally:
    sys.path.pop(0)

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "assignments" / "source"
DIST = ROOT / "assignments" / "dist"
SHARED_CONFIG = ROOT / "assignments" / "otter_config.yml"

GRADER_MARKER = "# Load otter-grader, which runs the public tests"
GRADER_CELL = '''\
{marker} (grader.check cells).
# Written by `make assignments` (tools/assignments.py); installs otter where it is missing.
import importlib.util, os, subprocess, sys

if importlib.util.find_spec("otter") is None:
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "otter-grader>=7,<8"], check=True)
    importlib.invalidate_caches()
import otter


{otter_test}


def _otter_grader(name, public_tests):
    """Otter reads the public tests from this notebook's file. Where the kernel cannot see the
    file (Colab keeps it in Drive), they are written from here into a folder of their own."""
    if os.path.isfile(name) and "google.colab" not in sys.modules:
        return otter.Notebook(name)
    folder = os.path.join(".otter_public_tests", os.path.splitext(name)[0])
    os.makedirs(folder, exist_ok=True)
    for question, compact in public_tests.items():
        with open(os.path.join(folder, question + ".py"), "w", encoding="utf-8") as f:
            f.write("OK_FORMAT = True\\n\\ntest = " + repr(_otter_test(question, *compact)) + "\\n")
    return otter.Notebook(tests_dir=folder)


grader = _otter_grader("{name}", {{
    # question: (points, all or nothing, its public tests as otter's doctests)
{tests}}})'''


def _otter_test(question, points, all_or_nothing, cases):
    """Otter's test dict (OK format) for one question's public tests."""
    return {"name": question, "points": points, "all_or_nothing": all_or_nothing,
            "suites": [{"type": "doctest", "scored": True, "setup": "", "teardown": "",
                        "cases": [{"code": c, "hidden": False, "locked": False} for c in cases]}]}


def _string_literal(text: str, indent: int) -> str:
    """``text`` as a Python literal, one source line per line of text."""
    lines = text.splitlines(keepends=True)
    if len(lines) <= 1:
        return json.dumps(text, ensure_ascii=False)
    pad = "\n" + " " * (indent + 1)
    return "(" + pad.join(json.dumps(l, ensure_ascii=False) for l in lines) + ")"


def grader_cell(name: str, public_tests: dict) -> str:
    """The cell that loads otter. It carries the public tests (``{question: otter's test
    dict}``, as in the student notebook's metadata), for where otter cannot read that
    metadata; a test that the cell's compact form cannot rebuild exactly stops the build."""
    items = []
    for question, test in public_tests.items():
        cases = [case["code"] for suite in test["suites"] for case in suite["cases"]]
        compact = (test["points"], test["all_or_nothing"], cases)
        if _otter_test(question, *compact) != test:
            raise ValueError(f"{name} {question}: the grader cell cannot carry this test "
                             f"(otter wrote fields it does not know): {test!r}")
        items.append(f"    {json.dumps(question)}: ({compact[0]!r}, {compact[1]!r}, [\n"
                     + "".join(f"        {_string_literal(c, 8)},\n" for c in cases) + "    ]),\n")
    # the cell rebuilds otter's test dicts with this very function (its source, copied in)
    return GRADER_CELL.format(marker=GRADER_MARKER, name=name, tests="".join(items),
                              otter_test=inspect.getsource(_otter_test).rstrip())


CONFIG_RE = re.compile(r"#\s+assignment\s+config\s*", re.I)
QUESTION_RE = re.compile(r"#\s+begin\s+question\s*", re.I)
STATUS_OK, STATUS_TIMEOUT, STATUS_ERROR = "ok", "timeout", "error"


# --------------------------------------------------------------------------
# build
# --------------------------------------------------------------------------

def assignment_ids() -> list[str]:
    """Every assignment with a source notebook, in alphabetical order."""
    return sorted(p.name for p in SOURCE.iterdir()
                  if p.is_dir() and (p / f"{p.name}.ipynb").is_file())


def _merge(base: dict, override: dict) -> dict:
    out = copy.deepcopy(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


def _raw_yaml(cell) -> dict:
    """The YAML under a raw marker cell's first line (``# BEGIN QUESTION`` ...)."""
    body = "\n".join(cell.source.splitlines()[1:])
    data = yaml.safe_load(body) if body.strip() else {}
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ValueError(f"the cell {cell.source.splitlines()[0]!r} must hold YAML keys")
    return data


def _is_install_cell(cell) -> bool:
    return cell.cell_type == "code" and cell.source.startswith("# Install mlbook where it is missing")


def prepare(nb, name: str, shared: dict | None = None):
    """The notebook otter assign reads: shared config merged, defaults set, grader cell in.

    ``nb`` is the source notebook (not modified); ``name`` is the file name of the
    student notebook (``<id>.ipynb``).
    """
    if shared is None:
        shared = yaml.safe_load(SHARED_CONFIG.read_text(encoding="utf-8")) or {}
    nb = copy.deepcopy(nb)
    configs = [c for c in nb.cells if c.cell_type == "raw" and CONFIG_RE.match(c.source)]
    if len(configs) != 1:
        raise ValueError(f"{name}: expected one raw '# ASSIGNMENT CONFIG' cell, found {len(configs)}")
    merged = _merge(shared, _raw_yaml(configs[0]))
    merged.pop("forbid_imports", None)           # the grader's keys (forbidden_imports,
    merged.pop("write_back", None)               # write_back), not otter's
    configs[0].source = "# ASSIGNMENT CONFIG\n" + yaml.safe_dump(merged, sort_keys=False)
    for cell in nb.cells:
        if cell.cell_type == "raw" and QUESTION_RE.match(cell.source):
            q = _raw_yaml(cell)
            if not re.fullmatch(r"q\d+", str(q.get("name", ""))):
                raise ValueError(f"{name}: question names are q1, q2, ...; found {q.get('name')!r}")
            if not isinstance(q.get("points"), int) or q["points"] <= 0:
                raise ValueError(f"{name}: question {q['name']} needs a positive integer 'points:'")
            q.setdefault("all_or_nothing", True)
            cell.source = "# BEGIN QUESTION\n" + yaml.safe_dump(q, sort_keys=False)
    code = [i for i, c in enumerate(nb.cells) if c.cell_type == "code"]
    if not code or not _is_install_cell(nb.cells[code[0]]):
        raise ValueError(f"{name}: the first code cell must be the install cell "
                         "(run tools/install_cell.py)")
    nb.cells = [c for c in nb.cells
                if not (c.cell_type == "code" and c.source.startswith(GRADER_MARKER))]
    # its public tests are filled in after otter assign (embed_public_tests)
    grader = nbformat.v4.new_code_cell(grader_cell(name, {}))
    grader.metadata["tags"] = ["otter-grader"]
    nb.cells.insert(code[0] + 1, grader)
    return nb


def public_tests(student_nb) -> dict:
    """``{question: test}`` from the student notebook's metadata, where otter assign puts the
    public tests (OK format); a hidden case found there stops the build."""
    meta = student_nb.metadata.get("otter", {})
    if not meta.get("OK_FORMAT"):
        raise ValueError("the student notebook's tests are not in OK format "
                         "(assignments/otter_config.yml must keep tests: ok_format: true)")
    tests = copy.deepcopy(dict(meta.get("tests", {})))
    for name, test in tests.items():
        for suite in test["suites"]:
            if any(case.get("hidden") for case in suite["cases"]):
                raise ValueError(f"{name}: a hidden test is in the student notebook's metadata")
    return dict(sorted(tests.items(), key=lambda kv: _natural(kv[0])))


def embed_public_tests(out: Path, name: str) -> None:
    """Put the public tests into the grader cell of the student notebook and of the solution
    notebook next to the autograder: otter reads them from the notebook's metadata, which
    the kernel cannot see on Colab, so the cell writes them out there (see GRADER_CELL)."""
    student = out / "student" / name
    tests = public_tests(nbformat.read(student, as_version=4))
    source = grader_cell(name, tests)
    for path in (student, out / "autograder" / name):
        nb = nbformat.read(path, as_version=4)
        cells = [c for c in nb.cells if c.cell_type == "code" and c.source.startswith(GRADER_MARKER)]
        if len(cells) != 1:
            raise RuntimeError(f"{path}: expected one grader cell, found {len(cells)}")
        cells[0].source = source
        nbformat.write(nb, path)


def student_path(aid: str) -> Path:
    return DIST / aid / "student" / f"{aid}.ipynb"


def autograder_path(aid: str) -> Path:
    return DIST / aid / "autograder" / f"{aid}-autograder.zip"


def build_one(aid: str, dist: Path = DIST, wheel: Path | None = None) -> Path:
    """Run otter assign on one assignment; return the autograder zip. With ``wheel`` (the
    book's mlbook wheel) it also writes ``<id>-gradescope.zip`` (tools/grading/gradescope.py)."""
    src = SOURCE / aid / f"{aid}.ipynb"
    if not src.is_file():
        raise FileNotFoundError(f"no assignment {aid!r}: {src} does not exist")
    nb = prepare(nbformat.read(src, as_version=4), src.name)
    out = dist / aid
    if out.exists():
        shutil.rmtree(out)
    with tempfile.TemporaryDirectory(prefix=f"assign-{aid}-") as tmp:
        master = Path(tmp) / src.name
        nbformat.write(nb, master)
        done = subprocess.run([sys.executable, "-m", "otter", "assign", str(master), str(out)],
                              capture_output=True, text=True, cwd=tmp)
    if done.returncode != 0:
        raise RuntimeError(f"otter assign failed on {aid}:\n{done.stdout}\n{done.stderr}")
    zips = sorted((out / "autograder").glob(f"{aid}-autograder_*.zip"))
    if len(zips) != 1:
        raise RuntimeError(f"otter assign wrote {len(zips)} autograder zips for {aid}")
    target = out / "autograder" / f"{aid}-autograder.zip"
    zips[0].rename(target)
    embed_public_tests(out, src.name)
    if wheel is not None:
        import gradescope
        gradescope.build(aid, out / "autograder" / f"{aid}-gradescope.zip", target,
                         out / "autograder" / src.name, wheel, write_back=write_back(aid))
    return target


def build_key(aid: str) -> str:
    """A hash of everything that goes into building ``aid``.

    Its source folder, this tool and the install-cell writer, the otter
    configuration, ``pyproject.toml``, the package's code (otter assign runs the
    solution, which imports ``mlbook``), and the versions of Python and otter.
    """
    import hashlib
    import importlib.metadata

    h = hashlib.sha256()
    files = sorted((SOURCE / aid).rglob("*")) + sorted((ROOT / "mlbook").rglob("*.py")) + [
        Path(__file__).resolve(), ROOT / "tools" / "install_cell.py",
        SOURCE.parent / "otter_config.yml", ROOT / "pyproject.toml"]
    for f in files:
        if f.is_file() and "__pycache__" not in f.parts:
            rel = f.relative_to(SOURCE.parent if f.is_relative_to(SOURCE.parent) else ROOT)
            h.update(str(rel).encode() + b"\0" + f.read_bytes() + b"\0")
    h.update(sys.version.encode() + importlib.metadata.version("otter-grader").encode())
    return h.hexdigest()[:16]


def build_cached(aid: str, cache: Path) -> Path:
    """Build ``aid`` into ``cache/<aid>-<key>/`` unless that build exists; return the folder.

    The key is :func:`build_key`, so a change of any input builds anew and an
    unchanged checkout reuses the last build (tests call this from several
    processes: each builds in a folder of its own and the first to finish wins).
    """
    final = cache / f"{aid}-{build_key(aid)}"
    if (final / "BUILT").is_file():
        return final
    cache.mkdir(parents=True, exist_ok=True)
    for old in cache.glob(f"{aid}-*"):
        if old != final and not old.name.startswith(f"{aid}-tmp"):
            shutil.rmtree(old, ignore_errors=True)
    tmp = Path(tempfile.mkdtemp(prefix=f"{aid}-tmp", dir=cache))
    try:
        build_one(aid, dist=tmp)
        (tmp / aid / "BUILT").touch()
        try:
            (tmp / aid).rename(final)
        except OSError:          # another process finished first: use its build
            if not (final / "BUILT").is_file():
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return final


def build(ids: list[str] | None = None, jobs: int = 2) -> list[Path]:
    ids = ids or assignment_ids()
    sys.path.insert(0, str(ROOT / "_ext"))
    try:
        import site_wheel
    finally:
        sys.path.pop(0)
    with tempfile.TemporaryDirectory(prefix="mlbook-wheel-") as tmp:
        wheel = site_wheel.build_wheel(ROOT, Path(tmp))     # the book's mlbook, for Gradescope
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            zips = list(pool.map(lambda a: build_one(a, wheel=wheel), ids))
    for aid, z in zip(ids, zips):
        print(f"{aid:>22}: {student_path(aid).relative_to(ROOT)}  +  {z.relative_to(ROOT)}"
              f"  +  {z.with_name(f'{aid}-gradescope.zip').name}")
    return zips


# --------------------------------------------------------------------------
# grade
# --------------------------------------------------------------------------

def question_points(autograder: Path) -> dict[str, float]:
    """{question: points} from the test files inside an autograder zip, in order q1, q2, ..."""
    points = {}
    with zipfile.ZipFile(autograder) as zf:
        for name in zf.namelist():
            if not re.fullmatch(r"tests/[^/]+\.py", name):
                continue
            tree = ast.parse(zf.read(name).decode("utf-8"))
            for node in tree.body:
                if (isinstance(node, ast.Assign) and len(node.targets) == 1
                        and getattr(node.targets[0], "id", None) == "test"):
                    test = ast.literal_eval(node.value)
                    points[test["name"]] = float(test["points"])
    return dict(sorted(points.items(), key=lambda kv: _natural(kv[0])))


def _natural(s: str):
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", s)]


@dataclass
class Result:
    student: str
    scores: dict[str, float]
    status: str = STATUS_OK
    seconds: float = 0.0
    messages: dict[str, str] = field(default_factory=dict)
    note: str = ""
    sha256: str = ""                     # of the file as it was before grading began
    flags: list[str] = field(default_factory=list)   # what the scan of its code found


def _kill_tree(pid: int) -> None:
    """Kill a process and every descendant (the kernel runs in its own session)."""
    import psutil  # a dependency of ipykernel

    try:
        parent = psutil.Process(pid)
    except psutil.NoSuchProcess:
        return
    procs = parent.children(recursive=True) + [parent]
    for p in procs:
        try:
            p.kill()
        except psutil.NoSuchProcess:
            pass
    psutil.wait_procs(procs, timeout=10)


def _zero(points: dict[str, float]) -> dict[str, float]:
    return {q: 0.0 for q in points}


# Run a command with its address space capped (the cap is inherited by the kernel).
# Set in the child before exec, not with Popen's preexec_fn, which is unsafe with threads.
_LIMITED = ("import os, resource, sys; cap = int(float(sys.argv[1]) * 2**20); "
            "resource.setrlimit(resource.RLIMIT_AS, (cap, cap)); os.execv(sys.argv[2], sys.argv[2:])")


def _command(args: list[str], memory_mb: float | None) -> list[str]:
    if not memory_mb:
        return args
    return [sys.executable, "-c", _LIMITED, str(memory_mb), *args]


def submission_cells(nb) -> list[str]:
    """The code a submission brings, for the scan: its code cells but otter's cell, its
    checks and the install cell as the build wrote it."""
    import install_cell

    install = install_cell.cell_source()
    out = []
    for src in grading_protocol.code_sources(nb):
        if src.startswith(GRADER_MARKER) or src == install:
            continue
        src = re.sub(r"^\s*grader\.check(_all)?\(.*\)\s*;?\s*$", "", src, flags=re.M)
        if src.strip():
            out.append(src)
    return out


def grade_one(submission: Path, autograder: Path, points: dict[str, float],
              timeout: float, memory_mb: float | None = 4096, cell_timeout: float = 60,
              test_timeout: int = 20, setup: Path | None = None,
              forbidden: list[str] = (), data: bytes | None = None,
              write_back: bool = False) -> Result:
    """Grade one notebook; never raises.

    ``data`` is the submission's bytes, read once before grading began (``grade`` reads
    every file first; the file itself is never opened again). The submission runs in the
    sandbox (tools/grading/sandbox.py) and the tests in a trusted process
    (tools/grading/trusted.py) that calls its functions over a pipe; ``setup`` is the
    instructor's notebook whose setup cells the tests run with (default: the solution
    notebook next to the autograder zip). The pair gets ``timeout`` seconds of wall time
    and ``memory_mb`` megabytes of address space per process; a cell that runs longer
    than ``cell_timeout`` seconds is stopped and the next one runs; a call into the
    submission that runs longer than ``test_timeout``, or a test (its calls and its own
    computations) that runs longer than ``test_timeout`` + 3 s, fails that test.
    ``write_back``: what a call does to its arguments in place reaches the tests' objects
    (the assignment's ``write_back: true``, where updating them is the contract); else it
    stays in the sandbox, and a call that changed an argument flags the row
    ``changes-its-arguments``.
    """
    import hashlib

    student = submission.stem
    start = time.perf_counter()
    data = submission.read_bytes() if data is None else data
    digest = hashlib.sha256(data).hexdigest()
    try:
        nb = json.loads(data.decode("utf-8"))
        if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list):
            raise ValueError("no cells")
    except Exception as exc:  # not JSON, not a notebook: nothing to run
        return Result(student, _zero(points), STATUS_ERROR, 0.0, sha256=digest,
                      note=f"the file is not a readable notebook ({type(exc).__name__})")
    flags = grading_sandbox.scan(submission_cells(nb), forbidden)
    setup = setup or autograder.parent / f"{autograder.name.removesuffix('-autograder.zip')}.ipynb"
    with tempfile.TemporaryDirectory(prefix="grade-") as tmp:
        os.chmod(tmp, 0o700)
        copy = Path(tmp) / "submission.ipynb"
        copy.write_bytes(data)
        proc = subprocess.Popen(
            _command([sys.executable, str(ROOT / "tools" / "grading" / "trusted.py"),
                      str(autograder), str(setup), str(copy), str(cell_timeout),
                      str(test_timeout), str(timeout + 30),
                      *(["--write-back"] if write_back else [])], memory_mb),  # our limit rules
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=tmp,
            start_new_session=True,
            env=dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1",
                     MKL_NUM_THREADS="1", MPLBACKEND="Agg"))
        try:
            out, _ = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            _kill_tree(proc.pid)
            proc.communicate()
            return Result(student, _zero(points), STATUS_TIMEOUT, time.perf_counter() - start,
                          sha256=digest, flags=flags,
                          note=f"stopped after the time limit of {timeout:g} s "
                               "(an endless loop, or far too slow)")
    seconds = time.perf_counter() - start
    try:
        res = json.loads(out.decode().strip().splitlines()[-1])
    except (ValueError, IndexError):
        return Result(student, _zero(points), STATUS_ERROR, seconds, sha256=digest, flags=flags,
                      note=f"the grader could not run the notebook (exit {proc.returncode})")
    if res.get("changed_arguments") and not write_back:   # where it is the contract, no flag
        flags = sorted({*flags, "changes-its-arguments"})
    scores = {q: round(min(float(res["scores"].get(q, 0.0)), points[q]), 6) for q in points}
    messages = {q: "\n".join(res["public"].get(q, [])) for q in points if scores[q] < points[q]}
    note = res.get("note", "")
    if res.get("cell_errors"):
        e = res["cell_errors"]
        note = "; ".join(filter(None, [note, f"{len(e)} cell(s) raised, the first: cell {e[0]['cell']}"
                                             f" {e[0]['type']}: {e[0]['message'][:120]}"]))
    return Result(student, scores, STATUS_OK, seconds, messages, note, sha256=digest, flags=flags)


def _grader_config(aid: str) -> dict:
    src = SOURCE / aid / f"{aid}.ipynb"
    if not src.is_file():
        return {}
    nb = nbformat.read(src, as_version=4)
    for c in nb.cells:
        if c.cell_type == "raw" and CONFIG_RE.match(c.source):
            return _raw_yaml(c)
    return {}


def forbidden_imports(aid: str) -> list[str]:
    """The modules an assignment forbids (``forbid_imports:`` in its ASSIGNMENT CONFIG cell)."""
    value = _grader_config(aid).get("forbid_imports", [])
    return [value] if isinstance(value, str) else [str(v) for v in value]


def write_back(aid: str) -> bool:
    """Whether the tests see what the student's functions do to their arguments in place
    (``write_back: true`` in the ASSIGNMENT CONFIG cell: the functions' contract is an
    in-place update). Without it the tests' arrays stay as they were."""
    value = _grader_config(aid).get("write_back", False)
    if not isinstance(value, bool):
        raise ValueError(f"{aid}: write_back in the ASSIGNMENT CONFIG must be true or false, "
                         f"not {value!r}")
    return value


def infer_assignment(folder: Path, notebooks: list[Path], dist: Path = DIST) -> str:
    """The assignment a folder of submissions belongs to, from the folder's and files' names
    and from the grader cell each student notebook carries."""
    known = [a for a in (assignment_ids() if SOURCE.is_dir() else [])
             if (dist / a / "autograder" / f"{a}-autograder.zip").is_file()]
    if len(known) == 1:
        return known[0]
    for a in known:
        if a == folder.name or folder.name.startswith(a):
            return a
    votes: dict[str, int] = {}
    for nb in notebooks:
        text = nb.read_text(errors="replace")
        for a in known:
            # the grader cell: otter.Notebook("<id>.ipynb") or _otter_grader("<id>.ipynb", ...)
            if f'(\\"{a}.ipynb\\"' in text or a in nb.stem:
                votes[a] = votes.get(a, 0) + 1
    if votes:
        best = max(votes.values())
        top = [a for a, v in votes.items() if v == best]
        if len(top) == 1:
            return top[0]
    raise SystemExit(f"cannot tell which assignment {folder} holds; "
                     f"pass ASSIGNMENT=<id> (one of {', '.join(known) or 'none built'})")


def feedback_text(r: Result, aid: str, points: dict[str, float]) -> str:
    total, possible = sum(r.scores.values()), sum(points.values())
    lines = [f"Assignment {aid}: feedback for {r.student}",
             f"Total: {total:g} / {possible:g}", ""]
    for q, p in points.items():
        s = r.scores[q]
        lines.append(f"{q}: {s:g} / {p:g}")
        if s < p and r.status == STATUS_OK:
            public = [l for l in r.messages.get(q, "").splitlines() if l.strip()]
            lines += public or ["  the public tests passed; a hidden test failed"]
    if r.status != STATUS_OK or r.note:
        lines += ["", f"Note: {r.note or r.status}"]
    lines += ["", "Each question is all-or-nothing: it scores when all its tests pass. The hidden "
              "tests check your functions on random inputs and against the published numbers."]
    return "\n".join(lines) + "\n"


def grade(folder: Path, assignment: str | None = None, jobs: int = 2, timeout: float = 600,
          out: Path | None = None, autograder: Path | None = None,
          memory_mb: float | None = 4096, cell_timeout: float = 60,
          test_timeout: int = 20) -> list[Result]:
    """Grade every ``*.ipynb`` directly in ``folder``; write grades.csv and feedback files."""
    folder = Path(folder)
    if not folder.is_dir():
        raise SystemExit(f"SUBMISSIONS={folder} is not a folder")
    notebooks = sorted(p for p in folder.glob("*.ipynb") if p.is_file())
    if not notebooks:
        raise SystemExit(f"no .ipynb file in {folder}")
    aid = assignment or (None if autograder else infer_assignment(folder, notebooks))
    autograder = Path(autograder).resolve() if autograder else autograder_path(aid)
    aid = aid or autograder.name.removesuffix("-autograder.zip")
    if not autograder.is_file():
        raise SystemExit(f"{autograder} does not exist: run `make assignments` first")
    points = question_points(autograder)
    grading_sandbox.bwrap_path()              # no sandbox, no grading: stops saying what to install
    grading_sandbox.mlbook_site()             # the sandbox's mlbook, built once before the jobs start
    forbidden = forbidden_imports(aid)
    back = write_back(aid)
    out = Path(out) if out else folder / "graded"
    (out / "feedback").mkdir(parents=True, exist_ok=True)
    # every submission read once, before any is graded: its hash is of what was handed in,
    # and what a submission does while graded cannot change another's input
    data = {nb: nb.read_bytes() for nb in notebooks}
    print(f"grading {len(notebooks)} notebooks of {aid} ({len(points)} questions, "
          f"{sum(points.values()):g} points), {jobs} at a time; limits: {timeout:g} s per "
          f"notebook, {cell_timeout:g} s per cell, {test_timeout:g} s per test")
    start = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = {pool.submit(grade_one, nb, autograder, points, timeout, memory_mb,
                               cell_timeout, test_timeout, None, forbidden, data[nb], back): nb
                   for nb in notebooks}
        results = []
        for fut in concurrent.futures.as_completed(futures):
            nb = futures[fut]
            try:
                r = fut.result()
            except Exception as exc:  # a bug of ours must not cost the other students
                r = Result(nb.stem, _zero(points), STATUS_ERROR, note=f"grader error: {exc!r}",
                           sha256=__import__("hashlib").sha256(data[nb]).hexdigest())
            results.append(r)
            print(f"  {r.student:>20}: {sum(r.scores.values()):g} / {sum(points.values()):g}"
                  f"  [{r.status}, {r.seconds:.1f} s]" + (f"  flags: {' '.join(r.flags)}" if r.flags else ""))
    results.sort(key=lambda r: _natural(r.student))
    with open(out / "grades.csv", "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["student", *points, "total", "status", "seconds", "flags", "sha256"])
        for r in results:
            w.writerow([r.student, *(f"{r.scores[q]:g}" for q in points),
                        f"{sum(r.scores.values()):g}", r.status, f"{r.seconds:.1f}",
                        " ".join(r.flags), r.sha256])
    for r in results:
        (out / "feedback" / f"{r.student}.txt").write_text(feedback_text(r, aid, points))
    wall = time.perf_counter() - start
    print(f"wrote {out / 'grades.csv'} and {len(results)} feedback files in {wall:.1f} s "
          f"({wall / len(results):.1f} s per submission with {jobs} at a time)")
    return results


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="generate student notebooks and autograders")
    b.add_argument("ids", nargs="*", help="assignment ids (default: every one)")
    b.add_argument("--jobs", type=int, default=2)
    g = sub.add_parser("grade", help="grade a folder of submitted notebooks")
    g.add_argument("folder", type=Path)
    g.add_argument("--assignment", default=None, help="assignment id (inferred if omitted)")
    g.add_argument("--jobs", type=int, default=2, help="submissions graded at a time")
    g.add_argument("--timeout", type=float, default=600, help="seconds per submission")
    g.add_argument("--cell-timeout", type=float, default=60,
                   help="seconds per cell; a longer cell is interrupted and the next one runs")
    g.add_argument("--test-timeout", type=int, default=20, help="seconds per test")
    g.add_argument("--memory", type=float, default=4096,
                   help="megabytes of address space per process (0: no limit)")
    g.add_argument("--out", type=Path, default=None, help="default: FOLDER/graded")
    args = parser.parse_args(argv)
    if args.command == "build":
        build(args.ids, jobs=args.jobs)
    else:
        grade(args.folder, args.assignment or None, jobs=args.jobs, timeout=args.timeout,
              out=args.out, memory_mb=args.memory or None, cell_timeout=args.cell_timeout,
              test_timeout=args.test_timeout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
