"""The trusted side of grading one submission: the hidden tests run here.

    python tools/grading/trusted.py AUTOGRADER_ZIP SETUP_NOTEBOOK SUBMISSION_COPY \
        CELL_TIMEOUT TEST_TIMEOUT NOTEBOOK_TIMEOUT [--write-back]

This process imports nothing the student wrote. It starts the submission in the
sandbox (sandbox.py, runner.py), runs the assignment's own setup cells (from the
instructor's notebook, SETUP_NOTEBOOK, never from the submission) and then every test
of the autograder zip (otter's OK-format doctests, public and hidden) in a namespace
where each of the student's names is a proxy: a function is called across the process
boundary with plain data (protocol.py); a global that holds data is fetched by value.
It prints one JSON object: the score of each question, the public tests that failed,
the cells that raised.

A call that raises in the submission raises here (its test fails); a call that runs
past TEST_TIMEOUT, or a submission that dies or garbles the pipe, fails that test, and
the submission is started again for the next question (at most RESTARTS times).

What a call does to its arguments in place stays in the sandbox (the tests' arrays are
left as they were) unless ``--write-back`` is given: an assignment whose functions update
their arguments by contract declares ``write_back: true`` in its ASSIGNMENT CONFIG. Either
way the functions that changed an argument are listed (``changed_arguments``).
"""

from __future__ import annotations

import ast
import builtins
import doctest
import io
import json
import os
import re
import select
import signal
import subprocess
import sys
import time
import tokenize
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import protocol  # noqa: E402
import sandbox  # noqa: E402

RESTARTS = 8        # fresh starts after a submission died or hung (the run's own limit is the last resort)
CHECK_LINE = re.compile(r"^\s*grader\.check(_all)?\(.*\)\s*;?\s*$", re.M)


class SubmissionError(Exception):
    """The student's code raised, or the submission stopped answering."""


class TestTimeLimit(Exception):
    pass


def load_tests(autograder: Path) -> dict[str, dict]:
    """Otter's test dicts from an autograder zip, or from a folder holding tests/*.py."""
    tests = {}
    if autograder.is_dir():
        files = {f"tests/{p.name}": p.read_bytes() for p in (autograder / "tests").glob("*.py")}
    else:
        with zipfile.ZipFile(autograder) as zf:
            files = {n: zf.read(n) for n in zf.namelist()}
    for name, data in files.items():
            if re.fullmatch(r"tests/[^/]+\.py", name):
                for node in ast.parse(data.decode("utf-8")).body:
                    if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "test":
                        t = ast.literal_eval(node.value)
                        tests[t["name"]] = t
    return dict(sorted(tests.items(), key=lambda kv: [int(s) if s.isdigit() else s
                                                        for s in re.split(r"(\d+)", kv[0])]))


def setup_cells(notebook: Path) -> list[str]:
    """The instructor's own code: every code cell of the solution notebook that is not an
    answer, the install cell, otter's cell or a check. A .json file is that list already."""
    if notebook.suffix == ".json":
        return [str(c) for c in json.loads(notebook.read_text(encoding="utf-8"))]
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    out = []
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        src = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        tags = cell.get("metadata", {}).get("tags", [])
        if tags and {"otter_assign_solution_cell", "otter-grader", "remove-cell"} & set(tags):
            continue
        if src.startswith("# Install mlbook where it is missing"):
            continue
        src = CHECK_LINE.sub("", src)
        if src.strip():
            out.append(src)
    return out


