"""Records made in bulk: a named tuple built from one tuple of all its fields.

A named tuple's own `__new__` is a Python function (it takes each field as an argument), and a read or a legal
listing makes one record per tile, hexagon, meeple or step. `tuple.__new__` with the class makes the same record in
C, from a tuple that gives every field in order (no default is applied).
"""
from __future__ import annotations

from functools import partial
from typing import Callable, TypeVar

R = TypeVar("R", bound=tuple)


def from_fields(kind: type[R]) -> Callable[[tuple], R]:
    """`kind(*fields)` called as `made(fields)`: every field of `kind` given, in order."""
    return partial(tuple.__new__, kind)


__all__ = ["from_fields"]
