"""The course assignments: generated student versions and the offline grader.

Parametrised over every ``assignments/source/<id>/``, so a new assignment is tested
as soon as it lands. The quick part (``make test``) builds every assignment, checks
what the student version holds, checks the wrong answers apply, and grades one
folder of broken submissions (and, alone under a short limit, one whose loop
swallows interrupts). Builds are kept in ``.venv/cache/assignments`` by the hash
of their inputs. The full part grades every assignment's solution, blank student
version and wrong answers; it is slow (one Jupyter kernel per notebook), so it is
marked ``slow`` and runs only with ``MLBOOK_GRADE_ALL=1``: ``make test-all``
(which ``.ci/run`` calls) or ``make test-assignments``.
"""

from __future__ import annotations

import concurrent.futures
import copy
import json
import os
import re
import shutil
import sys
from pathlib import Path

import nbformat
import pytest
import yaml

pytest.importorskip("otter", reason="otter-grader is in the test extra")

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
try:
    import assignments as tool
    import install_cell
finally:
    sys.path.pop(0)

IDS = tool.assignment_ids()
CACHE = ROOT / ".venv" / "cache" / "assignments"   # builds kept between runs, by input hash
GRADE_ALL = os.environ.get("MLBOOK_GRADE_ALL") == "1"
# Seconds per submission in these tests. A solution notebook grades in 5-30 s on a
# shared 2-core machine, and one whose function loops spends two cell limits and its
# tests' limits on top; a loop that ignores interrupts must be stopped at this limit.
TIMEOUT = float(os.environ.get("MLBOOK_GRADE_TIMEOUT", "90"))
# Seconds per cell and per test: well above what any cell or test of decision_trees
# takes (its slowest test needs 0.33 s of CPU; its slowest cell imports mlbook), well
# below TIMEOUT.
CELL_TIMEOUT, TEST_TIMEOUT = 8, 4
MARKERS = re.compile(r"#\s*(BEGIN|END)\s+(SOLUTION|QUESTION|TESTS|PROMPT)|#\s*HIDDEN\b|#\s*SOLUTION\b"
                     r"|ASSIGNMENT CONFIG", re.I)


# --------------------------------------------------------------------------
# fixtures: build every assignment once, into a temporary dist/
# --------------------------------------------------------------------------