class Submission:
    """The sandboxed process and the pipe to it."""

    def __init__(self, notebook: Path, mlbook: Path, cell_timeout: float, call_timeout: float,
                 write_back: bool = False):
        self.write_back = write_back     # in-place changes to arguments reach the tests' objects
        self.changed_arguments: set[str] = set()   # the functions that changed an argument
        self.cmd = sandbox.command(notebook, mlbook, cell_timeout, call_timeout)
        self.call_timeout = call_timeout
        self.cell_timeout = cell_timeout
        self.proc = None
        self.starts = 0
        self.errors: list = []
        self.names: dict[str, bool] = {}
        self.ready_seconds = None     # set when the notebook ran to its end once
        self.table = protocol.Table("t")             # lists, dicts, arrays that crossed
        self.objects: dict[str, object] = {}         # the grader's objects passed by reference
        self._keys: dict[int, str] = {}

    # -- process --------------------------------------------------------------
    def start(self):
        self.starts += 1
        # each start of the sandbox mints tokens of its own (s1_0, s1_1, ...; then s2_0 ...)
        argv, env, fds = [*self.cmd, f"s{self.starts}_"], None, ()
        if os.path.basename(argv[0]) == "bwrap":
            # bwrap's own process is pid 1 inside the sandbox, its /proc/1/environ and
            # cmdline readable there: it gets an empty environment and reads its
            # arguments (the checkout's paths) from a pipe
            # (its options; the command, from the sandbox's own paths, stays on the line)
            cut = argv.index("--chdir") + 2
            r, w = os.pipe()
            os.write(w, b"".join(a.encode() + b"\0" for a in argv[1:cut]))   # < 64 KiB: never blocks
            os.close(w)
            argv, env, fds = [argv[0], "--args", str(r), *argv[cut:]], {}, (r,)
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL, start_new_session=True,
                                         env=env, pass_fds=fds)
        finally:
            for fd in fds:
                os.close(fd)
        self._buf = b""

    def wait_ready(self, timeout: float):
        msg = self._receive(timeout)
        if msg.get("op") != "ready":
            raise SubmissionError("the submission did not start")
        if self.starts == 1:
            self.errors = msg.get("errors", [])[:50]
            self.ready_seconds = msg.get("seconds")
        self._send({"op": "names"})
        names = self._receive(30).get("names", {})
        self.names = {str(k): bool(v) for k, v in names.items()}

    def kill(self):
        if self.proc is not None and self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait()
        self.proc = None
        if os.environ.get("MLBOOK_SANDBOX") == "none":
            sandbox.kill_fallback_processes()   # no pid namespace: whatever it left, by its user

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def ensure(self, notebook_timeout: float):
        if self.alive():
            return
        if self.starts > RESTARTS or self.ready_seconds is None:
            # a notebook that never got ready once will not the second time
            raise SubmissionError("the submission stopped answering")
        self.kill()
        # the test's clock stops while the notebook runs again (its cells have their own limits)
        paused = signal.setitimer(signal.ITIMER_REAL, 0)
        try:
            self.start()
            self.wait_ready(notebook_timeout)
        except BaseException:
            self.kill()
            raise
        finally:
            if paused[0] > 0:
                signal.setitimer(signal.ITIMER_REAL, *paused)

    # -- messages -------------------------------------------------------------
    def _send(self, msg):
        try:
            self.proc.stdin.write(protocol.dumps(msg))
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, AttributeError):
            self.kill()
            raise SubmissionError("the submission stopped answering")

    def _receive(self, timeout: float):
        deadline = time.monotonic() + timeout
        fd = self.proc.stdout.fileno()
        while b"\n" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0:
                self.kill()
                raise SubmissionError(f"no answer within {timeout:g} s (an endless loop?)")
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                chunk = os.read(fd, 1 << 20)
                if not chunk:
                    self.kill()
                    raise SubmissionError("the submission's process ended")
                self._buf += chunk
                if len(self._buf) > protocol.MAX_LINE:
                    self.kill()
                    raise SubmissionError("the submission sent too much")
        line, self._buf = self._buf.split(b"\n", 1)
        try:
            msg = protocol.loads(line)
            if not isinstance(msg, dict):
                raise ValueError("not an object")
        except ValueError as exc:
            self.kill()
            raise SubmissionError(f"the submission garbled its answer ({exc})")
        return msg

    def request(self, msg, writable=None):
        """Send one request; serve the callbacks it makes (to the grader's functions and
        objects, ``self.objects``) until its reply comes. ``writable``: the tokens of the
        objects the call may change (its arguments, and what callbacks hand it)."""
        try:
            self._send(msg)
            while True:
                reply = self._receive(self.call_timeout + 2)
                if reply.get("op") == "callback":
                    self._send(self._callback(reply, writable if writable is not None else set()))
                    continue
                return reply
        except TestTimeLimit:
            self.kill()        # the pipe is mid-message: start afresh for the next question
            raise

    def _callback(self, msg, writable):
        obj = self.objects.get(msg.get("id"))
        if obj is None:
            return {"error": "no such object"}
        try:
            dec = protocol.Decoder(self.table, callback_hook=self.by_key, writable=writable)
            enc = protocol.Encoder(self.table, strict=True, callable_hook=self.by_reference)
            if "attr" in msg:
                # public attributes only: through __globals__, __class__, ... the submission
                # would reach the tests' namespace and the grader's modules
                if not isinstance(msg["attr"], str) or msg["attr"].startswith("_"):
                    raise AttributeError(f"{msg['attr']!r}: only public attributes cross")
                return {"result": enc.encode(getattr(obj, msg["attr"]))}
            args, kwargs = dec.decode(msg["args"]), dec.decode(msg["kwargs"])
            reply = {"result": enc.encode(obj(*args, **kwargs)), "after": enc.encode([args, kwargs])}
            if self.write_back:
                writable.update(enc.toks)
            return reply
        except (TestTimeLimit, KeyboardInterrupt):
            raise
        except Exception as exc:     # noqa: BLE001
            return {"error": f"{type(exc).__name__}: {exc}"[:300]}

    def by_reference(self, obj):
        """The encoder's hook: a function or object of the grader's crosses as a key."""
        key = self._keys.get(id(obj))
        if key is None:
            key = self._keys[id(obj)] = f"f{len(self.objects)}"
            self.objects[key] = obj
        return {"__fn__": key}

    def by_key(self, spec):
        try:
            return self.objects[str(spec["__fn__"])]
        except KeyError:
            raise ValueError("no such object") from None


