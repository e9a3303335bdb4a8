"""The plain-data encoding between the grader's trusted process and the sandbox.

One JSON object per line, never pickle. A value is plain data or it does not cross:

* ``None``, ``bool``, ``int``, ``float``, ``str`` (their exact types, no subclass);
* ``list``, ``tuple``, ``dict`` of those (exact types);
* NumPy arrays (exact ``np.ndarray``) and NumPy scalars of a numeric, boolean or string
  dtype, as dtype, shape and data (base64 of the raw bytes); arrays of dtype ``object``
  element by element.

Anything else a student's function returns (an object whose ``==`` is always true, a
subclass of ``float``, a function, ...) arrives as :class:`Opaque`, which equals
nothing and refuses to be used as a truth value or a number: a wrong answer.

Every list, dict and array that crosses carries a token (``Table``): when it comes back
it is the same object, with what the other side did to it written in. So a function
that returns its input or keeps a buffer between calls behaves as it would without the
pipe. What a student's function does to its arguments in place is written back into the
tests' objects only where the assignment says ``write_back: true`` (trusted.py); else
the test's data is sent afresh on the next call.

This file is read by both sides (the sandbox gets a read-only copy): it holds no test.
"""

from __future__ import annotations

import base64
import hashlib
import json

import numpy as np

# dtype kinds that cross as raw bytes: bool, signed and unsigned int, float, complex,
# fixed-width bytes and unicode strings
_RAW_KINDS = set("biufcSU")
MAX_LINE = 1 << 28          # a message longer than 256 MB is refused


class Opaque:
    """Stands for a value that is not plain data; it equals nothing."""

    __slots__ = ("type_name",)

    def __init__(self, type_name: str):
        self.type_name = type_name

    def __repr__(self):
        return f"<not plain data: a {self.type_name}>"

    def __eq__(self, other):
        return False

    def __ne__(self, other):
        return True

    __hash__ = None

    def __bool__(self):
        raise TypeError(f"{self!r} has no truth value")

    def __float__(self):
        raise TypeError(f"{self!r} is not a number")

    __int__ = __index__ = __float__


class EncodeError(TypeError):
    pass


class Table:
    """The lists, dicts and arrays that crossed, by token, for the whole grading.

    Each side mints tokens for its own objects (``prefix`` "t" on the trusted side, "s"
    in the sandbox) and records the other side's: an object that comes back names its
    token, so it is the same object again (a function that returns its input, a buffer
    kept between calls), and what the other side changed in it is written into it. It
    keeps every object it saw alive, so an id is never reused."""

    def __init__(self, prefix: str):
        self.prefix = prefix
        self.by_id: dict[int, str] = {}
        self.by_tok: dict[str, object] = {}
        self.synced: dict[str, bytes] = {}   # an array's digest when it last crossed

    def tok_of(self, obj) -> str:
        tok = self.by_id.get(id(obj))
        if tok is None:
            tok = f"{self.prefix}{len(self.by_tok)}"
            self.remember(tok, obj)
        return tok

    def remember(self, tok: str, obj) -> None:
        old = self.by_tok.get(tok)
        if old is not None:
            self.by_id.pop(id(old), None)
        self.by_tok[tok] = obj
        self.by_id[id(obj)] = tok