@pytest.fixture(scope="session")
def built() -> dict[str, Path]:
    """{id: its dist folder}, built with otter assign (two at a time), or reused from
    the last run when no input changed (``tool.build_cached``, in ``.venv/cache``)."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip(IDS, pool.map(lambda a: tool.build_cached(a, CACHE), IDS)))


def test_a_cached_build_is_keyed_on_its_inputs(tmp_path, monkeypatch):
    # the key changes with the assignment's source and returns with it; another
    # assignment's key is another key
    src = tmp_path / "source"
    shutil.copytree(tool.SOURCE / IDS[0], src / IDS[0])
    shutil.copy(tool.SOURCE.parent / "otter_config.yml", tmp_path / "otter_config.yml")
    monkeypatch.setattr(tool, "SOURCE", src)
    nb = src / IDS[0] / f"{IDS[0]}.ipynb"
    before, text = tool.build_key(IDS[0]), nb.read_text()
    nb.write_text(text.replace("def ", "def  ", 1))
    assert tool.build_key(IDS[0]) != before
    nb.write_text(text)
    assert tool.build_key(IDS[0]) == before
    (tmp_path / "otter_config.yml").write_text("changed: true\n")
    assert tool.build_key(IDS[0]) != before


def _student(built, aid):
    return nbformat.read(built[aid] / "student" / f"{aid}.ipynb", as_version=4)


def _solution(built, aid):
    return nbformat.read(built[aid] / "autograder" / f"{aid}.ipynb", as_version=4)


def _zip(built, aid) -> Path:
    return built[aid] / "autograder" / f"{aid}-autograder.zip"


def _source(aid):
    return nbformat.read(tool.SOURCE / aid / f"{aid}.ipynb", as_version=4)


def _source_parts(aid):
    """(solution lines, hidden-test lines, every other source line), stripped."""
    nb = _source(aid)
    solution, hidden, other = set(), set(), set()
    in_solution = in_tests = False
    for cell in nb.cells:
        first = cell.source.lstrip().split("\n", 1)[0]
        if cell.cell_type == "raw":
            if re.match(r"#\s*BEGIN\s+SOLUTION", first, re.I):
                in_solution = True
            elif re.match(r"#\s*END\s+SOLUTION", first, re.I):
                in_solution = False
            elif re.match(r"#\s*BEGIN\s+TESTS", first, re.I):
                in_tests = True
            elif re.match(r"#\s*END\s+TESTS", first, re.I):
                in_tests = False
            continue
        lines = [l.strip() for l in cell.source.splitlines() if l.strip()]
        if cell.cell_type == "code" and in_tests and re.match(r"#\s*HIDDEN", first, re.I):
            hidden.update(lines[1:])
        elif cell.cell_type == "code" and in_solution:
            inside = False
            for raw_line in cell.source.splitlines():
                line = raw_line.strip()
                if re.match(r"#\s*BEGIN\s+SOLUTION", line):
                    inside = True
                elif re.match(r"#\s*END\s+SOLUTION", line):
                    inside = False
                elif inside or line.endswith("# SOLUTION"):
                    if line:
                        solution.add(line)
                elif line:
                    other.add(line)
        else:
            other.update(lines)
    return solution, hidden, other


def _student_text(nb) -> set[str]:
    """Every stripped line a student can see: cell sources and the public tests in metadata."""
    lines = set()
    for cell in nb.cells:
        lines.update(l.strip() for l in cell.source.splitlines())
    for test in nb.metadata.get("otter", {}).get("tests", {}).values():
        for suite in test["suites"]:
            for case in suite["cases"]:
                lines.update(l[4:].strip() for l in case["code"].splitlines())
    return lines - {""}


# --------------------------------------------------------------------------
# quick: the contract and the student version
# --------------------------------------------------------------------------

def test_there_are_assignments():
    assert {"decision_trees", "model_evaluation", "supervised_learning"} <= set(IDS)


def test_shared_config_is_what_the_build_promises():
    shared = yaml.safe_load(tool.SHARED_CONFIG.read_text())
    # offline: no PDF (LaTeX), no export zip, tests that assert and travel in the notebook
    assert shared["init_cell"] is False and shared["export_cell"] is False
    assert shared["solutions_pdf"] is False and shared["generate"]["pdf"] is False
    assert shared["tests"] == {"files": False, "ok_format": True}


@pytest.mark.parametrize("aid", IDS)
def test_source_follows_the_contract(aid):
    nb = _source(aid)
    raw = [c.source for c in nb.cells if c.cell_type == "raw"]
    assert sum(bool(re.match(r"#\s+ASSIGNMENT CONFIG", r, re.I)) for r in raw) == 1
    questions = [yaml.safe_load(r.split("\n", 1)[1]) for r in raw
                 if re.match(r"#\s+BEGIN QUESTION", r, re.I)]
    assert questions, f"{aid} has no question"
    names = [q["name"] for q in questions]
    assert names == [f"q{i}" for i in range(1, len(names) + 1)], f"{aid}: questions {names}"
    for q in questions:
        assert isinstance(q["points"], int) and q["points"] > 0, f"{aid} {q['name']}: points"
    prepared = tool.prepare(nb, f"{aid}.ipynb")     # raises on a broken contract
    code = [c for c in prepared.cells if c.cell_type == "code"]
    assert code[0].source == install_cell.cell_source()
    assert code[1].source.startswith(tool.GRADER_MARKER)


@pytest.mark.parametrize("aid", IDS)
def test_student_version_has_no_solution_and_no_hidden_test(built, aid):
    nb = _student(built, aid)
    code = [c for c in nb.cells if c.cell_type == "code"]
    # the same install cell as the chapters, first; then the cell that loads otter
    assert code[0].source == install_cell.cell_source()
    assert code[0].metadata.get("tags") == ["remove-cell"]
    assert code[1].source.startswith(tool.GRADER_MARKER) and f'"{aid}.ipynb"' in code[1].source
    seen = _student_text(nb)
    solution, hidden, other = _source_parts(aid)
    assert solution and hidden, f"{aid}: no solution or no hidden test found in the source"
    leaked = sorted((solution - other) & seen)
    assert not leaked, f"{aid}: the student version shows solution lines {leaked[:5]}"
    leaked = sorted((hidden - other) & seen)
    assert not leaked, f"{aid}: the student version shows hidden-test lines {leaked[:5]}"
    text = "\n".join(c.source for c in nb.cells)
    assert not MARKERS.search(text), f"{aid}: otter markers left in the student version"
    # every question has its grader.check cell: otter leaves it out when it takes every
    # public test for hidden (it does so when a test's first line holds the word "hidden")
    checks = [m.group(1) for c in code
              if (m := re.fullmatch(r'grader\.check\("(q\d+)"\)', c.source.strip()))]
    assert checks == sorted(nb.metadata["otter"]["tests"], key=lambda q: int(q[1:])), (
        f"{aid}: grader.check cells {checks}")
    for test in nb.metadata["otter"]["tests"].values():
        for suite in test["suites"]:
            assert not any(case["hidden"] for case in suite["cases"])
    # ...and the autograder holds them all
    assert set(tool.question_points(_zip(built, aid))) == set(nb.metadata["otter"]["tests"])


@pytest.mark.parametrize("aid", IDS)
def test_grader_cell_carries_exactly_the_public_tests(built, aid):
    # on Colab the grader cell writes these out for otter (tests/test_colab.py runs it there)
    import ast

    nb = _student(built, aid)
    cell = next(c for c in nb.cells if c.source.startswith(tool.GRADER_MARKER))
    call = ast.parse(cell.source).body[-1].value
    assert ast.unparse(call.func) == "_otter_grader" and call.args[0].value == f"{aid}.ipynb"
    carried = {q: tool._otter_test(q, *v) for q, v in ast.literal_eval(call.args[1]).items()}
    # the metadata's tests: public only (test_student_version_has_no_solution_and_no_hidden_test)
    assert carried == nb.metadata["otter"]["tests"]
    # the solution notebook next to the autograder has the same cell; its own metadata
    # holds the hidden tests too, and the build refuses to copy those
    solution = _solution(built, aid)
    assert cell.source in [c.source for c in solution.cells]
    with pytest.raises(ValueError, match="a hidden test is in the student notebook"):
        tool.public_tests(solution)


def test_the_student_view_check_can_fail(built):
    # the leak check above is real: the solution notebook does show its solution lines
    aid = IDS[0]
    solution, _, other = _source_parts(aid)
    assert (solution - other) & _student_text(_solution(built, aid))


def _wrong_answers(aid):
    path = tool.SOURCE / aid / "wrong_answers.yml"
    assert path.is_file(), f"{aid}: no wrong_answers.yml"
    entries = yaml.safe_load(path.read_text())
    assert isinstance(entries, list) and entries, f"{aid}: wrong_answers.yml lists no mistake"
    return entries


def apply_wrong_answer(nb, entry):
    """A copy of the solution notebook with one mistake written into its answer cell."""
    nb = copy.deepcopy(nb)
    hits = [c for c in nb.cells if c.cell_type == "code" and entry["replace"] in c.source]
    assert len(hits) == 1 and hits[0].source.count(entry["replace"]) == 1, (
        f"{entry['replace']!r} must occur exactly once in the solution notebook")
    hits[0].source = hits[0].source.replace(entry["replace"], entry["with"])
    return nb


@pytest.mark.parametrize("aid", IDS)
def test_wrong_answers_apply_to_a_solution_cell(built, aid):
    points = tool.question_points(_zip(built, aid))
    solution, _, _ = _source_parts(aid)
    for entry in _wrong_answers(aid):
        assert set(entry) >= {"question", "description", "replace", "with"}, entry
        assert entry["question"] in points, f"{aid}: no question {entry['question']}"
        assert entry["replace"] != entry["with"]
        apply_wrong_answer(_solution(built, aid), entry)
        # it edits the solution, not a line the student is given
        assert any(entry["replace"] in line for line in solution), entry


# --------------------------------------------------------------------------
# grading
# --------------------------------------------------------------------------

def _answer_cells(nb) -> dict[str, list[int]]:
    """{question: indices of its answer cells}: the code cells before its check cell."""
    out, pending = {}, []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        m = re.fullmatch(r'grader\.check\("(q\d+)"\)', cell.source.strip())
        if m:
            out[m.group(1)] = pending
            pending = []
        elif "otter_assign_solution_cell" in cell.metadata.get("tags", []):
            pending.append(i)
    return out


def _write(nb, path):
    nbformat.write(nb, path)
    return path


def _by_student(results):
    return {r.student: r for r in results}


def _decision_trees_setup(built, tmp_path):
    """decision_trees' solution, its points, its answer cells and an empty submissions folder."""
    sol = _solution(built, "decision_trees")
    folder = tmp_path / "submissions"
    folder.mkdir()
    return sol, tool.question_points(_zip(built, "decision_trees")), _answer_cells(sol), folder


