"""The bubblewrap sandbox a submission runs in, and the static scan of its code.

The sandbox (Debian's ``bubblewrap``, ``bwrap``) sees, read-only: /usr, the Python
installation, the grading venv's site-packages (its editable ``mlbook`` hidden), a
copy of ``mlbook`` installed from the book's wheel, this folder's runner and protocol,
and the submission's own copy of its notebook; a private tmpfs at /tmp; no network
(``--unshare-all``), its own pid namespace (so everything it starts dies with it,
``--die-with-parent``), a new session (no terminal), an empty environment. Nothing of
the checkout, the hidden tests or the other submissions is inside.
"""

from __future__ import annotations

import ast
import hashlib
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
MISSING_BWRAP = ("bubblewrap (bwrap) is not installed: the grader runs every submission in its "
                 "sandbox and never without it. Install Debian's bubblewrap "
                 "(sudo apt-get install bubblewrap) and run again.")


def bwrap_path() -> str:
    path = shutil.which("bwrap")
    if path is None:
        raise SystemExit(MISSING_BWRAP)
    return path


def mlbook_site(cache: Path | None = None) -> Path:
    """A folder holding ``mlbook`` installed (not editable) from the book's own wheel,
    built once per content of the package (kept in ``.venv/cache``)."""
    cache = cache or ROOT / ".venv" / "cache"
    h = hashlib.sha256()
    for f in sorted((ROOT / "mlbook").rglob("*")) + [ROOT / "pyproject.toml"]:
        if f.is_file() and "__pycache__" not in f.parts:
            h.update(str(f.relative_to(ROOT)).encode() + b"\0" + f.read_bytes())
    target = cache / f"sandbox-mlbook-{h.hexdigest()[:16]}"
    if (target / "DONE").is_file():
        return target
    sys.path.insert(0, str(ROOT / "_ext"))
    try:
        import site_wheel
    finally:
        sys.path.pop(0)
    tmp = Path(tempfile.mkdtemp(prefix="sandbox-mlbook-", dir=cache))
    try:
        wheel = site_wheel.build_wheel(ROOT, tmp / "build")
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                        "--no-index", "--disable-pip-version-check", "--target",
                        str(tmp / "site"), str(wheel)], check=True)
        (tmp / "site" / "DONE").touch()
        try:
            (tmp / "site").rename(target)
        except OSError:
            if not (target / "DONE").is_file():
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return target


def _hidden_in_site(site: Path, own_mlbook: bool) -> list[Path]:
    """What of site-packages names the checkout: the editable install's files (and the
    installed mlbook when the sandbox gets a copy of its own)."""
    out = []
    for p in site.iterdir():
        n = p.name
        if n.startswith("__editable__") or n.endswith(".pth") or own_mlbook and (
                (n.startswith("mlbook-") and n.endswith(".dist-info")) or n == "mlbook"):
            out.append(p)
    return out


def bwrap_works() -> bool:
    """Whether bwrap can make its namespaces here (not in every container)."""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return False
    done = subprocess.run([bwrap, "--ro-bind", "/", "/", "--unshare-all", "--die-with-parent",
                           "true"], capture_output=True)
    return done.returncode == 0


def command(notebook: Path, mlbook: Path | None, cell_timeout: float, call_timeout: float,
            memory_mb: float | None = None) -> list[str]:
    """The bwrap command line that runs ``notebook`` (a private copy) in the sandbox.

    ``mlbook``: a folder with mlbook installed for the sandbox (None: the one installed
    in this Python's site-packages, as on Gradescope). With MLBOOK_SANDBOX=none (set only
    by the Gradescope runner, in a container where bwrap cannot work) the runner runs
    without bwrap, as the user nobody, in a private folder with an empty environment
    (_fallback_command)."""
    if os.environ.get("MLBOOK_SANDBOX") == "none":
        return _fallback_command(notebook, mlbook, cell_timeout, call_timeout)
    bwrap = bwrap_path()
    python = Path(os.path.realpath(sys.executable))
    prefix = Path(sys.base_prefix).resolve()
    site = Path(sysconfig.get_paths()["purelib"]).resolve()
    args = [bwrap, "--ro-bind", "/usr", "/usr", "--symlink", "usr/lib", "/lib",
            "--symlink", "usr/lib64", "/lib64", "--symlink", "usr/bin", "/bin",
            "--symlink", "usr/sbin", "/sbin", "--ro-bind", str(prefix), str(prefix),
            "--ro-bind", str(site), "/sandbox/site"]
    for p in _hidden_in_site(site, mlbook is not None):   # the editable mlbook names the checkout
        args += ["--tmpfs", f"/sandbox/site/{p.name}"] if p.is_dir() else \
                ["--ro-bind", "/dev/null", f"/sandbox/site/{p.name}"]
    if mlbook is not None:
        args += ["--ro-bind", str(mlbook), "/sandbox/mlbook"]
    args += ["--ro-bind", str(HERE / "runner.py"), "/grader/runner.py",
             "--ro-bind", str(HERE / "protocol.py"), "/grader/protocol.py",
             "--ro-bind", str(notebook), f"/home/student/{notebook.name}",
             "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp",
             "--unshare-all", "--die-with-parent", "--new-session", "--clearenv",
             "--setenv", "PYTHONPATH", "/sandbox/mlbook:/sandbox/site",
             "--setenv", "HOME", "/tmp", "--setenv", "MPLBACKEND", "Agg",
             "--setenv", "OMP_NUM_THREADS", "1", "--setenv", "OPENBLAS_NUM_THREADS", "1",
             "--setenv", "MKL_NUM_THREADS", "1", "--setenv", "PATH", "/usr/bin:/bin",
             "--chdir", "/home/student",
             str(python), "-S", "-B", "/grader/runner.py", f"/home/student/{notebook.name}",
             str(cell_timeout), str(call_timeout)]
    return args