class Encoder:
    """Encodes one message; ``self.toks`` lists the tokens of the lists, dicts and arrays met.

    ``callable_hook(obj)`` turns any other object into a JSON object (the trusted side
    passes its functions and objects by reference: the sandbox calls back) or returns None;
    ``strict`` refuses what is not plain data (the trusted side) instead of sending it as
    opaque (the sandbox side)."""

    def __init__(self, table: Table, callable_hook=None, strict=True):
        self.table = table
        self.callable_hook = callable_hook
        self.strict = strict
        self.toks: list[str] = []
        self._seen: set[str] = set()

    def encode(self, x, depth=0):
        if depth > 100:
            raise EncodeError("a value nested more than 100 levels deep")
        t = type(x)
        if x is None or t in (bool, int, str):
            return x
        if t is float:
            return {"__float__": repr(x)} if x != x or x in (float("inf"), float("-inf")) else x
        if t in (list, dict, np.ndarray):
            tok = self.table.tok_of(x)
            if tok in self._seen:          # the same object twice in one message
                return {"__same__": tok}
            self._seen.add(tok)
            self.toks.append(tok)
            if t is list:
                return {"__list__": [self.encode(v, depth + 1) for v in x], "tok": tok}
            if t is dict:
                return {"__dict__": [[self.encode(k, depth + 1), self.encode(v, depth + 1)]
                                     for k, v in x.items()], "tok": tok}
            digest = _digest(x)
            if digest is not None and self.table.synced.get(tok) == digest:
                return {"__sync__": tok}       # unchanged since it last crossed: no data
            self.table.synced[tok] = digest
            return {**self._array(x, depth), "tok": tok}
        if t is tuple:
            return {"__tuple__": [self.encode(v, depth + 1) for v in x]}
        if isinstance(x, np.generic) and type(x) in _SCALAR_TYPES:
            return {"__scalar__": self._array(np.asarray(x), depth)}
        if self.callable_hook is not None:
            out = self.callable_hook(x)
            if out is not None:
                return out
        if self.strict:
            raise EncodeError(f"a {t.__module__}.{t.__qualname__} cannot cross to the submission")
        return {"__opaque__": f"{t.__module__}.{t.__qualname__}"}

    def _array(self, a, depth):
        if a.dtype.kind in _RAW_KINDS and not a.dtype.fields:
            data = np.ascontiguousarray(a).tobytes()
            return {"__nd__": a.dtype.str, "shape": list(a.shape),
                    "data": base64.b64encode(data).decode("ascii")}
        if a.dtype.kind == "O":
            return {"__nd__": "O", "shape": list(a.shape),
                    "items": [self.encode(v, depth + 1) for v in a.ravel().tolist()]}
        if self.strict:
            raise EncodeError(f"an array of dtype {a.dtype} cannot cross to the submission")
        return {"__opaque__": f"numpy array of dtype {a.dtype}"}


_SCALAR_TYPES = {np.dtype(c).type for c in "?bhilqBHILQefdgFDG"} | {np.str_, np.bytes_}


