"""Positions in TOML text: which line and column a key path of a system file came from.

``tomllib`` forgets positions; the scanner here re-reads the text (bounded, never recursing deeper than
``MAX_TOML_DEPTH``) so that :class:`~frames.errors.SystemFileError` can say ``line L, column C`` for a bad value.
"""

from __future__ import annotations

import bisect
import re
import tomllib
from dataclasses import dataclass
from typing import Any

from ._safe_parser import MAX_TOML_DEPTH


# ----------------------------------------------------------------- TOML positions
def _toml_depth_error(src: str) -> int | None:
    """Offset of the first ``[``/``{`` nested deeper than ``MAX_TOML_DEPTH`` (outside strings and comments)."""
    depth = 0
    i, n = 0, len(src)
    while i < n:
        c = src[i]
        if c in "[{":
            depth += 1
            if depth > MAX_TOML_DEPTH:
                return i
        elif c in "]}":
            depth = max(0, depth - 1)
        elif c == "#":
            j = src.find("\n", i)
            i = n if j < 0 else j
            continue
        elif c in "\"'":
            triple = src.startswith(c * 3, i)
            close = c * 3 if triple else c
            j = i + len(close)
            while j < n:
                if c == '"' and src[j] == "\\":
                    j += 2
                    continue
                if src.startswith(close, j):
                    break
                if not triple and src[j] == "\n":
                    break
                j += 1
            i = j + len(close)
            continue
        i += 1
    return None


@dataclass
class _Span:
    """Where a TOML key and its value are: offsets in the (``\\r\\n``-normalised) text."""

    key: int
    value: int
    kind: str = ""  # the opening quote of a string value ('"', "'", '\"\"\"', "'''"), else ""
    body: str = ""  # the raw text between the quotes

    def at(self, index: int | None) -> int:
        """Offset in the file of character ``index`` of the decoded value (the value's start if unknown)."""
        if index is None or not self.kind:
            return self.value
        body_start = self.value + len(self.kind)
        raw_positions = _decoded_positions(self.body, self.kind)
        if not raw_positions:
            return self.value
        return body_start + raw_positions[max(0, min(index, len(raw_positions) - 1))]


def _decoded_positions(body: str, kind: str) -> list[int]:
    """For each character of the decoded TOML string, its offset in the raw ``body`` (plus one past the end)."""
    out: list[int] = []
    i, n = 0, len(body)
    if kind in ('"""', "'''") and body.startswith("\n"):
        i = 1  # a newline right after the opening quotes is trimmed
    if kind.startswith("'"):
        return list(range(i, n + 1))
    while i < n:
        c = body[i]
        if c != "\\":
            out.append(i)
            i += 1
            continue
        nxt = body[i + 1 : i + 2]
        if nxt == "u":
            out.append(i)
            i += 6
        elif nxt == "U":
            out.append(i)
            i += 10
        elif nxt and nxt in 'btnfr"\\e':
            out.append(i)
            i += 2
        else:  # line-ending backslash of a multi-line string: skip all white space
            i += 1
            while i < n and body[i] in " \t\n":
                i += 1
    out.append(n)
    return out


class _Stop(Exception):
    pass


