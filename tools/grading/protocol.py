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

Lists, dicts and arrays among a call's arguments are numbered in the order the encoder
meets them; both sides number them the same way, so a result may name an argument
(``{"__arg__": k}``: the function returned its input itself) and the sandbox can send
back what the call did to each of them (in-place changes are copied back).

This file is read by both sides (the sandbox gets a read-only copy): it holds no test.
"""

from __future__ import annotations

import base64
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


class Encoder:
    """Encodes one message; ``self.mutables`` lists the lists, dicts and arrays met, in order.

    ``callable_hook(obj)`` turns a callable into a JSON object (the trusted side makes
    callbacks) or returns None; ``strict`` refuses what is not plain data (the trusted
    side) instead of sending it as opaque (the sandbox side); ``args`` (a list of
    objects) lets a result name an argument by its number."""

    def __init__(self, callable_hook=None, strict=True, args=None):
        self.callable_hook = callable_hook
        self.strict = strict
        self.args = {id(a): k for k, a in enumerate(args or [])}
        self.mutables: list = []
        self._seen: dict[int, int] = {}

    def encode(self, x, depth=0):
        if depth > 100:
            raise EncodeError("a value nested more than 100 levels deep")
        t = type(x)
        if x is None or t in (bool, int, str):
            return x
        if t is float:
            return {"__float__": repr(x)} if x != x or x in (float("inf"), float("-inf")) else x
        if id(x) in self.args and t in (list, dict, np.ndarray):
            return {"__arg__": self.args[id(x)]}
        if t in (list, dict, np.ndarray):
            if id(x) in self._seen:
                return {"__ref__": self._seen[id(x)]}
            self._seen[id(x)] = len(self.mutables)
            self.mutables.append(x)
        if t is list:
            return [self.encode(v, depth + 1) for v in x]
        if t is tuple:
            return {"__tuple__": [self.encode(v, depth + 1) for v in x]}
        if t is dict:
            return {"__dict__": [[self.encode(k, depth + 1), self.encode(v, depth + 1)]
                                 for k, v in x.items()]}
        if t is np.ndarray:
            return self._array(x, depth)
        if isinstance(x, np.generic) and type(x) in _SCALAR_TYPES:
            return {"__scalar__": self._array(np.asarray(x), depth)}
        if callable(x) and self.callable_hook is not None:
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
    """Decodes one message; ``self.mutables`` lists the lists, dicts and arrays made, in the
    encoder's order. ``callback_hook(obj)`` turns ``{"__fn__": ...}`` into a callable;
    ``args`` are the objects ``{"__arg__": k}`` names."""

    def __init__(self, callback_hook=None, args=None):
        self.callback_hook = callback_hook
        self.args = list(args or [])
        self.mutables: list = []

    def decode(self, x):
        if x is None or type(x) in (bool, int, float, str):
            return x
        if type(x) is list:
            out: list = []
            self.mutables.append(out)
            out.extend(self.decode(v) for v in x)
            return out
        if type(x) is not dict:
            raise ValueError(f"not a message value: {type(x).__name__}")
        if "__float__" in x:
            return float(x["__float__"])
        if "__tuple__" in x:
            return tuple(self.decode(v) for v in x["__tuple__"])
        if "__dict__" in x:
            out_d: dict = {}
            self.mutables.append(out_d)
            for k, v in x["__dict__"]:
                key = self.decode(k)
                out_d[key] = self.decode(v)
            return out_d
        if "__nd__" in x:
            slot = len(self.mutables)
            self.mutables.append(None)
            a = self._array(x)
            self.mutables[slot] = a
            return a
        if "__scalar__" in x:
            return self._array(x["__scalar__"])[()]
        if "__ref__" in x:
            return self.mutables[int(x["__ref__"])]
        if "__arg__" in x:
            return self.args[int(x["__arg__"])]
        if "__fn__" in x and self.callback_hook is not None:
            return self.callback_hook(x)
        if "__opaque__" in x:
            return Opaque(str(x["__opaque__"]))
        raise ValueError(f"not a message value: keys {sorted(x)[:5]}")

    def _array(self, x):
        shape = tuple(int(n) for n in x["shape"])
        if x["__nd__"] == "O":
            items = [self.decode(v) for v in x["items"]]
            a = np.empty(len(items), dtype=object)
            a[:] = items if items else a
            return a.reshape(shape)
        dtype = np.dtype(x["__nd__"])
        if dtype.kind not in _RAW_KINDS:
            raise ValueError(f"dtype {dtype} does not cross")
        data = base64.b64decode(x["data"])
        return np.frombuffer(data, dtype=dtype).reshape(shape).copy()


def dumps(obj) -> bytes:
    return (json.dumps(obj, allow_nan=False, separators=(",", ":")) + "\n").encode("utf-8")


def loads(line: bytes):
    if len(line) > MAX_LINE:
        raise ValueError("a message longer than 256 MB")
    return json.loads(line.decode("utf-8"), parse_constant=_no_constant)


def _no_constant(name):
    raise ValueError(f"{name} is not JSON")


def copy_back(original, new) -> None:
    """Make the caller's ``original`` (list, dict or array) hold what ``new`` holds now."""
    if original is new:
        return
    if type(original) is np.ndarray and type(new) is np.ndarray:
        if original.shape == new.shape and original.flags.writeable:
            if not np.array_equal(original, new, equal_nan=original.dtype.kind in "fc"):
                np.copyto(original, new, casting="unsafe")
    elif type(original) is list and type(new) is list:
        original[:] = new
    elif type(original) is dict and type(new) is dict:
        original.clear()
        original.update(new)