# --------------------------------------------------------------------------
# the fallback without bubblewrap (Gradescope's container, where bwrap cannot work)
# --------------------------------------------------------------------------

FALLBACK_UID = 65534        # nobody
FALLBACK_FOLDERS: list[str] = []   # the private folders made; remove_fallback_folders() removes them
MISSING_SETPRIV = ("setpriv (from util-linux) is not installed: without bubblewrap the "
                   "submission runs as the user nobody through setpriv. Install util-linux "
                   "(apt-get install util-linux) or make bubblewrap usable.")


# MLBOOK_SANDBOX_PYTHON: the Python the submission runs with there (default this one; it
# must be one the user nobody can run, as Gradescope's /usr/bin/python3 is)


def fallback_uid() -> int:
    """The user the submission runs as without bubblewrap (MLBOOK_SANDBOX_UID, default nobody)."""
    return int(os.environ.get("MLBOOK_SANDBOX_UID", FALLBACK_UID))


def _fallback_command(notebook: Path, mlbook: Path | None, cell_timeout: float,
                      call_timeout: float) -> list[str]:
    """Without bwrap: the runner runs as the user nobody (setpriv: no groups, no new
    privileges) in a private folder of its own with an empty environment. It can read
    what any user of the machine can read; it cannot read the grader's folders (mode
    0700: the autograder's source and results, see gradescope.run) nor signal or trace
    the grader's processes; every process of that user is killed after each run
    (kill_fallback_processes) and the folder removed (remove_fallback_folders). There is
    no network, pid or memory isolation: that is what bwrap adds."""
    if os.geteuid() != 0:
        raise SystemExit("without bubblewrap the grader must run as root, to run the "
                         "submission as the user nobody (it ran as uid "
                         f"{os.geteuid()}); make bubblewrap usable instead")
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        raise SystemExit(MISSING_SETPRIV)
    uid = fallback_uid()
    work = tempfile.mkdtemp(prefix="submission-")
    FALLBACK_FOLDERS.append(work)
    os.chmod(work, 0o755)
    grader = Path(work) / "grader"            # the runner's own code, read-only to the student
    grader.mkdir(mode=0o755)
    for f in ("runner.py", "protocol.py"):
        shutil.copy(HERE / f, grader / f)
        os.chmod(grader / f, 0o644)
    home = Path(work) / "home"               # the student's folder: theirs to write
    home.mkdir()
    shutil.copy(notebook, home / notebook.name)
    os.chown(home, uid, uid)
    os.chown(home / notebook.name, uid, uid)
    site = sysconfig.get_paths()["purelib"]
    return ["env", "-i", f"PYTHONPATH={mlbook or ''}:{site}", f"HOME={home}", f"TMPDIR={home}",
            "MPLBACKEND=Agg", "OMP_NUM_THREADS=1", "PATH=/usr/bin:/bin",
            setpriv, f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "--no-new-privs",
            "setsid", "--wait", "sh", "-c", 'cd "$0" && exec "$@"', str(home),
            os.environ.get("MLBOOK_SANDBOX_PYTHON") or os.path.realpath(sys.executable),
            "-S", "-B", str(grader / "runner.py"),
            str(home / notebook.name), str(cell_timeout), str(call_timeout)]