def test_broken_submissions_score_zero_where_they_break_and_never_stop_the_run(built, tmp_path):
    aid = "decision_trees"
    sol, points, cells, folder = _decision_trees_setup(built, tmp_path)
    qs = list(points)
    _write(sol, folder / "solution.ipynb")
    # a syntax error in q1's answer: only q1 is lost
    nb = copy.deepcopy(sol)
    nb.cells[cells[qs[0]][0]].source += "\ndef broken(:\n"
    _write(nb, folder / "syntax_error.ipynb")
    # q2's answer raises before it defines anything
    nb = copy.deepcopy(sol)
    nb.cells[cells[qs[1]][0]].source = 'raise RuntimeError("crash")\n' + nb.cells[cells[qs[1]][0]].source
    _write(nb, folder / "crash.ipynb")
    # the last question's answer cell deleted
    nb = copy.deepcopy(sol)
    for i in sorted(cells[qs[-1]], reverse=True):
        del nb.cells[i]
    _write(nb, folder / "deleted_cell.ipynb")
    # every cell deleted
    nb = copy.deepcopy(sol)
    nb.cells = []
    _write(nb, folder / "empty.ipynb")
    # an import that fails: numpy is never bound to np
    nb = copy.deepcopy(sol)
    at = next(i for i, c in enumerate(nb.cells) if c.cell_type == "code"
              and "import numpy as np" in c.source and "otter" not in c.source)
    setup = nb.cells[at]
    setup.source = setup.source.replace("import numpy as np", "import numpy_not_installed as np")
    _write(nb, folder / "import_error.ipynb")
    # an endless loop in a cell of its own, right after the setup: interrupted, harmless
    nb = copy.deepcopy(sol)
    nb.cells.insert(at + 1, nbformat.v4.new_code_cell("while True:\n    pass"))
    _write(nb, folder / "endless_loop.ipynb")
    # q2's function never returns: its tests fail on the time limit per test, and q3 (which
    # would call it by default) is graded with mlbook's gain
    nb = copy.deepcopy(sol)
    nb.cells[cells[qs[1]][0]].source = (
        "def information_gain(x, y, ent=None):\n    while True:\n        pass\n")
    _write(nb, folder / "looping_function.ipynb")
    # (a loop that swallows the interrupts: the next test, with a shorter limit)
    (folder / "not_a_notebook.ipynb").write_text("{ this is not JSON")
    (folder / "notes.txt").write_text("not a submission")

    results = _by_student(tool.grade(folder, autograder=_zip(built, aid), jobs=2, timeout=TIMEOUT,
                                     cell_timeout=CELL_TIMEOUT, test_timeout=TEST_TIMEOUT))
    full = dict(points)
    zero = {q: 0.0 for q in points}
    expected = {
        "solution": full,
        "syntax_error": {**full, qs[0]: 0.0},
        "crash": {**full, qs[1]: 0.0},
        "deleted_cell": {**full, qs[-1]: 0.0},
        "endless_loop": full,
        "looping_function": {**full, qs[1]: 0.0},
        "empty": zero, "import_error": zero, "not_a_notebook": zero,
    }
    assert set(results) == set(expected)          # notes.txt is not graded
    for student, scores in expected.items():
        assert results[student].scores == scores, (student, results[student])
    assert results["not_a_notebook"].status == tool.STATUS_ERROR
    assert results["solution"].status == tool.STATUS_OK

    # the gradebook: one row per student, one column per question, the total
    rows = (folder / "graded" / "grades.csv").read_text().splitlines()
    assert rows[0] == ",".join(["student", *qs, "total", "status", "seconds", "flags", "sha256"])
    assert len(rows) == 1 + len(expected)
    by_name = {r.split(",")[0]: r.split(",") for r in rows[1:]}
    assert float(by_name["solution"][len(qs) + 1]) == sum(points.values())
    assert float(by_name["crash"][len(qs) + 1]) == sum(points.values()) - points[qs[1]]
    feedback = (folder / "graded" / "feedback" / "crash.txt").read_text()
    assert f"{qs[1]}: 0 / {points[qs[1]]:g}" in feedback
    # feedback quotes public tests only: no hidden test line reaches a student
    _, hidden, other = _source_parts(aid)
    for student in expected:
        text = (folder / "graded" / "feedback" / f"{student}.txt").read_text()
        assert not [l for l in hidden - other if len(l) > 15 and l in text], student


