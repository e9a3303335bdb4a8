"""A Gradescope autograder for one assignment: build the zip, and run it there.

    python tools/grading/gradescope.py build ID DIST_FOLDER   # `make assignments` does this
    python run_autograder ...                                 # Gradescope does this

The zip (``<id>-gradescope.zip``, next to otter's autograder zip) holds

* ``setup.sh``: installs Python, Debian's bubblewrap, NumPy and the ``mlbook`` wheel of
  the book's own version (in the zip) into ``/autograder/venv``;
* ``run_autograder``: grades ``/autograder/submission/*.ipynb`` with the same sandbox
  and trusted test process as ``make grade`` and writes
  ``/autograder/results/results.json`` in Gradescope's format;
* this folder's code (``grading/``), the tests (``tests/``: otter's test files, hidden
  ones included), the assignment's setup cells (no solution), the wheel, and
  ``limits.json``, the time limits. Gradescope unpacks it into /autograder/source.

Where Gradescope's container does not let bwrap make its namespaces, the notebook runs
without bwrap, and the result says so: as the user nobody (setpriv), in a private folder
removed afterwards, with /autograder/source and /autograder/results closed to it (mode
0700) and every process of that user killed after grading. That protects the hidden
tests and the results; it gives no network isolation and no pid namespace.
``MLBOOK_AUTOGRADER_ROOT`` (default /autograder) and ``MLBOOK_AUTOGRADER_PYTHON`` move it,
for testing it elsewhere.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
LIMITS = {"cell_timeout": 60, "test_timeout": 20, "timeout": 600, "memory_mb": 4096}

SETUP_SH = """\
#!/usr/bin/env bash
# Gradescope runs this once, when it builds the autograder's image (tools/grading/gradescope.py).
set -euo pipefail
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3 python3-venv python3-pip bubblewrap
python3 -m venv /autograder/venv
/autograder/venv/bin/pip install -q /autograder/source/{wheel}     # mlbook {version} and NumPy
"""

RUN_AUTOGRADER = """\
#!/usr/bin/env bash
# Gradescope runs this for every submission (tools/grading/gradescope.py).
set -euo pipefail
ROOT="${MLBOOK_AUTOGRADER_ROOT:-/autograder}"
PY="${MLBOOK_AUTOGRADER_PYTHON:-$ROOT/venv/bin/python}"
exec "$PY" "$ROOT/source/grading/gradescope.py" run "$ROOT"
"""


def build(aid: str, out: Path, autograder_zip: Path, setup_notebook: Path, wheel: Path,
          limits: dict | None = None, write_back: bool = False) -> Path:
    """Write ``out`` (the zip) for assignment ``aid``."""
    sys.path.insert(0, str(HERE))
    import trusted

    limits = {**LIMITS, **(limits or {})}
    version = wheel.name.split("-")[1]
    with zipfile.ZipFile(autograder_zip) as zf:
        tests = {n: zf.read(n) for n in zf.namelist() if n.startswith("tests/") and n.endswith(".py")}
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        def add(name, data, mode=0o644):
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.external_attr = (0o100000 | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, data)
        add("setup.sh", SETUP_SH.format(wheel=wheel.name, version=version), 0o755)
        add("run_autograder", RUN_AUTOGRADER, 0o755)
        for f in ("protocol.py", "runner.py", "sandbox.py", "trusted.py", "gradescope.py"):
            add(f"grading/{f}", (HERE / f).read_bytes())
        for name, data in sorted(tests.items()):
            add(name, data)
        add("setup_cells.json", json.dumps(trusted.setup_cells(setup_notebook), indent=1))
        add("limits.json", json.dumps(limits, indent=1))
        add("assignment.json", json.dumps({"id": aid, "mlbook": version, "write_back": write_back}))
        add(wheel.name, wheel.read_bytes())
    return out


def run(root: Path) -> dict:
    """Grade the one notebook in root/submission; write root/results/results.json."""
    import sandbox
    import trusted

    source = root / "source"
    limits = {**LIMITS, **json.loads((source / "limits.json").read_text())}
    assignment = json.loads((source / "assignment.json").read_text())
    results = root / "results"
    results.mkdir(parents=True, exist_ok=True)
    # the hidden tests and the results: the grader's alone (the fallback without bwrap
    # runs the submission as the user nobody, who cannot enter these)
    os.chmod(source, 0o700)
    os.chmod(results, 0o700)
    tests = trusted.load_tests(source)
    notebooks = sorted((root / "submission").glob("*.ipynb"))
    start = time.perf_counter()
    out = {"tests": [], "output": ""}
    if not notebooks:
        out.update(score=0.0, output="No .ipynb file was submitted.")
    else:
        if os.environ.get("MLBOOK_SANDBOX") == "none" or not sandbox.bwrap_works():
            os.environ["MLBOOK_SANDBOX"] = "none"
            out["output"] += ("The notebook ran without bubblewrap (not usable in this "
                              "container), as the user nobody.\n")
        os.environ.setdefault("MLBOOK_SANDBOX_MLBOOK", "")     # the mlbook setup.sh installed
        # the notebook's own limit is limits["timeout"]; Gradescope's limit is set on its site
        try:
            res = trusted.grade(source, source / "setup_cells.json", notebooks[0],
                                float(limits["cell_timeout"]), float(limits["test_timeout"]),
                                float(limits["timeout"]), bool(assignment.get("write_back")))
        finally:
            if os.environ.get("MLBOOK_SANDBOX") == "none":
                sandbox.kill_fallback_processes()
                sandbox.remove_fallback_folders()
        if res.get("changed_arguments") and not assignment.get("write_back"):
            out["output"] += ("Changed its arguments in place: "
                              + ", ".join(res["changed_arguments"]) + ".\n")
        for q, t in tests.items():
            lines = res["public"].get(q, [])
            score = float(res["scores"].get(q, 0.0))
            out["tests"].append({"name": q, "score": score, "max_score": float(t["points"]),
                                 "output": "\n".join(lines) or (
                                     "" if score == float(t["points"]) else
                                     "the public tests passed; a hidden test failed"),
                                 "visibility": "visible"})
        out["score"] = sum(t["score"] for t in out["tests"])
        if res.get("note"):
            out["output"] += res["note"] + "\n"
    out["execution_time"] = round(time.perf_counter() - start, 1)
    (results / "results.json").write_text(json.dumps(out, indent=1))
    return out


def main(argv):
    if argv[:1] == ["run"]:
        run(Path(argv[1]) if len(argv) > 1 else Path("/autograder"))
    elif argv[:1] == ["build"]:
        aid, dist = argv[1], Path(argv[2])
        build(aid, dist / "autograder" / f"{aid}-gradescope.zip",
              dist / "autograder" / f"{aid}-autograder.zip",
              dist / "autograder" / f"{aid}.ipynb", Path(argv[3]))
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    sys.path.insert(0, str(HERE))
    main(sys.argv[1:])