class Decoder:
    """Decodes one message against ``table``.

    A list, dict or array whose token the table knows is that object again; what the
    message holds is written into it when ``writable`` allows (None: always, the
    sandbox's side; else a set of tokens, the trusted side: the arguments of the call
    under way where the assignment declares ``write_back``, else none), else it is a new
    object; ``changed`` collects the tokens of our objects the other side changed. ``callback_hook(obj)`` turns
    ``{"__fn__": ...}`` into a callable."""

    def __init__(self, table: Table, callback_hook=None, writable=None):
        self.table = table
        self.callback_hook = callback_hook
        self.writable = writable
        self._made: dict[str, object] = {}
        # tokens of objects of ours the other side changed in place (written into ours
        # or not, as ``writable`` says)
        self.changed: set[str] = set()

    def decode(self, x):
        if x is None or type(x) in (bool, int, float, str):
            return x
        if type(x) is not dict:
            raise ValueError(f"not a message value: {type(x).__name__}")
        if "__float__" in x:
            return float(x["__float__"])
        if "__tuple__" in x:
            return tuple(self.decode(v) for v in x["__tuple__"])
        if "__same__" in x:
            return self._made[str(x["__same__"])]
        if "__sync__" in x:
            tok = str(x["__sync__"])
            obj = self.table.by_tok.get(tok)
            if type(obj) is not np.ndarray or tok in self._made:
                raise ValueError("an unknown array")
            self._made[tok] = obj
            return obj
        if "__list__" in x or "__dict__" in x or ("__nd__" in x and "tok" in x):
            return self._mutable(x)
        if "__nd__" in x:
            return self._array(x)
        if "__scalar__" in x:
            return self._array(x["__scalar__"])[()]
        if "__fn__" in x and self.callback_hook is not None:
            return self.callback_hook(x)
        if "__opaque__" in x:
            return Opaque(str(x["__opaque__"]))
        raise ValueError(f"not a message value: keys {sorted(x)[:5]}")

    def _mutable(self, x):
        tok = str(x["tok"])
        if tok in self._made:
            raise ValueError("a token sent twice in one message")
        known = self.table.by_tok.get(tok)
        if "__list__" in x:
            fresh: object = []
        elif "__dict__" in x:
            fresh = {}
        else:
            fresh = None
        if known is not None and type(known) is not type(fresh if fresh is not None else np.empty(0)):
            known = None
        use_known = known is not None and (self.writable is None or tok in self.writable)
        self._made[tok] = known if use_known else fresh
        if "__list__" in x:
            items = [self.decode(v) for v in x["__list__"]]
            target = known if use_known else fresh
            if known is not None and not same(known, items):
                self.changed.add(tok)
            target[:] = items
        elif "__dict__" in x:
            pairs = [(self.decode(k), self.decode(v)) for k, v in x["__dict__"]]
            target = known if use_known else fresh
            if known is not None and not same(known, dict(pairs)):
                self.changed.add(tok)
            target.clear()
            target.update(pairs)
        else:
            a = self._array(x)
            if use_known and known.shape == a.shape and known.dtype == a.dtype and known.flags.writeable:
                if not np.array_equal(known, a, equal_nan=a.dtype.kind in "fc"):
                    self.changed.add(tok)
                    np.copyto(known, a)
                target = known
            else:
                if known is not None and not use_known and not same(known, a):
                    self.changed.add(tok)
                target = a
            self._made[tok] = target
        if known is not None and target is not known and self.writable is not None:
            # ours stays as it was, the other side's copy may differ: the next time it
            # crosses it goes in full (never as "unchanged since it last crossed")
            self.table.synced.pop(tok, None)
        else:
            self.table.remember(tok, target)      # a new object of the other side's, or ours again
            if type(target) is np.ndarray:
                self.table.synced[tok] = _digest(target)
        return target

    def _array(self, x):
        shape = tuple(int(n) for n in x["shape"])
        if x["__nd__"] == "O":
            items = [self.decode(v) for v in x["items"]]
            a = np.empty(len(items), dtype=object)
            for i, v in enumerate(items):
                a[i] = v
            return a.reshape(shape)
        dtype = np.dtype(x["__nd__"])
        if dtype.kind not in _RAW_KINDS or dtype.fields:
            raise ValueError(f"dtype {dtype} does not cross")
        data = base64.b64decode(x["data"])
        return np.frombuffer(data, dtype=dtype).reshape(shape).copy()


def same(a, b) -> bool:
    """Whether two decoded values hold the same data (types, shapes and values; NaN equals
    NaN): what tells an argument changed in place from one left alone."""
    if type(a) is not type(b):
        return False
    if type(a) is np.ndarray:
        return a.shape == b.shape and a.dtype == b.dtype and bool(
            np.array_equal(a, b, equal_nan=a.dtype.kind in "fc"))
    if type(a) in (list, tuple):
        return len(a) == len(b) and all(same(u, v) for u, v in zip(a, b))
    if type(a) is dict:
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if type(a) is float and a != a:
        return b != b
    try:
        return bool(a == b)
    except Exception:     # noqa: BLE001 - an opaque value or an object of the grader's
        return a is b


def _digest(a):
    """A digest of an array's dtype, shape and bytes (None for dtype object)."""
    if a.dtype.kind not in _RAW_KINDS or a.dtype.fields:
        return None
    h = hashlib.blake2b(digest_size=16)
    h.update(f"{a.dtype.str}{a.shape}".encode())
    h.update(memoryview(np.ascontiguousarray(a)).cast("B"))
    return h.digest()


def dumps(obj) -> bytes:
    return (json.dumps(obj, allow_nan=False, separators=(",", ":")) + "\n").encode("utf-8")


def loads(line: bytes):
    if len(line) > MAX_LINE:
        raise ValueError("a message longer than 256 MB")
    return json.loads(line.decode("utf-8"), parse_constant=_no_constant)


def _no_constant(name):
    raise ValueError(f"{name} is not JSON")


def code_sources(nb) -> list[str]:
    """The source of each code cell of a notebook (a dict as json.load gives it), in order;
    anything malformed is skipped, since the notebook is the student's."""
    out = []
    for cell in nb.get("cells", []) if isinstance(nb, dict) else []:
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        src = cell.get("source", "")
        out.append("".join(src) if isinstance(src, list) else str(src))
    return out