# The notebook limit for a loop that swallows interrupts. It only has to outlast the
# kernel's start and the setup cells before the loop (under 5 s for decision_trees on
# a loaded 2-core machine); the run below must end by the limit, not by the loop.
STUBBORN_TIMEOUT = 20


def test_a_loop_that_swallows_interrupts_is_stopped_at_the_notebook_limit(built, tmp_path):
    aid = "decision_trees"
    sol = _solution(built, aid)
    points = tool.question_points(_zip(built, aid))
    at = next(i for i, c in enumerate(sol.cells) if c.cell_type == "code"
              and "import numpy as np" in c.source and "otter" not in c.source)
    nb = copy.deepcopy(sol)
    nb.cells.insert(at + 1, nbformat.v4.new_code_cell(
        "while True:\n    try:\n        while True:\n            pass\n"
        "    except BaseException:\n        pass\n"))    # its time limits included
    folder = tmp_path / "submissions"
    folder.mkdir()
    _write(nb, folder / "stubborn_loop.ipynb")
    (result,) = tool.grade(folder, autograder=_zip(built, aid), jobs=1, timeout=STUBBORN_TIMEOUT,
                           cell_timeout=CELL_TIMEOUT, test_timeout=TEST_TIMEOUT)
    assert result.scores == {q: 0.0 for q in points}
    assert result.status == tool.STATUS_TIMEOUT
    # stopped at the limit and its kernel killed: not left to run on
    assert STUBBORN_TIMEOUT <= result.seconds < STUBBORN_TIMEOUT + 30, result.seconds


def full_grading(test):
    """Grading every assignment is slow: marked so, and run only with MLBOOK_GRADE_ALL=1
    (`make test-all`, which CI runs)."""
    return pytest.mark.slow(pytest.mark.skipif(
        not GRADE_ALL, reason="grading every assignment is slow: `make test-all` (CI runs it)")(test))


@full_grading
@pytest.mark.parametrize("aid", IDS)
def test_solution_full_blank_zero_and_each_wrong_answer_loses_its_question(built, aid, tmp_path):
    points = tool.question_points(_zip(built, aid))
    folder = tmp_path / aid
    folder.mkdir()
    sol = _solution(built, aid)
    _write(sol, folder / "solution.ipynb")
    _write(_student(built, aid), folder / "blank.ipynb")
    wrong = _wrong_answers(aid)
    for k, entry in enumerate(wrong):
        _write(apply_wrong_answer(sol, entry), folder / f"wrong_{k}.ipynb")
    results = _by_student(tool.grade(folder, autograder=_zip(built, aid), jobs=2,
                                     timeout=max(TIMEOUT, 300), cell_timeout=60, test_timeout=20))
    assert results["solution"].scores == points, results["solution"]
    # an honest solution raises no flag (in optimisers, write_back: true, its steps update
    # the state they are given by contract, which flags nothing)
    assert results["solution"].flags == [], results["solution"]
    assert results["blank"].scores == {q: 0.0 for q in points}, results["blank"]
    for k, entry in enumerate(wrong):
        got = results[f"wrong_{k}"].scores
        want = {**points, entry["question"]: 0.0}
        assert got == want, f"{aid}: wrong answer {entry['description']!r} scored {got}"


