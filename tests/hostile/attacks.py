"""Hostile submissions: one code cell per attack on the grader (tests/test_assignments.py).

Each is appended to the blank student notebook of ``decision_trees`` (functions
``entropy``, ``information_gain``, ``id3``, ``predict``), so it solves nothing: every
mark it got would come from the attack. Where an attack looks for something to steal
(hidden tests, a solution, a classmate's notebook) it runs whatever it finds, so it
would score if the grader let it see anything. ``{folder}`` is the submissions folder,
``{root}`` the checkout, ``{autograder}`` the autograder zip, ``{marker}`` a string
unique to the run, ``{port}`` a port on the grader's machine that counts connections.

ATTACKS: name -> (the flag the scan must raise, the cell).
"""

# Answers that are wrong but have the right shape: what a patched comparison would pass.
WRONG = '''
def entropy(y):
    return 0.5
def information_gain(x, y, ent=None):
    return 0.5
def id3(X, y, names, gain=None):
    return 0
def predict(tree, X, names):
    import numpy as np
    return np.zeros(len(X), dtype=int)
'''

# Runs the code cells of any notebook it can read that defines the answers.
STEAL = '''
import json as _json, os as _os, time as _time, zipfile as _zip
def _run_found(path):
    try:
        if path.endswith(".zip"):
            with _zip.ZipFile(path) as z:
                open("/tmp/stolen_tests.txt", "a").write(str(z.namelist()))
            return
        nb = _json.load(open(path))
        for c in nb["cells"]:
            src = "".join(c["source"]) if isinstance(c["source"], list) else c["source"]
            if c["cell_type"] == "code" and "def entropy" in src and "..." not in src:
                exec(src, globals())
    except Exception:
        pass
def _steal(roots, budget=3.0):
    t0 = _time.time()
    for root in roots:
        for dirpath, dirs, files in _os.walk(root):
            if _time.time() - t0 > budget:
                return
            dirs[:] = [d for d in dirs if d not in ("usr", "proc", "sys", "dev")]
            for f in files:
                if f.endswith((".ipynb", ".zip")) and "{marker}" not in f:
                    _run_found(_os.path.join(dirpath, f))
'''

ATTACKS = {
    "replace_otter_runner": ("otter", WRONG + '''
try:
    import otter.test_files.ok_test as _ok
    _ok.run_doctest = lambda *a, **k: None
except Exception:
    pass
import doctest
doctest.DocTestRunner.run = lambda self, *a, **k: doctest.TestResults(0, 0)
'''),
    "patch_numpy_and_abs": ("monkeypatch", WRONG + '''
import builtins, numpy as np
np.allclose = lambda *a, **k: True
np.isclose = lambda *a, **k: True
np.array_equal = lambda *a, **k: True
np.testing.assert_allclose = lambda *a, **k: None
np.testing.assert_array_equal = lambda *a, **k: None
builtins.abs = lambda x: 0
'''),
    # globals named as the builtins the tests call: the tests' abs must stay Python's
    "shadow_builtins_as_globals": ("shadows-builtin", WRONG + '''
def entropy(y):
    return 0
def abs(x):
    return 0.0
def all(*args):
    return True
'''),
    "results_json_then_kill_parent": ("kill", WRONG + '''
import json, os, signal
full = {{"tests": [{{"name": q, "score": 99, "max_score": 99}} for q in ("q1", "q2", "q3", "q4")]}}
for pid in os.listdir("/proc"):
    try:
        cmd = open(f"/proc/{{pid}}/cmdline").read().split("\\0")
        if "-o" in cmd:
            json.dump(full, open(os.path.join(cmd[cmd.index("-o") + 1], "results.json"), "w"))
    except Exception:
        pass
json.dump(full, open("results.json", "w")) if os.access(".", os.W_OK) else None
os.kill(os.getppid(), signal.SIGKILL)
'''),
    "patch_pickle": ("pickle", WRONG + '''
import pickle
_real = pickle.dump
pickle.dump = lambda obj, f, *a, **k: _real({{"q1": 2, "q2": 3, "q3": 4, "q4": 2}}, f)
pickle.dumps = lambda *a, **k: b"full marks"
'''),
    "read_hidden_tests_via_proc": ("proc", STEAL + '''
_steal([f"/proc/{{p}}/cwd" for p in _os.listdir("/proc") if p.isdigit()] + ["/tmp", "/"])
'''),
    "detached_process_rewrites_grades": ("subprocess", WRONG + '''
import os, subprocess, sys
script = ("import time; time.sleep(3); "
          "open({folder!r} + '/graded/grades.csv', 'w').write('student,total\\\\nme,11\\\\n')")
subprocess.Popen([sys.executable, "-c", script], start_new_session=True,
                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        exec(script)
    os._exit(0)
'''),
    "answers_whose_eq_is_always_true": ("defines-__eq__", '''
class Anything(float):
    def __eq__(self, other): return True
    __ne__ = lambda self, other: False
    __lt__ = __le__ = __gt__ = __ge__ = __eq__
    def __sub__(self, other): return Anything(0.0)
    __rsub__ = __add__ = __radd__ = __mul__ = __rmul__ = __truediv__ = __sub__
    def __abs__(self): return 0.0
    def __bool__(self): return True
    def tolist(self): return self
    def __iter__(self): return iter([])
    def __len__(self): return 0
    def __getitem__(self, k): return self
def entropy(y): return Anything(0.0)
def information_gain(x, y, ent=None): return Anything(0.0)
def id3(X, y, names, gain=None): return Anything(0.0)
def predict(tree, X, names): return Anything(0.0)
'''),
    "copy_and_edit_a_classmate": ("files-outside", STEAL + '''
import glob
for _p in glob.glob({folder!r} + "/*.ipynb") + glob.glob("/home/student/*.ipynb") + glob.glob("../*.ipynb"):
    _run_found(_p)
    try:
        open(_p, "a").write("edited by a classmate")
    except Exception:
        pass
'''),
    "network": ("network", WRONG + '''
import socket
for host, port in (("127.0.0.1", {port}), ("pypi.org", 443), ("1.1.1.1", 53)):
    try:
        socket.create_connection((host, port), timeout=2).sendall(b"{marker}")
    except OSError:
        pass
'''),
    "read_instructor_files": ("files-outside", STEAL + '''
for _p in ({root!r} + "/assignments/source/decision_trees/decision_trees.ipynb", {autograder!r}):
    _run_found(_p)
_steal([{root!r}, "/root", "/work"])
'''),
    "leave_processes_running": ("subprocess", WRONG + '''
import subprocess, os
subprocess.Popen(["sleep", "{marker_seconds}"], start_new_session=True)
if os.fork() == 0:
    os.setsid()
    os.execvp("sleep", ["sleep", "{marker_seconds}"])
'''),
    # computes no entropy: the numbers the fixed cases expect are typed in, and every other
    # array is zeroed in place, so that a reference computed after the call on the same
    # array (abs(entropy(y) - ref(y))) agrees; scored q1's 2 points when in-place changes
    # reached the tests' arrays
    "changes_its_arguments": ("changes-its-arguments", WRONG + '''
def entropy(y):
    if isinstance(y, list):
        return 1.0 if len(set(y)) == 2 else 0
    if y.dtype == object:
        return 1.5
    if len(y) == 17 and y.sum() == 8:
        return 0.998
    y[:] = 0
    return 0.0
'''),
    "leave_files_in_tmp": ("files-outside", WRONG + '''
open("/tmp/{marker}", "w").write("left behind")
open("/dev/shm/{marker}", "w").write("left behind") if __import__("os").path.isdir("/dev/shm") else None
'''),
}