class StudentFunction:
    """Stands for a function the student wrote; calling it calls it in the sandbox."""

    def __init__(self, sub: Submission, name: str, notebook_timeout: float):
        self._sub, self.__name__, self._nt = sub, name, notebook_timeout

    def __repr__(self):
        return f"<the submission's function {self.__name__}>"

    def __call__(self, *args, **kwargs):
        sub = self._sub
        sub.ensure(self._nt)
        enc = protocol.Encoder(sub.table, callable_hook=sub.by_reference, strict=True)
        try:
            msg = {"op": "call", "name": self.__name__, "args": enc.encode(list(args)),
                   "kwargs": enc.encode(dict(kwargs))}
        except protocol.EncodeError as exc:
            raise TypeError(f"the grader cannot pass this to {self.__name__}: {exc}")
        # without write_back, what the call does to its arguments stays in the sandbox: a
        # test that computes its reference after the call (abs(entropy(y) - ref(y))) sees
        # the array it passed, not one the student's function zeroed
        args_toks = set(enc.toks)
        writable = set(args_toks) if sub.write_back else set()
        reply = sub.request(msg, writable)
        if "error" in reply:
            err = reply["error"] if isinstance(reply["error"], dict) else {"type": "Error", "message": str(reply["error"])}
            raise SubmissionError(f"{self.__name__} raised {err.get('type')}: {err.get('message')}")
        try:
            dec = protocol.Decoder(sub.table, callback_hook=sub.by_key, writable=writable)
            result = dec.decode(reply["result"])
            dec.decode(reply["after"])          # in-place changes (written back if declared)
        except (KeyError, ValueError, TypeError, IndexError) as exc:
            raise SubmissionError(f"{self.__name__} answered with something that is not plain data ({exc})")
        if dec.changed & args_toks:
            sub.changed_arguments.add(self.__name__)
        return result


def _alarm(signum, frame):
    raise TestTimeLimit("the test ran past its time limit")


def _identifiers(code: str) -> set[str]:
    try:
        return {t.string for t in tokenize.generate_tokens(io.StringIO(code).readline)
                if t.type == tokenize.NAME}
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return set(re.findall(r"[A-Za-z_]\w*", code))