class _TomlScanner:
    """Positions of the keys and values of a *valid* TOML document (it never raises; gives up quietly)."""

    _BARE = re.compile(r"[A-Za-z0-9_-]+")
    _SCALAR = re.compile(r"[^\s,\]\}#]+")

    def __init__(self, src: str) -> None:
        self.s = src
        self.i = 0
        self.out: dict[tuple[Any, ...], _Span] = {}
        self.tables: dict[tuple[Any, ...], int] = {}
        try:
            self.document()
        except (_Stop, IndexError, RecursionError):
            pass

    def peek(self, k: int = 1) -> str:
        return self.s[self.i : self.i + k]

    def blanks(self, newlines: bool) -> None:
        s, n = self.s, len(self.s)
        while self.i < n:
            c = s[self.i]
            if c in " \t" or (newlines and c in "\r\n"):
                self.i += 1
            elif newlines and c == "#":
                j = s.find("\n", self.i)
                self.i = n if j < 0 else j
            else:
                return

    def string(self) -> tuple[str, str]:
        s, i = self.s, self.i
        c = s[i]
        kind = c * 3 if s.startswith(c * 3, i) else c
        j = i + len(kind)
        while True:
            if j >= len(s):
                raise _Stop
            if c == '"' and s[j] == "\\":
                j += 2
                continue
            if s.startswith(kind, j):
                break
            j += 1
        if len(kind) == 3:  # up to two quotes right before the closing ones belong to the body
            extra = 0
            while extra < 2 and s[j + 3 : j + 4] == c:
                j += 1
                extra += 1
        self.i = j + len(kind)
        return kind, s[i + len(kind) : j]

    def key(self) -> tuple[str, ...]:
        parts: list[str] = []
        while True:
            self.blanks(False)
            c = self.peek()
            if c in ('"', "'"):
                kind, body = self.string()
                if kind == '"' and "\\" in body:
                    try:
                        body = tomllib.loads(f'k = "{body}"')["k"]
                    except tomllib.TOMLDecodeError:
                        raise _Stop from None
                parts.append(body)
            else:
                m = self._BARE.match(self.s, self.i)
                if not m:
                    raise _Stop
                parts.append(m.group())
                self.i = m.end()
            self.blanks(False)
            if self.peek() != ".":
                return tuple(parts)
            self.i += 1

    def key_value(self, prefix: tuple[Any, ...], at: int) -> None:
        """``key = value`` at the cursor (``at``: where the key starts), recorded under ``prefix``."""
        k = self.key()
        self.blanks(False)
        if self.peek() != "=":
            raise _Stop
        self.i += 1
        self.blanks(False)
        self.value((*prefix, *k), at)

    def value(self, path: tuple[Any, ...], key_at: int) -> None:
        start = self.i
        c = self.peek()
        if c in ('"', "'"):
            kind, body = self.string()
            self.out[path] = _Span(key_at, start, kind, body)
        elif c == "[":
            self.out[path] = _Span(key_at, start)
            self.i += 1
            idx = 0
            while True:
                self.blanks(True)
                if self.peek() == "]":
                    self.i += 1
                    return
                before = self.i
                self.value((*path, idx), self.i)
                idx += 1
                self.blanks(True)
                if self.peek() == ",":
                    self.i += 1
                elif self.i == before:
                    raise _Stop
        elif c == "{":
            self.out[path] = _Span(key_at, start)
            self.i += 1
            while True:
                self.blanks(False)
                if self.peek() == "}":
                    self.i += 1
                    return
                self.key_value(path, self.i)
                self.blanks(False)
                if self.peek() == ",":
                    self.i += 1
        else:
            m = self._SCALAR.match(self.s, self.i)
            if not m:
                raise _Stop
            self.out[path] = _Span(key_at, start)
            self.i = m.end()

    def document(self) -> None:
        table: tuple[Any, ...] = ()
        n = len(self.s)
        while True:
            self.blanks(True)
            if self.i >= n:
                return
            at = self.i
            if self.peek(2) == "[[":
                self.i += 2
                base = self.key()
                self.blanks(False)
                if self.peek(2) != "]]":
                    raise _Stop
                self.i += 2
                idx = self.tables.get(base, 0)
                self.tables[base] = idx + 1
                table = (*base, idx)
                self.out.setdefault(base, _Span(at, at))
                self.out[table] = _Span(at, at)
            elif self.peek() == "[":
                self.i += 1
                table = self.key()
                self.blanks(False)
                if self.peek() != "]":
                    raise _Stop
                self.i += 1
                self.out[table] = _Span(at, at)
            else:
                self.key_value(table, at)
            self.blanks(False)
            if self.peek() == "#":
                j = self.s.find("\n", self.i)
                self.i = n if j < 0 else j
            if self.i < n and self.s[self.i] not in "\r\n":
                raise _Stop


def _key_path(key: str) -> tuple[Any, ...]:
    """``"frame[1][2]"`` -> ``("frame", 1, 2)``; ``"parameters.m.value"`` -> ``("parameters", "m", "value")``."""
    out: list[Any] = []
    for name, idx in re.findall(r"([^.\[\]]+)|\[(\d+)\]", key):
        out.append(int(idx) if idx else name)
    return tuple(out)


class _Locator:
    """Line and column of a key (and of a character inside its string value) in a TOML text."""

    def __init__(self, src: str) -> None:
        self.src = src
        self._spans: dict[tuple[Any, ...], _Span] | None = None
        self._starts: list[int] = []

    def spans(self) -> dict[tuple[Any, ...], _Span]:
        if self._spans is None:
            self._spans = _TomlScanner(self.src).out
            self._starts = [0] + [m.end() for m in re.finditer("\n", self.src)]
        return self._spans

    def line_col(self, offset: int) -> tuple[int, int]:
        self.spans()
        line = bisect.bisect_right(self._starts, offset) - 1
        return line + 1, offset - self._starts[line] + 1

    def __call__(self, key: str, index: int | None = None, *, at_key: bool = False) -> tuple[int, int] | None:
        """Line and column of character ``index`` of the value of ``key`` (of the key itself with ``at_key``)."""
        try:
            spans = self.spans()
            path = _key_path(key)
            while path:
                span = spans.get(path)
                if span is not None:
                    return self.line_col(span.key if at_key else span.at(index))
                path = path[:-1]
                index = None
        except Exception:  # positions are a courtesy; never let them mask the real error
            return None
        return None
