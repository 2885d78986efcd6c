"""How the search runs: compiled by numba where it is installed, else the same code as Python.

The search's functions (``ranks``, ``tables``, ``bounds``, ``ordering``, ``search``) are written
once, in the part of Python that numba compiles, and marked with ``kernel``.  They stay plain
Python functions in their modules.  ``python_core`` runs them as they are; ``numba_core`` makes a
compiled twin of each (``numba.njit`` on a copy of the function whose globals name the other
twins), so the two cores are one source.

A kernel makes no arrays (the rank tables and the table are made by the core, ``ints``): they
are compiled without numba's runtime (its ``_nrt`` option), which otherwise counts each array
argument of every recursive call up and down with an atomic instruction each -- 18 per call of
``search.node``, half its time on May Trump's deals -- and which a process would load with the
first kernel.

A process loads the compiled kernels from numba's cache without numba's registries of what it
can compile (``_load_from_cache_only``): they cost 0.1 s of CPU at each start, and serve only a
compilation, which loads them itself.

The helpers a kernel calls on masks and arrays have a Python body here and a numba one
(``_register_numba_helpers``, numba's ``overload``): ``popcount``, ``top`` and ``low`` (one
machine instruction each when compiled) and ``reserve`` (grows a list; compiled arrays are
reserved at their largest size once, see ``tables``).
"""

from __future__ import annotations

import os
import types
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

KernelFunction = Callable[..., Any]

_KERNELS: list[KernelFunction] = []
"""Every function marked ``kernel``, in the order their modules define them."""
_SIGNATURES: dict[str, str] = {}
"""Kernels compiled for one signature only (by qualified name): see ``search._node``."""


def kernel(function: KernelFunction) -> KernelFunction:
    """Mark ``function`` as part of the search: it runs as it is in the Python core and compiled
    in numba's.  It must keep to what numba compiles (ints, int64 arrays or lists, ``kernel``
    functions and the helpers of this module)."""
    _KERNELS.append(function)
    return function


def one_signature(spec: str) -> Callable[[KernelFunction], KernelFunction]:
    """``kernel`` for a function numba compiles for exactly one signature (``spec``: ``I`` an
    int64, ``V`` a 1-d int64 array; the result first).  A recursive function needs it: numba
    would type a bare constant argument as a literal and compile (and fail to link, when loaded
    from its cache) another version for it; so a recursive call passes no literal either."""

    def mark(function: KernelFunction) -> KernelFunction:
        _SIGNATURES[function.__qualname__] = spec
        return kernel(function)

    return mark


# --- the helpers, as Python -------------------------------------------------------------------


def popcount(x: int) -> int:
    """The number of set bits of ``x``."""
    return x.bit_count()


def top(x: int) -> int:
    """The index of the highest set bit of a nonzero mask."""
    return x.bit_length() - 1


def low(x: int) -> int:
    """The index of the lowest set bit of a nonzero mask."""
    return (x & -x).bit_length() - 1


def reserve(table: list[int], n: int) -> None:
    """Make the table's list ``n`` long (the compiled array already is)."""
    if len(table) < n:
        table.extend([0] * (n - len(table)))


# --- the two cores ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Core:
    """One way to run the search: ``functions`` by name, and how it makes its arrays."""

    name: str  # "numba" or "python"
    functions: dict[str, KernelFunction]
    ints: Callable[[int], Any]  # n zeros, int64
    array: Callable[[list[int]], Any]  # these values, int64 (one conversion: cheaper than value by value)
    compiled: bool
    bind: Callable[[Sequence[Any], Sequence[Any]], Any] | None = None
    """For the saved machine code (``native``): entry points with the same arguments, their
    arrays fixed, as functions of their integers alone (``calls``; one block of words for them,
    whose arrays a later solver may replace: ``rebind``)."""
    zero: Callable[[Any, int], None] = lambda array, n: array.__setitem__(slice(0, n), [0] * n)
    """Set the first ``n`` items of one of its arrays to 0."""

    def __getattr__(self, name: str) -> KernelFunction:
        try:
            return self.functions[name]
        except KeyError:
            raise AttributeError(name) from None


def python_core() -> Core:
    """The search as Python: its functions as they are written (every kernel marked so far:
    ``core`` imports the search's modules first)."""
    return Core("python", {f.__name__: f for f in _KERNELS}, lambda n: [0] * n, list, compiled=False)