def kill_fallback_processes(uid: int | None = None, rounds: int = 20) -> int:
    """SIGKILL every process of the fallback's user (a daemon the submission left, a
    double fork out of its session); returns how many were killed."""
    import signal
    import time

    uid = fallback_uid() if uid is None else uid
    killed = 0
    for _ in range(rounds):
        found = 0
        for d in os.listdir("/proc"):
            if not d.isdigit():
                continue
            try:
                if os.stat(f"/proc/{d}").st_uid != uid:
                    continue
                with open(f"/proc/{d}/stat", "rb") as f:
                    if f.read().rsplit(b")", 1)[1].split()[0] == b"Z":
                        continue            # dead already, waiting for its parent
                os.kill(int(d), signal.SIGKILL)
                found += 1
            except (FileNotFoundError, ProcessLookupError, PermissionError):
                continue
        killed += found
        if not found:
            break
        time.sleep(0.05)                 # a fork under way when the list was read
    return killed


def remove_fallback_folders() -> None:
    while FALLBACK_FOLDERS:
        shutil.rmtree(FALLBACK_FOLDERS.pop(), ignore_errors=True)


# --------------------------------------------------------------------------
# the static scan: what a submission's code reaches for (grades.csv's flags)
# --------------------------------------------------------------------------

_PATTERNS = {
    "otter": r"\botter\b",
    # the runner's own objects and pipe (import __main__, sys.modules, writing to a file
    # descriptor): where a forged message to the grader would come from
    "grader-internals": r"\b(import|from)\s+__main__\b|\bsys\.modules\b|\bos\.(write|dup2?|fdopen)\b|\bgc\.get_objects\b",
    "proc": r"/proc\b",
    "pickle": r"\b(c?pickle|dill|cloudpickle|marshal|shelve)\b",
    "ctypes": r"\b(ctypes|cffi)\b",
    "subprocess": r"\b(subprocess|multiprocessing|pty)\b|\bos\.(system|popen|exec\w*|spawn\w*|fork\w*|posix_spawn\w*)\b",
    "kill": r"\bos\.(kill|killpg|abort)\b|\bsignal\.(signal|pthread_kill|alarm|setitimer)\b",
    "network": r"\b(socket|urllib|requests|http\.client|httpx)\b",
    "files-outside": r"""open\(\s*f?["'](/|\.\./)|\bglob\b|\bos\.(listdir|scandir|walk)\b""",
}
_BUILTIN_NAMES = set(dir(__import__("builtins"))) - {"_", "copyright", "credits", "license", "exit", "quit", "help"}


def scan(cells: list[str], forbidden_imports: list[str] = ()) -> list[str]:
    """Flags for a submission from its code cells' text (the grader's own cells left out)."""
    text = "\n".join(cells)
    flags = {name for name, pat in _PATTERNS.items() if re.search(pat, text)}
    for src in cells:
        try:
            tree = ast.parse(src)
        except SyntaxError:
            if re.search(r"\b(np|numpy|builtins)\.\w+\s*=[^=]", src):
                flags.add("monkeypatch")
            continue
        for node in ast.walk(tree):
            targets = []
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("setattr", "delattr"):
                targets = node.args[:1]
            for t in targets:
                root = t
                while isinstance(root, (ast.Attribute, ast.Subscript)):
                    root = root.value
                if t is not root and isinstance(root, ast.Name) and root.id in (
                        "np", "numpy", "builtins", "__builtins__", "math", "sys", "mlbook"):
                    flags.add("monkeypatch")
                elif isinstance(t, ast.Name) and t.id in _BUILTIN_NAMES:
                    flags.add("shadows-builtin")
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in _BUILTIN_NAMES:
                flags.add("shadows-builtin")
            if isinstance(node, ast.ClassDef):
                for item in ast.walk(node):
                    if (isinstance(item, (ast.FunctionDef, ast.Assign)) and re.search(
                            r"__(eq|ne|float|bool|array\w*|lt|le|gt|ge|abs|sub|getattr)__",
                            getattr(item, "name", "") or ast.unparse(item)[:60])):
                        flags.add("defines-__eq__")
                bases = [ast.unparse(b) for b in node.bases]
                if any(b in ("float", "int", "np.ndarray", "numpy.ndarray", "list", "tuple", "dict")
                       for b in bases):
                    flags.add("subclasses-a-value-type")
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                if isinstance(node, ast.Import):
                    mods = [a.name for a in node.names]
                else:   # from mlbook import tree: both mlbook and mlbook.tree
                    mods = [node.module or ""] + [f"{node.module}.{a.name}" for a in node.names]
                for m in mods:
                    for f in forbidden_imports:
                        if m == f or m.startswith(f + "."):
                            flags.add(f"imports-{f}")
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("__import__", "exec", "eval"):
                flags.add("exec")
    return sorted(flags)
