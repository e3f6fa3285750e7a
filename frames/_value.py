r"""Value objects: structural equality, hashing and LaTeX display for the library's frozen dataclasses.

Every system and every symbolic result of the library is a frozen dataclass that derives from
:class:`Value`. Two values are equal when they are of the same class and their defining fields
(the dataclass fields with ``compare=True``; caches are declared ``compare=False``) are equal:
sympy objects compare structurally (``==``, no simplification), mappings compare as sets of items.
The hash is consistent with that equality, so values can be keys and set members.

Numerical results holding arrays or compiled code (``Trajectory``, ``TrajectoryBatch``,
``CompiledSystem``) are *not* values: they compare by identity (documented on each class).

:meth:`Value._repr_latex_` shows the defining fields in an ``aligned`` block for Jupyter; the main
systems override :meth:`Value._latex_rows` with the mathematics of the paper.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import numbers
import sys
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from typing import Any, dataclass_transform

import numpy as np
import sympy as sp

from .errors import ArgumentError

__all__ = ["Record", "Value", "cached_method", "check_fields", "freeze", "latex_of"]


def freeze(x: Any) -> Any:
    """A hashable, order-independent image of ``x`` (mappings as sorted item tuples, lists as tuples)."""
    if isinstance(x, Mapping):
        items = [(freeze(k), freeze(v)) for k, v in x.items()]
        return ("<map>", tuple(sorted(items, key=lambda kv: sp.default_sort_key(_sortable(kv[0])))))
    if isinstance(x, list | tuple):
        return tuple(freeze(v) for v in x)
    if isinstance(x, set | frozenset):
        return ("<set>", tuple(sorted((freeze(v) for v in x), key=lambda v: sp.default_sort_key(_sortable(v)))))
    if isinstance(x, sp.MatrixBase) and not isinstance(x, sp.ImmutableMatrix):
        return sp.ImmutableMatrix(x)
    return x


def _sortable(x: Any) -> Any:
    return x if isinstance(x, sp.Basic | str | int | float | tuple) else str(x)


def latex_of(x: Any) -> str:
    """LaTeX of a field value: sympy objects, tuples of them, library objects by their own LaTeX."""
    if isinstance(x, Value):
        return rf"\text{{{type(x).__name__}}}"
    latex = getattr(x, "_repr_latex_", None)
    if callable(latex) and not isinstance(x, sp.Basic):
        return str(latex()).strip("$")
    if isinstance(x, bool) or x is None:
        return rf"\text{{{x}}}"
    if isinstance(x, str):
        return rf"\text{{{x}}}" if x else r"\text{—}"
    if isinstance(x, Mapping):
        return r"\left\{" + ", ".join(f"{latex_of(k)} \\mapsto {latex_of(v)}" for k, v in x.items()) + r"\right\}"
    if isinstance(x, list | tuple):
        return r"\left(" + ", ".join(latex_of(v) for v in x) + r"\right)"
    return sp.latex(x)


@dataclass_transform(eq_default=False, field_specifiers=(dataclasses.field, dataclasses.Field))
class _ValueMeta(type):
    """Makes every subclass a dataclass of its declared fields; seals and validates each instance.

    Construction runs the dataclass ``__init__`` (or the class's own ``__init__``, which may assign
    ``self.field = ...``) and ``__post_init__``, then every ``__check_init__`` of the class and its bases
    (base first), then seals the instance: after that ``setattr`` raises ``FrozenInstanceError``.
    """

    def __new__(mcs, name: str, bases: tuple[type, ...], ns: dict[str, Any], **kw: Any) -> _ValueMeta:
        cls = super().__new__(mcs, name, bases, ns, **kw)
        if bases:  # every subclass of Value, not Value itself
            dataclasses.dataclass(eq=False, repr=False)(cls)  # type: ignore[arg-type]  # in place
        return cls

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        obj = super().__call__(*args, **kwargs)
        for klass in reversed(cls.__mro__):
            check = klass.__dict__.get("__check_init__")
            if check is not None:
                check(obj)
        obj._Value__seal()
        return obj


class Value(metaclass=_ValueMeta):
    r"""The one base of the library's value objects (compare equinox's ``Module``).

    - **Declared fields.** Every subclass is a dataclass of its annotated fields; no decorator is
      needed. ``dataclasses.field(compare=False)`` marks a field that does not define the value.
    - **Construction.** The generated ``__init__`` (or the class's own ``__init__``) may assign fields,
      and ``__post_init__`` may normalise them (``self.x = canon(self.x)``). Then every
      ``__check_init__`` of the class and its bases runs (base first): the validation hook, which
      raises the library's own error naming the object and the reason. Then the instance is sealed:
      any later assignment raises :class:`dataclasses.FrozenInstanceError`.
    - **Derived data** are cached by :func:`functools.cached_property` (no argument) or
      :func:`cached_method` (hashable arguments), both declared on the class; nothing else caches.
    - **Equality** is structural: same class, and equal defining fields (``compare=True``). Sympy
      objects compare structurally (``==``, no simplification); mappings compare as sets of items.
      The hash is consistent with it, so values can be keys and set members.
    - **Display.** ``repr`` is ``Name(field=..., ...)`` over the fields with ``repr=True`` unless the
      class writes its own; :meth:`_repr_latex_` shows :meth:`_latex_rows` in an ``aligned`` block.

    Examples
    --------
    >>> import sympy as sp
    >>> class Pair(Value):
    ...     a: sp.Expr
    ...     b: sp.Expr
    ...     def __post_init__(self):
    ...         self.a = sp.sympify(self.a, strict=True)
    ...     def __check_init__(self):
    ...         if self.a == self.b:
    ...             raise ValueError("Pair: a and b must differ")
    >>> p = Pair(1, sp.Symbol("x"))
    >>> p, p == Pair(sp.Integer(1), sp.Symbol("x"))
    (Pair(a=1, b=x), True)
    >>> p.a = 2
    Traceback (most recent call last):
    ...
    dataclasses.FrozenInstanceError: cannot assign to field 'a' of a sealed Pair
    """

    def __seal(self) -> None:
        super().__setattr__("_Value__sealed", True)

    @classmethod
    def _from_fields(cls, **fields: Any) -> Any:
        """An instance from fields already in canonical form: no ``__init__``, no ``__post_init__``, no check.

        The library's internal fast path, for results it has just computed exactly (a bracket of two
        fields, a field in a new frame); every field must be given.
        """
        obj = object.__new__(cls)
        for f in dataclasses.fields(cls):  # type: ignore[arg-type]
            setattr(obj, f.name, fields.pop(f.name))
        if fields:
            raise TypeError(f"{cls.__name__}._from_fields: unknown fields {sorted(fields)}")
        obj.__seal()
        return obj

    def computed(self, name: str) -> Any:
        """The derived value ``name`` (a ``cached_property``) if it has been computed already, else ``None``.

        Lets a caller use what a value already knows without forcing the computation.
        """
        return self.__dict__.get(name)

    def __setattr__(self, name: str, value: Any) -> None:
        if self.__dict__.get("_Value__sealed"):
            raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r} of a sealed {type(self).__name__}")
        super().__setattr__(name, value)

    def __delattr__(self, name: str) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r} of a {type(self).__name__}")

    def _key(self) -> tuple[Any, ...]:
        return tuple(freeze(getattr(self, f.name)) for f in dataclasses.fields(self) if f.compare)  # type: ignore[arg-type]

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self is other or self._key() == other._key()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._key()))

    def __repr__(self) -> str:
        shown = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in dataclasses.fields(self) if f.repr)  # type: ignore[arg-type]
        return f"{type(self).__name__}({shown})"

    def _latex_rows(self) -> list[tuple[str, str]]:
        """``(label, LaTeX)`` rows of the display; by default the defining fields."""
        return [
            (rf"\text{{{f.name}}}", latex_of(getattr(self, f.name)))
            for f in dataclasses.fields(self)  # type: ignore[arg-type]
            if f.compare and f.repr
        ]

    def _repr_latex_(self) -> str:
        rows = self._latex_rows()
        body = r" \\ ".join(f"{lab} &= {tex}" for lab, tex in rows)
        return rf"$\text{{{type(self).__name__}}}:\ \begin{{aligned}} {body} \end{{aligned}}$"


class Record(Value):
    r"""A value the library returns (a result record): its fields are checked against their declared types.

    The validation hook (``__check_init__``) checks every field against its annotation, so a record built from
    nonsense (``RelativeEquilibrium(42, ...)``) is refused at once with an
    :class:`~frames.errors.ArgumentError` naming the record and the field, not with a ``TypeError`` deep
    inside a later method. The annotations read: a class (``isinstance``; a sympy expression class accepts any
    sympy object, a sympy matrix class any sympy matrix), ``bool`` (also numpy's), ``int`` (not a bool),
    ``float`` (a real number), ``str``, ``tuple[X, ...]`` and ``tuple[X, Y]`` (a tuple, entrywise),
    ``dict[K, V]`` or ``Mapping[K, V]`` (a mapping, itemwise), ``X | None``, ``Literal[...]``; ``Any``, callables
    and names the module imports only for type checking are not checked. A subclass adds its own
    ``__check_init__`` for what types cannot say (lengths that must agree).

    Examples
    --------
    >>> import sympy as sp
    >>> class Root(Record):
    ...     value: sp.Expr
    ...     exact: bool
    >>> Root(sp.sqrt(2), True).exact
    True
    >>> Root((1, 2), True)
    Traceback (most recent call last):
    ...
    frames.errors.ArgumentError: Root: value: expected a sympy expression, got tuple (1, 2)
    """

    def __check_init__(self) -> None:
        check_fields(self)


def check_fields(obj: Any) -> None:
    """Check every field of the dataclass ``obj`` against its declared type (the rules of :class:`Record`).

    The validation hook of :class:`Record`, and of result dataclasses that are not values (a trajectory holds
    arrays). Raises :class:`~frames.errors.ArgumentError` naming the class and the field.
    """
    cls, held = type(obj), vars(obj)
    for name, spec in _field_specs(cls):
        if name in held:  # a field behind a descriptor (computed on first read) is not forced here
            _check_typed(held[name], spec, f"{cls.__name__}: {name}")


#: the resolved annotation of each checked field of a record class (``None``: not checked)
_SPECS: dict[type, tuple[tuple[str, Any], ...]] = {}


def _field_specs(cls: type) -> tuple[tuple[str, Any], ...]:
    specs = _SPECS.get(cls)
    if specs is None:
        out = []
        for f in dataclasses.fields(cls):  # type: ignore[arg-type]
            owner = next((k for k in cls.__mro__ if f.name in inspect.get_annotations(k)), cls)
            ns = dict(vars(sys.modules[owner.__module__]))
            try:
                spec = typing.get_type_hints(_Annotated({f.name: f.type}), globalns=ns)[f.name]
            except Exception:  # a name imported for type checking only: the field is not checked
                continue
            out.append((f.name, spec))
        specs = _SPECS[cls] = tuple(out)
    return specs


class _Annotated:
    """One field's annotation, resolved by :func:`typing.get_type_hints` in its module's namespace."""

    def __init__(self, annotations: dict[str, Any]) -> None:
        self.__annotations__ = annotations


def _describe(spec: Any) -> str:
    origin, args = typing.get_origin(spec), typing.get_args(spec)
    if origin in (types.UnionType, typing.Union):
        return " or ".join(_describe(a) for a in args)
    if origin is tuple:
        return "a tuple"
    if origin is not None and isinstance(origin, type) and issubclass(origin, dict | Mapping):
        return "a mapping"
    if spec is type(None):
        return "None"
    if origin is typing.Literal:
        return " or ".join(map(repr, args))
    if isinstance(spec, type) and issubclass(spec, sp.MatrixBase):
        return "a sympy matrix"
    if isinstance(spec, type) and issubclass(spec, sp.Basic):
        return "a sympy expression" if issubclass(spec, sp.Expr) else f"a sympy {spec.__name__}"
    if spec is bool:
        return "True or False"
    return f"a {getattr(spec, '__name__', spec)}"


def _fits(x: Any, spec: Any, where: str) -> bool:
    """Whether ``x`` fits ``spec`` (raises for a container whose entry does not fit, naming the entry)."""
    origin, args = typing.get_origin(spec), typing.get_args(spec)
    if spec is Any or isinstance(spec, typing.TypeVar) or spec is typing.Callable:
        return True
    if origin in (types.UnionType, typing.Union):
        return any(_fits_quietly(x, a) for a in args) or _raise_inner(x, args, where)
    if origin is typing.Literal:
        return x in args
    if origin is tuple:
        if not isinstance(x, tuple):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            for k, e in enumerate(x):
                _check_typed(e, args[0], f"{where}[{k}]")
        elif args and args != ((),):
            if len(x) != len(args):
                raise ArgumentError(f"{where}: expected a tuple of {len(args)} entries, got {len(x)}")
            for k, (e, a) in enumerate(zip(x, args, strict=True)):
                _check_typed(e, a, f"{where}[{k}]")
        return True
    if origin is not None and isinstance(origin, type) and issubclass(origin, dict | Mapping):
        if not isinstance(x, Mapping):
            return False
        if len(args) == 2:
            for k, v in x.items():
                _check_typed(k, args[0], f"{where} key {k!r:.40}")
                _check_typed(v, args[1], f"{where}[{k!r:.40}]")
        return True
    if origin is not None:  # another generic (Callable[...], Sequence[...]): its origin class only
        return not isinstance(origin, type) or isinstance(x, origin)
    if spec is type(None):
        return x is None
    if spec is bool:
        return isinstance(x, bool | np.bool_)
    if spec is int:
        return isinstance(x, numbers.Integral) and not isinstance(x, bool | np.bool_)
    if spec is float:
        return isinstance(x, numbers.Real) and not isinstance(x, bool | np.bool_)
    if isinstance(spec, type) and issubclass(spec, sp.MatrixBase):
        return isinstance(x, sp.MatrixBase)
    if isinstance(spec, type) and issubclass(spec, sp.Expr):
        return isinstance(x, sp.Basic) and not isinstance(x, sp.MatrixBase)
    if isinstance(spec, type):
        return isinstance(x, spec)
    return True


def _fits_quietly(x: Any, spec: Any) -> bool:
    try:
        return _fits(x, spec, "")
    except ArgumentError:
        return False


def _raise_inner(x: Any, args: tuple[Any, ...], where: str) -> bool:
    """``x`` fits no alternative: the message of the container alternative of its kind, if any (it names the entry)."""
    for a in args:
        o = typing.get_origin(a)
        if (o is tuple and isinstance(x, tuple)) or (o in (dict, Mapping) and isinstance(x, Mapping)):
            _fits(x, a, where)
    return False


def _check_typed(x: Any, spec: Any, where: str) -> None:
    if not _fits(x, spec, where):
        r = repr(x)
        r = r if len(r) <= 60 else r[:57] + "..."
        raise ArgumentError(f"{where}: expected {_describe(spec)}, got {type(x).__name__} {r}")


def cached_method(method: Callable[..., Any]) -> Callable[..., Any]:
    """Cache a value's method by its (hashable) arguments, in the instance, like ``cached_property``.

    The cache is the instance's own ``__dict__`` entry named after the method; it is not a field, so it
    takes no part in equality, hashing or display.
    """
    slot = f"_cached_{method.__name__}"

    @functools.wraps(method)
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        cache = self.__dict__.setdefault(slot, {})
        key = (args, tuple(sorted(kwargs.items())))
        if key not in cache:
            cache[key] = method(self, *args, **kwargs)
        return cache[key]

    return wrapper


class Multipliers(tuple):  # type: ignore[type-arg]
    r"""A tuple of multipliers ``(λ_{m+1}, …, λ_n)`` that shows itself as equations in Jupyter.

    It is a plain tuple for every other purpose (equality, hashing, unpacking, indexing). Printed (``repr``,
    ``str``, LaTeX) each entry is shown in its display form ``display(λ)`` (the library passes
    :func:`~frames.algebra.harmonic_form`: sines and cosines of sums and differences of angles where shorter),
    computed once, when first shown; the entries themselves are the canonical forms.

    Examples
    --------
    >>> import sympy as sp
    >>> x = sp.Symbol("x")
    >>> lam = Multipliers((x**2, -x), first=3)
    >>> lam == (x**2, -x), lam._repr_latex_()
    (True, '$\\begin{aligned} \\lambda_{3} &= x^{2} \\\\ \\lambda_{4} &= - x \\end{aligned}$')
    """

    first: int
    symbol: str
    _display: Callable[[Any], Any] | None
    _shown: tuple[Any, ...] | None

    def __new__(
        cls, items: Any, first: int = 1, symbol: str = r"\lambda", display: Callable[[Any], Any] | None = None
    ) -> Multipliers:
        if isinstance(items, str | bytes | sp.Basic | Mapping) or not isinstance(items, Iterable):
            raise ArgumentError(f"Multipliers: items: expected a sequence of expressions, got {type(items).__name__}")
        out = super().__new__(cls, items)
        for k, e in enumerate(out):
            _check_typed(e, sp.Expr, f"Multipliers: items[{k}]")
        if isinstance(first, bool) or not isinstance(first, numbers.Integral):
            raise ArgumentError(f"Multipliers: first: expected an integer, got {type(first).__name__}")
        if not isinstance(symbol, str):
            raise ArgumentError(f"Multipliers: symbol: expected a str, got {type(symbol).__name__}")
        if display is not None and not callable(display):
            raise ArgumentError(f"Multipliers: display: expected a callable or None, got {type(display).__name__}")
        out.first = first
        out.symbol = symbol
        out._display = display
        out._shown = None
        return out

    def shown(self) -> tuple[Any, ...]:
        """The entries in their display form (computed once)."""
        if self._shown is None:
            self._shown = tuple(self) if self._display is None else tuple(self._display(e) for e in self)
        return self._shown

    def __repr__(self) -> str:
        return "(" + ", ".join(map(str, self.shown())) + ("," if len(self) == 1 else "") + ")"

    __str__ = __repr__

    def _repr_latex_(self) -> str:
        rows = [f"{self.symbol}_{{{self.first + k}}} &= {sp.latex(e)}" for k, e in enumerate(self.shown())]
        return "$\\begin{aligned} " + r" \\ ".join(rows) + " \\end{aligned}$"