def run_case(code: str, globs: dict, test_timeout: float) -> tuple[bool, str, str]:
    """Run one doctest case; (passed, the statement that failed, the error's last line)."""
    parser = doctest.DocTestParser()
    test = parser.get_doctest(code, globs, "test", None, 0)
    out = io.StringIO()
    failed = {}

    class Runner(doctest.DocTestRunner):
        def report_failure(self, o, t, example, got):
            failed.setdefault("stmt", example.source)
            failed.setdefault("msg", f"printed {got.strip()[:200]!r} where nothing was expected")

        def report_unexpected_exception(self, o, t, example, exc_info):
            failed.setdefault("stmt", example.source)
            failed.setdefault("msg", f"{exc_info[0].__name__}: {str(exc_info[1])[:300]}")

    # FAIL_FAST: a case stops at its first failure (a function that timed out once is not
    # called again by the same test)
    runner = Runner(verbose=False, optionflags=doctest.ELLIPSIS | doctest.FAIL_FAST)
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, test_timeout, 1.0)
    try:
        result = runner.run(test, out=out.write, clear_globs=False)
    except TestTimeLimit:
        return False, failed.get("stmt", code), "the test ran past its time limit"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    return result.failed == 0, failed.get("stmt", ""), failed.get("msg", "")


def grade(autograder: Path, setup_nb: Path, notebook: Path, cell_timeout: float,
          test_timeout: float, notebook_timeout: float, write_back: bool = False) -> dict:
    tests = load_tests(autograder)
    # the sandbox's mlbook: a copy built from the book's wheel, or (Gradescope) the folder
    # MLBOOK_SANDBOX_MLBOOK names, or "" for the one installed in this Python
    given = os.environ.get("MLBOOK_SANDBOX_MLBOOK")
    mlbook = sandbox.mlbook_site() if given is None else (Path(given) if given else None)
    sub = Submission(notebook, mlbook, cell_timeout, test_timeout, write_back)
    note = []
    sub.start()                                    # the notebook runs while the setup runs here
    globs: dict = {"__name__": "__main__"}
    for src in setup_cells(setup_nb):
        exec(compile(src, "<setup>", "exec"), globs)
    setup_names = set(globs)
    try:
        sub.wait_ready(notebook_timeout)
    except SubmissionError as exc:
        note.append(f"the notebook did not finish: {exc}")
        sub.kill()
    needed = set()
    for t in tests.values():
        for suite in t["suites"]:
            for case in suite["cases"]:
                needed |= _identifiers(case["code"])
    # a student's global named as a builtin (abs, all, len) never stands in for the
    # builtin the tests call
    for name in sorted(needed & set(sub.names) - setup_names - set(dir(builtins))):
        if sub.names[name]:
            globs[name] = StudentFunction(sub, name, notebook_timeout)
        else:
            try:
                reply = sub.request({"op": "get", "name": name})
                globs[name] = protocol.Decoder(sub.table, writable=set()).decode(reply["result"])
            except (SubmissionError, KeyError, ValueError, TypeError) as exc:
                globs[name] = protocol.Opaque(f"unreadable value ({exc})")
    scores, public, hidden_failed = {}, {}, {}
    for q, t in tests.items():
        passed = total = 0
        lines = []
        number = 0
        for suite in t["suites"]:
            for case in suite["cases"]:
                total += 1
                number += not case.get("hidden")
                # the sandbox stops a call after test_timeout; the test itself gets a
                # little longer (its own reference computations)
                ok, stmt, msg = run_case(case["code"], globs, test_timeout + 3)
                passed += ok
                if not ok and not case.get("hidden"):
                    lines.append(f"  public test {number} failed: "
                                 + " ".join(l.strip() for l in stmt.splitlines())[:300])
                    lines.append(f"      -> {msg}")
                elif not ok:
                    hidden_failed[q] = True
        points = float(t["points"])
        if t.get("all_or_nothing", True):
            scores[q] = points if passed == total else 0.0
        else:
            scores[q] = points * passed / total if total else 0.0
        public[q] = lines
    sub.kill()
    return {"scores": scores, "public": public, "cell_errors": sub.errors,
            "note": "; ".join(note), "restarts": max(0, sub.starts - 1),
            "changed_arguments": sorted(sub.changed_arguments)}


def main(argv):
    autograder, setup_nb, notebook = Path(argv[0]), Path(argv[1]), Path(argv[2])
    cell_timeout, test_timeout, notebook_timeout = (float(a) for a in argv[3:6])
    write_back = argv[6:7] == ["--write-back"]
    out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)          # the setup's prints stay out of the result
    result = grade(autograder, setup_nb, notebook, cell_timeout, test_timeout, notebook_timeout,
                   write_back)
    out.write(json.dumps(result) + "\n")
    out.flush()


if __name__ == "__main__":
    main(sys.argv[1:])