def numba_core() -> Core:
    """The search compiled by numba (raises what numba raises if it is missing or fails).

    Each kernel gets a twin: the same code with globals of its own, where every kernel it names
    is the twin.  The twins are numba dispatchers with ``cache=True``: the first process
    compiles them and writes numba's cache; later ones load it.  Compilation is lazy, except
    for the kernels of ``one_signature``, compiled here."""
    import numba  # type: ignore[import-not-found, import-untyped, unused-ignore]
    import numpy as np  # type: ignore[import-not-found, unused-ignore]
    from numba.core.cpu import CPUTargetOptions  # type: ignore[import-not-found, import-untyped, unused-ignore]

    _register_numba_helpers()
    replaced: dict[int, Any] = {}
    twins: list[tuple[KernelFunction, Any, dict[str, Any]]] = []
    for function in _KERNELS:
        namespace = dict(function.__globals__)
        twin = types.FunctionType(
            function.__code__, namespace, function.__name__, function.__defaults__, function.__closure__
        )
        twin.__qualname__ = function.__qualname__
        twin.__doc__ = function.__doc__
        options: dict[str, Any] = {"cache": True, "nogil": True}
        if hasattr(CPUTargetOptions, "_nrt"):
            options["_nrt"] = False  # numba's own option, not in its type stubs
        dispatcher = numba.njit(**options)(twin)
        _load_from_cache_only(dispatcher)
        replaced[id(function)] = dispatcher
        twins.append((function, dispatcher, namespace))
    for _function, _dispatcher, namespace in twins:
        for name, value in list(namespace.items()):
            if id(value) in replaced:
                namespace[name] = replaced[id(value)]
    types_of = {
        "I": numba.types.int64,
        "V": numba.types.Array(numba.types.int64, 1, "C"),
    }
    for function, dispatcher, _namespace in twins:
        spec = _SIGNATURES.get(function.__qualname__)
        if spec is not None:
            dispatcher.compile(types_of[spec[0]](*(types_of[x] for x in spec[1:])))
            dispatcher.disable_compile()
    functions = {f.__name__: d for f, d, _ in twins}
    return Core(
        "numba",
        functions,
        lambda n: np.zeros(n, np.int64),
        lambda xs: np.array(xs, np.int64),
        compiled=True,
        zero=lambda array, n: array.__setitem__(slice(0, n), 0),
    )


def _load_from_cache_only(dispatcher: Any) -> None:
    """Load ``dispatcher``'s compiled code from numba's cache without first loading numba's
    registries of what it can compile (its ``load_overload`` refreshes the whole target: some
    fifty modules of numba, numpy's and Python's types, 0.1 s of CPU at each start).  Code
    loaded from the cache needs none of them; where the cache misses, numba's compiler loads them
    itself before it compiles.  A numba without these internals loads as it always did."""
    cache: Any = getattr(dispatcher, "_cache", None)
    load = getattr(cache, "_load_overload", None)
    guard = getattr(cache, "_guard_against_spurious_io_errors", None)
    if load is None or guard is None:
        return

    def load_overload(sig: Any, target_context: Any) -> Any:
        with guard():
            return load(sig, target_context)
        return None  # an error the guard let pass: numba compiles, as when nothing is cached

    cache.load_overload = load_overload


_REGISTERED: list[bool] = []


def _register_numba_helpers() -> None:
    """numba's implementations of the helpers (``overload``: a compiled kernel that calls
    ``popcount`` runs this instead of its Python body).  Once per process."""
    if _REGISTERED:
        return
    import numba
    from llvmlite import ir  # type: ignore[import-not-found, import-untyped, unused-ignore]
    from numba.extending import intrinsic, overload  # type: ignore[import-not-found, import-untyped, unused-ignore]

    int64 = numba.types.int64

    def ctpop_typing(_typingctx: Any, _x: Any) -> Any:
        def codegen(_context: Any, builder: Any, _signature: Any, args: Any) -> Any:
            return builder.ctpop(args[0])

        return int64(int64), codegen

    def ctlz_typing(_typingctx: Any, _x: Any) -> Any:
        def codegen(_context: Any, builder: Any, _signature: Any, args: Any) -> Any:
            zeros_ = builder.ctlz(args[0], ir.Constant(ir.IntType(1), 1))
            return builder.sub(ir.Constant(ir.IntType(64), 63), zeros_)

        return int64(int64), codegen

    def cttz_typing(_typingctx: Any, _x: Any) -> Any:
        def codegen(_context: Any, builder: Any, _signature: Any, args: Any) -> Any:
            return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

        return int64(int64), codegen

    ctpop: Any = intrinsic(ctpop_typing)
    ctlz: Any = intrinsic(ctlz_typing)
    cttz: Any = intrinsic(cttz_typing)
    # Each typing function and its implementation take the arguments by the Python function's
    # names, and without annotations (numba compares the two signatures).
    overload(popcount)(lambda x: lambda x: ctpop(x))
    overload(top)(lambda x: lambda x: ctlz(x))
    overload(low)(lambda x: lambda x: cttz(x))
    overload(reserve)(lambda table, n: lambda table, n: None)
    _REGISTERED.append(True)


def numba_wanted() -> bool:
    """Whether numba may be tried at all in this process (``NUMBA_DISABLE_JIT`` says no)."""
    return os.environ.get("NUMBA_DISABLE_JIT", "") in ("", "0")
