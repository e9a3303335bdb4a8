"""Runs inside the sandbox: executes a student's notebook, then answers calls.

Started by the trusted process (tools/grading/trusted.py) inside bubblewrap, with this
folder read-only at /grader. It talks over its standard input and output, one JSON
message a line (protocol.py); the student's own prints go to standard error. It holds
no test and no solution: it only runs the student's code cells (not otter's cells) in
one namespace, each cell stopped after a time limit, and then serves

* ``{"op": "names"}``: the student's global names and whether each is callable;
* ``{"op": "get", "name": ...}``: a global's value (plain data, else opaque);
* ``{"op": "call", "name": ..., "args": ..., "kwargs": ...}``: calls a function; while
  it runs, a callable the trusted side passed in is called back over the pipe
  (``{"op": "callback"}``); the reply carries the result and the arguments as the call
  left them.

Whatever the student's code raises (KeyboardInterrupt and SystemExit included) is
reported as an error of that call only.
"""

import json
import os
import re
import signal
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import protocol  # noqa: E402

_IN = os.fdopen(os.dup(0), "rb", buffering=1 << 16)   # buffered: readline in large reads
_OUT = os.fdopen(os.dup(1), "wb", buffering=0)
_devnull = os.open(os.devnull, os.O_RDONLY)
os.dup2(_devnull, 0)            # the student's code reads nothing from the grader
os.dup2(2, 1)                   # ... and its prints do not reach the pipe
sys.stdin = open(os.devnull)
sys.stdout = sys.stderr

GRADER_CELL = re.compile(r"#\s*Load otter-grader|\botter\.Notebook\(")
CHECK_LINE = re.compile(r"^\s*grader\.check(_all)?\(.*\)\s*;?\s*$", re.M)


class TimeLimit(BaseException):
    """Raised in the student's code when a cell or a call runs past its limit."""


def _alarm(signum, frame):
    raise TimeLimit("ran past its time limit")


class _Limit:
    """SIGALRM after ``seconds``, repeated every second until the block ends (in case the
    code swallows the first)."""

    def __init__(self, seconds):
        self.seconds = seconds

    def __enter__(self):
        signal.signal(signal.SIGALRM, _alarm)
        signal.setitimer(signal.ITIMER_REAL, self.seconds, 1.0)

    def __exit__(self, *exc):
        signal.setitimer(signal.ITIMER_REAL, 0)
        return False


def send(msg):
    _OUT.write(protocol.dumps(msg))


def receive():
    line = _IN.readline(protocol.MAX_LINE + 1)
    if not line:
        os._exit(0)
    return protocol.loads(line)


def _error(exc):
    return {"type": type(exc).__name__, "message": str(exc)[:500]}


def cells_of(path):
    with open(path, encoding="utf-8") as f:
        nb = json.load(f)
    out = []
    for src in protocol.code_sources(nb):
        if GRADER_CELL.search(src):
            continue                      # otter's cell: otter is not in the sandbox
        out.append(CHECK_LINE.sub("", src))
    return out


class _Shell:
    """What ``get_ipython()`` returns here: magics and shell escapes do nothing."""

    def run_line_magic(self, *args, **kwargs):
        return None

    run_cell_magic = run_line_magic
    system = getoutput = run_line_magic


def _python_of(src):
    try:
        compile(src, "<cell>", "exec")
        return src
    except SyntaxError:
        try:   # IPython syntax (%magic, !command): IPython's own translation to Python
            from IPython.core.inputtransformer2 import TransformerManager
            return TransformerManager().transform_cell(src)
        except Exception:
            return src


def run_notebook(path, cell_timeout, ns):
    errors = []
    for k, src in enumerate(cells_of(path)):
        try:
            code = compile(_python_of(src), f"<cell {k}>", "exec")
            with _Limit(cell_timeout):
                exec(code, ns)
        except BaseException as exc:      # noqa: BLE001 - the next cell runs regardless
            errors.append({"cell": k, **_error(exc)})
            traceback.print_exc()
    return errors


def main():
    notebook, cell_timeout, call_timeout = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
    ns = {"__name__": "__main__", "get_ipython": lambda: _Shell()}
    start = time.perf_counter()
    errors = run_notebook(notebook, cell_timeout, ns)
    send({"op": "ready", "errors": errors, "seconds": time.perf_counter() - start})

    table = protocol.Table(sys.argv[4])     # every list, dict and array that crossed, both ways

    def remote(msg):
        enc = protocol.Encoder(table, strict=False, callable_hook=by_reference)
        msg = {"op": "callback", **msg}
        if "args" in msg:
            msg["args"], msg["kwargs"] = enc.encode(msg["args"]), enc.encode(msg["kwargs"])
        # the grader's own function runs on the student's clock no longer
        paused = signal.setitimer(signal.ITIMER_REAL, 0)
        try:
            send(msg)
            reply = receive()
        finally:
            if paused[0] > 0:
                signal.setitimer(signal.ITIMER_REAL, *paused)
        if "error" in reply:
            raise RuntimeError(f"the grader's object raised {reply['error']}")
        dec = protocol.Decoder(table, callback_hook=callback)
        result = dec.decode(reply["result"])
        if "after" in reply:
            dec.decode(reply["after"])      # what the grader's function did to its arguments
        return result

    class Remote:
        """A function or object of the grader's, passed by reference: used over the pipe."""

        def __init__(self, key):
            object.__setattr__(self, "_key", key)

        def __call__(self, *args, **kwargs):
            return remote({"id": self._key, "args": list(args), "kwargs": dict(kwargs)})

        def __getattr__(self, name):
            if name.startswith("__"):
                raise AttributeError(name)
            return remote({"id": self._key, "attr": name})

        def __repr__(self):
            return f"<the grader's object {self._key}>"

    def by_reference(x):
        return {"__fn__": x._key} if type(x) is Remote else None

    def callback(spec):
        return Remote(str(spec["__fn__"]))

    while True:
        msg = receive()
        op = msg.get("op")
        try:
            enc = protocol.Encoder(table, strict=False, callable_hook=by_reference)
            if op == "names":
                send({"names": {n: callable(v) for n, v in list(ns.items())
                                if isinstance(n, str) and not n.startswith("__")}})
            elif op == "get":
                send({"result": enc.encode(ns[msg["name"]])})
            elif op == "call":
                dec = protocol.Decoder(table, callback_hook=callback)
                args = dec.decode(msg["args"])
                kwargs = dec.decode(msg["kwargs"])
                try:
                    fn = ns[msg["name"]]
                    with _Limit(call_timeout):
                        result = fn(*args, **kwargs)
                except BaseException as exc:     # noqa: BLE001 - fails this call only
                    send({"error": _error(exc)})
                    continue
                # the result, then the arguments as the call left them (one encoder: an
                # argument returned is named, not sent twice)
                send({"result": enc.encode(result), "after": enc.encode([args, kwargs])})
            else:
                send({"error": {"type": "ProtocolError", "message": f"unknown op {op!r}"}})
        except BaseException as exc:             # noqa: BLE001
            send({"error": _error(exc)})


if __name__ == "__main__":
    main()