def test_the_memory_cap_reaches_the_child(tmp_path):
    # 4 GiB of address space asked for under a 1 GiB cap: MemoryError, not a thrashing machine
    code = "import numpy as np; np.empty(2**29)"
    done = __import__("subprocess").run(tool._command([sys.executable, "-c", code], 1024),
                                        capture_output=True, text=True)
    assert done.returncode != 0 and "MemoryError" in done.stderr
    done = __import__("subprocess").run(tool._command([sys.executable, "-c", "print(1)"], 1024),
                                        capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.strip() == "1"


def test_the_assignment_of_a_folder_is_inferred(built, tmp_path):
    dist = tmp_path / "dist"          # laid out as `make assignments` writes it
    dist.mkdir()
    for aid, folder in built.items():
        (dist / aid).symlink_to(folder)
    named = tmp_path / "decision_trees_2026"
    named.mkdir()
    assert tool.infer_assignment(named, [], dist=dist) == "decision_trees"
    # otherwise from the grader cell the student notebooks carry
    other = tmp_path / "week3"
    other.mkdir()
    nbformat.write(_student(built, "model_evaluation"), other / "alice.ipynb")
    nbformat.write(_student(built, "model_evaluation"), other / "bob.ipynb")
    assert tool.infer_assignment(other, sorted(other.glob("*.ipynb")), dist=dist) == "model_evaluation"
    empty = tmp_path / "nothing"
    empty.mkdir()
    (empty / "x.ipynb").write_text("{}")
    with pytest.raises(SystemExit, match="ASSIGNMENT="):
        tool.infer_assignment(empty, [empty / "x.ipynb"], dist=dist)


# --------------------------------------------------------------------------
# the sandbox: hostile submissions, honest ones
# --------------------------------------------------------------------------

def _listening_socket():
    """A port on this machine that records every connection made to it."""
    import socket
    import threading

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    server.settimeout(0.2)
    seen, stop = [], threading.Event()

    def serve():
        while not stop.is_set():
            try:
                conn, _ = server.accept()
                seen.append(conn.recv(100))
                conn.close()
            except OSError:
                pass

    threading.Thread(target=serve, daemon=True).start()
    return server.getsockname()[1], seen, stop


def test_hostile_submissions_score_nothing_are_flagged_and_leave_no_trace(built, tmp_path):
    # tests/hostile/attacks.py: one cell per attack, appended to the blank notebook; each
    # runs whatever it manages to steal, so any mark it gets is the attack's
    import hashlib
    import time

    import psutil

    sys.path.insert(0, str(ROOT / "tests" / "hostile"))
    try:
        from attacks import ATTACKS
    finally:
        sys.path.pop(0)
    aid = "decision_trees"
    autograder = _zip(built, aid)
    points = tool.question_points(autograder)
    folder = tmp_path / "submissions"
    folder.mkdir()
    marker = f"mlbook-hostile-{os.getpid()}-{time.time_ns()}"
    marker_seconds = f"{300 + time.time_ns() % 997 / 1000:.3f}"   # `sleep <this>`: findable
    port, connections, stop = _listening_socket()
    for name, (_, cell) in ATTACKS.items():
        nb = _student(built, aid)
        nb.cells.append(nbformat.v4.new_code_cell(cell.format(
            folder=str(folder), root=str(ROOT), autograder=str(autograder), marker=marker,
            marker_seconds=marker_seconds, port=port)))
        _write(nb, folder / f"{name}.ipynb")
    _write(_solution(built, aid), folder / "classmate.ipynb")
    handed_in = {p.name: p.read_bytes() for p in folder.glob("*.ipynb")}
    try:
        results = _by_student(tool.grade(folder, autograder=autograder, jobs=2, timeout=TIMEOUT,
                                         cell_timeout=CELL_TIMEOUT, test_timeout=TEST_TIMEOUT))
        gradebook = (folder / "graded" / "grades.csv").read_bytes()
        time.sleep(6)        # the detached writers wait 3 s after their notebook ran
    finally:
        stop.set()
    assert (folder / "graded" / "grades.csv").read_bytes() == gradebook
    zero = {q: 0.0 for q in points}
    for name, (flag, _) in ATTACKS.items():
        r = results[name]
        assert r.scores == zero, (name, r)
        assert flag in r.flags, (name, r.flags)
        assert r.sha256 == hashlib.sha256(handed_in[f"{name}.ipynb"]).hexdigest()
    # the classmate is graded as handed in, and their file is untouched
    assert results["classmate"].scores == points and results["classmate"].flags == []
    assert {p.name: p.read_bytes() for p in folder.glob("*.ipynb")} == handed_in
    assert sorted(p.name for p in folder.iterdir()) == sorted([*handed_in, "graded"])
    # nothing left behind: no file, no process, no connection made
    assert not (Path("/tmp") / marker).exists() and not (Path("/dev/shm") / marker).exists()
    assert not (Path("/tmp") / "stolen_tests.txt").exists()
    left = [p.info for p in psutil.process_iter(["pid", "cmdline"])
            if marker_seconds in " ".join(p.info["cmdline"] or [])]
    assert not left, left
    assert connections == []
    rows = {r.split(",")[0]: r for r in gradebook.decode().splitlines()[1:]}
    assert "answers_whose_eq_is_always_true" in rows and "defines-__eq__" in rows[
        "answers_whose_eq_is_always_true"]


def test_honest_work_any_kernel_and_an_interrupt_costs_one_question(built, tmp_path):
    aid = "decision_trees"
    sol, points, cells, folder = _decision_trees_setup(built, tmp_path)
    qs = list(points)
    # saved from a conda kernel: the grader runs its code, whatever the kernel's name
    nb = copy.deepcopy(sol)
    nb.metadata["kernelspec"] = {"name": "conda-env-ml-py", "display_name": "Python [conda env:ml]",
                                 "language": "python"}
    _write(nb, folder / "conda_kernel.ipynb")
    # q1's function raises KeyboardInterrupt, q2's SystemExit: each loses its own question
    nb = copy.deepcopy(sol)
    nb.cells[cells[qs[0]][0]].source += "\n\ndef entropy(y):\n    raise KeyboardInterrupt\n"
    _write(nb, folder / "interrupt.ipynb")
    nb = copy.deepcopy(sol)
    nb.cells[cells[qs[1]][0]].source += "\n\ndef information_gain(x, y, ent=None):\n    raise SystemExit(1)\n"
    _write(nb, folder / "exits.ipynb")
    results = _by_student(tool.grade(folder, autograder=_zip(built, aid), jobs=2, timeout=TIMEOUT,
                                     cell_timeout=CELL_TIMEOUT, test_timeout=TEST_TIMEOUT))
    assert results["conda_kernel"].scores == points
    assert results["interrupt"].scores == {**points, qs[0]: 0.0}
    assert results["exits"].scores == {**points, qs[1]: 0.0}
    feedback = (folder / "graded" / "feedback" / "interrupt.txt").read_text()
    assert "KeyboardInterrupt" in feedback and "the public tests passed" not in feedback


def test_grading_stops_without_bubblewrap(built, tmp_path, monkeypatch):
    # no sandbox, no grading: never a silent fall-back to running the notebook unsandboxed
    aid = "decision_trees"
    folder = tmp_path / "submissions"
    folder.mkdir()
    _write(_solution(built, aid), folder / "solution.ipynb")
    monkeypatch.setattr(tool.grading_sandbox.shutil, "which", lambda name, *a, **k: None)
    with pytest.raises(SystemExit, match=r"Install Debian's bubblewrap.*apt-get install bubblewrap"):
        tool.grade(folder, autograder=_zip(built, aid))
    assert not (folder / "graded" / "grades.csv").exists()


def _gradescope_zip(built, aid: str, tmp_path: Path) -> tuple[Path, Path]:
    """Gradescope's zip of an assignment, with the book's wheel in it: (zip, wheel)."""
    sys.path.insert(0, str(ROOT / "_ext"))
    try:
        import site_wheel
    finally:
        sys.path.pop(0)
    wheel = site_wheel.build_wheel(ROOT, tmp_path / "wheel")
    z = tool.gradescope.build(aid, tmp_path / f"{aid}-gradescope.zip", _zip(built, aid),
                              built[aid] / "autograder" / f"{aid}.ipynb", wheel)
    return z, wheel


def _unpack_for_gradescope(z: Path, wheel: Path, root: Path, nb, aid: str) -> None:
    """The zip unpacked as Gradescope does (into <root>/source), the submission in
    <root>/submission, and what setup.sh installs, offline: the book's mlbook from the
    zip's wheel (NumPy is this venv's); the sandbox uses it, not the checkout's editable
    install. <root> stands for /autograder (MLBOOK_AUTOGRADER_ROOT)."""
    import subprocess
    import zipfile

    with zipfile.ZipFile(z) as zf:
        zf.extractall(root / "source")
    (root / "submission").mkdir()
    _write(nb, root / "submission" / f"{aid}.ipynb")
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-index",
                    "--target", str(root / "mlbook"), str(root / "source" / wheel.name)],
                   check=True)


def test_the_gradescope_autograder_grades_the_solution_and_the_blank(built, tmp_path):
    # its run_autograder run on each notebook
    import subprocess
    import zipfile

    aid = "decision_trees"
    points = tool.question_points(_zip(built, aid))
    z, wheel = _gradescope_zip(built, aid, tmp_path)
    with zipfile.ZipFile(z) as zf:
        names = set(zf.namelist())
        assert {"setup.sh", "run_autograder", "limits.json", wheel.name} <= names
        assert {f"tests/{q}.py" for q in points} <= names
        setup = zf.read("setup.sh").decode()
        assert wheel.name in setup and "bubblewrap" in setup
        limits = json.loads(zf.read("limits.json"))
        assert limits["test_timeout"] > 0 and limits["cell_timeout"] > 0 and limits["timeout"] > 0
        # the instructor's setup goes in, never a solution line
        solution, _, other = _source_parts(aid)
        carried = zf.read("setup_cells.json").decode()
        assert not [l for l in solution - other if len(l) > 15 and l in carried]
    for who, nb, want in (("solution", _solution(built, aid), points),
                          ("blank", _student(built, aid), {q: 0.0 for q in points})):
        root = tmp_path / who / "autograder"
        _unpack_for_gradescope(z, wheel, root, nb, aid)
        env = dict(os.environ, MLBOOK_AUTOGRADER_ROOT=str(root), MLBOOK_AUTOGRADER_PYTHON=sys.executable,
                   MLBOOK_SANDBOX_MLBOOK=str(root / "mlbook"))
        done = subprocess.run(["bash", str(root / "source" / "run_autograder")], env=env,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr[-2000:]
        res = json.loads((root / "results" / "results.json").read_text())
        assert {t["name"]: t["score"] for t in res["tests"]} == want, res
        assert {t["name"]: t["max_score"] for t in res["tests"]} == points
        assert res["score"] == sum(want.values())


# the fallback's hostile cell: looks for the hidden tests and the results folder, leaves
# a daemon, writes full marks wherever it can
_FALLBACK_ATTACK = '''
import json, os, subprocess
found = []
for d in ({source!r}, {source!r} + "/tests", {results!r}):
    try:
        found.append(os.listdir(d))
    except OSError:
        pass
for d in ({results!r}, "."):
    try:
        json.dump({{"score": 99, "tests": []}}, open(os.path.join(d, "results.json"), "w"))
    except OSError:
        pass
open(os.path.expanduser("~/found.json"), "w").write(json.dumps(found))
subprocess.Popen(["sleep", "{marker}"], start_new_session=True)
if os.fork() == 0:
    os.setsid()
    os.execvp("sleep", ["sleep", "{marker}"])
def entropy(y):
    if found:
        return 1.0
    raise ValueError("nothing found")
'''


def test_the_gradescope_fallback_without_bwrap_runs_the_submission_as_another_user(built, tmp_path):
    # MLBOOK_SANDBOX=none: the submission runs as another user (nobody on Gradescope; here
    # a uid no process has, so that killing that user's processes touches nothing else),
    # cannot read the hidden tests or write the results, leaves no process and no folder
    import subprocess
    import tempfile
    import time

    import psutil

    aid = "decision_trees"
    points = tool.question_points(_zip(built, aid))
    # a Python another user can run (this venv's may live in root's home), of this
    # version, so that the venv's NumPy loads in it
    python = shutil.which(f"python{sys.version_info.major}.{sys.version_info.minor}",
                          path="/usr/bin:/usr/local/bin")
    if python is None:
        pytest.skip(f"no system python{sys.version_info.major}.{sys.version_info.minor} "
                    "for the fallback's other user")
    used = {p.info["uids"].real for p in psutil.process_iter(["uids"]) if p.info["uids"]}
    uid = next(u for u in range(47000 + os.getpid() % 1000, 60000) if u not in used)
    marker = f"{400 + time.time_ns() % 997 / 1000:.3f}"
    # the layout must be reachable by that user, as /autograder is: not under pytest's
    # private tmp_path
    world = Path(tempfile.mkdtemp(prefix="mlbook-gradescope-"))
    try:
        os.chmod(world, 0o755)
        root, tmp = world / "autograder", world / "tmp"
        tmp.mkdir(mode=0o755)
        z, wheel = _gradescope_zip(built, aid, tmp_path)
        nb = _student(built, aid)
        nb.cells.append(nbformat.v4.new_code_cell(_FALLBACK_ATTACK.format(
            source=str(root / "source"), results=str(root / "results"), marker=marker)))
        _unpack_for_gradescope(z, wheel, root, nb, aid)
        env = dict(os.environ, MLBOOK_AUTOGRADER_ROOT=str(root), MLBOOK_AUTOGRADER_PYTHON=sys.executable,
                   MLBOOK_SANDBOX_MLBOOK=str(root / "mlbook"), MLBOOK_SANDBOX="none",
                   MLBOOK_SANDBOX_UID=str(uid), MLBOOK_SANDBOX_PYTHON=python, TMPDIR=str(tmp))
        done = subprocess.run(["bash", str(root / "source" / "run_autograder")], env=env,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr[-2000:]
        res = json.loads((root / "results" / "results.json").read_text())
        # entropy returns 1.0 (q1's tests fail either way) only if it listed a grader's folder:
        # the public test's message says which
        assert {t["name"]: t["score"] for t in res["tests"]} == {q: 0.0 for q in points}, res
        assert "nothing found" in res["tests"][0]["output"], res["tests"][0]
        assert "as the user nobody" in res["output"]
        # a zombie is dead already (its new parent, init, reaps it when it gets to it)
        left = [p.info for p in psutil.process_iter(["pid", "cmdline", "uids", "status"])
                if p.info["status"] != psutil.STATUS_ZOMBIE and (
                    marker in " ".join(p.info["cmdline"] or []) or p.info["uids"].real == uid)]
        assert not left, left
        assert list(tmp.iterdir()) == []                 # the private folder went with it
        assert (root / "source").stat().st_mode & 0o777 == 0o700
        assert (root / "results").stat().st_mode & 0o777 == 0o700
    finally:
        for p in psutil.process_iter(["pid", "uids"]):
            if p.info["uids"] and p.info["uids"].real == uid:
                p.kill()
        shutil.rmtree(world, ignore_errors=True)


def test_an_argument_changed_in_place_stays_in_the_sandbox_without_write_back():
    # the two sides' tables, as trusted.py and runner.py keep them
    import numpy as np

    sys.path.insert(0, str(ROOT / "tools" / "grading"))
    try:
        import protocol
    finally:
        sys.path.pop(0)
    ours, theirs = protocol.Table("t"), protocol.Table("s")
    y = np.array([0, 1, 1, 2])
    for write_back in (False, True):
        enc = protocol.Encoder(ours)
        sent = enc.encode([y])
        (arg,) = protocol.Decoder(theirs).decode(sent)
        arg[:] = 0                                          # the student's function
        after = protocol.Encoder(theirs, strict=False).encode([arg])
        dec = protocol.Decoder(ours, writable=set(enc.toks) if write_back else set())
        (back,) = dec.decode(after)
        assert ours.by_id[id(y)] in dec.changed             # flagged either way
        assert back.tolist() == [0, 0, 0, 0]
        if not write_back:
            assert y.tolist() == [0, 1, 1, 2] and back is not y
            # the next call sends y in full (not "unchanged since it last crossed"), so
            # the sandbox's copy is y again
            again = protocol.Encoder(ours).encode([y])
            assert "__sync__" not in json.dumps(again)
            (arg2,) = protocol.Decoder(theirs).decode(again)
            assert arg2 is arg and arg.tolist() == [0, 1, 1, 2]
        else:
            assert back is y and y.tolist() == [0, 0, 0, 0]


def test_write_back_is_declared_where_the_contract_is_an_update_and_otter_never_sees_it(monkeypatch):
    # optimisers' step functions keep their state in the dict they are given; elsewhere
    # in-place changes must stay in the sandbox (decision_trees q1 scored 2 points for
    # an entropy that zeroed its argument)
    assert tool.write_back("optimisers") is True
    assert tool.write_back("decision_trees") is False
    nb = tool.prepare(nbformat.read(tool.SOURCE / "optimisers" / "optimisers.ipynb", as_version=4),
                      "optimisers.ipynb")
    config = next(c for c in nb.cells if c.cell_type == "raw" and "ASSIGNMENT CONFIG" in c.source)
    assert "write_back" not in config.source and "forbid_imports" not in config.source
    monkeypatch.setattr(tool, "_grader_config", lambda aid: {"write_back": "yes"})
    with pytest.raises(ValueError, match="write_back in the ASSIGNMENT CONFIG must be true or false"):
        tool.write_back("optimisers")


@pytest.mark.parametrize("aid", IDS)
def test_the_scan_flags_neither_the_solution_nor_the_blank(built, aid):
    # flags send the instructor to read code: honest notebooks must raise none (the hostile
    # test above shows each attack raises its own)
    forbidden = tool.forbidden_imports(aid)
    for nb in (_solution(built, aid), _student(built, aid)):
        assert tool.grading_sandbox.scan(tool.submission_cells(nb), forbidden) == []


def test_the_scan_flags_a_forbidden_import_however_it_is_written():
    scan = tool.grading_sandbox.scan
    forbidden = ["sklearn", "mlbook.tree"]
    for code in ("import mlbook.tree as t", "from mlbook import tree", "from mlbook.tree import entropy"):
        assert scan([code], forbidden) == ["imports-mlbook.tree"], code
    assert scan(["from sklearn.tree import DecisionTreeClassifier"], forbidden) == ["imports-sklearn"]
    assert scan(["import mlbook.metrics", "from mlbook import datasets"], forbidden) == []


def test_the_scan_flags_reaching_for_the_runners_pipe():
    scan = tool.grading_sandbox.scan
    for code in ("import __main__\n__main__._OUT.write(b'{}')", "import os\nos.write(3, b'{}')",
                 "import sys\nsys.modules['__main__'].send({})"):
        assert "grader-internals" in scan([code]), code
    assert "grader-internals" not in scan(["if __name__ == '__main__':\n    print(1)"])


def test_the_sandbox_cannot_read_the_graders_environment_or_paths(tmp_path, monkeypatch):
    # bwrap's own process is pid 1 inside the sandbox: its /proc/1/environ and cmdline
    # must hold neither the grader's environment nor the checkout's path
    sys.path.insert(0, str(ROOT / "tools" / "grading"))
    try:
        import trusted
    finally:
        sys.path.pop(0)
    secret = f"mlbook-secret-{os.getpid()}"
    monkeypatch.setenv("MLBOOK_REVIEW_SECRET", secret)
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        "def seen():\n"
        "    import os\n"
        "    out = []\n"
        "    for pid in sorted(p for p in os.listdir('/proc') if p.isdigit()):\n"
        "        for part in ('environ', 'cmdline'):\n"
        "            try:\n"
        "                out.append(open(f'/proc/{pid}/{part}', 'rb').read().decode(errors='replace'))\n"
        "            except OSError:\n"
        "                pass\n"
        "    return out\n")])
    path = _write(nb, tmp_path / "submission.ipynb")
    sub = trusted.Submission(path, tool.grading_sandbox.mlbook_site(), 8, 4)
    try:
        sub.start()
        sub.wait_ready(30)
        seen = "\n".join(trusted.StudentFunction(sub, "seen", 30)())
    finally:
        sub.kill()
    assert "/grader/runner.py" in seen          # it did read its own processes
    for leak in (secret, str(ROOT), str(tmp_path), sys.prefix):
        assert leak not in seen, leak
