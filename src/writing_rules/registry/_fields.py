"""Field checks shared by tool definitions, scope definitions and policies.

Each check takes ``fail``, which turns a reason into the caller's error, so
every message can name the tool or scope and the field concerned.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping

from writing_rules._describe import show

from ._errors import RegistryError
from ._json import kind

__all__ = ["Fail", "check_fields", "choice", "definition_failure", "listing", "name_list", "non_blank", "strict_bool"]

Fail = Callable[[str], RegistryError]


def listing(names: Collection[str], limit: int = 20) -> str:
    """Names as ``'a', 'b'`` for a message, shortened when there are many."""
    shown = [repr(name) for name in list(names)[:limit]]
    if len(names) > limit:
        shown.append(f"... ({len(names) - limit} more)")
    return ", ".join(shown) if shown else "none"


def definition_failure(who: str, **ids: str | None) -> Callable[[str | None], Fail]:
    """``failure(field)`` for one definition: ``invalid-definition`` errors naming ``who`` and the field.

    ``ids`` is the ``tool_id`` or ``scope_id`` the error carries.
    """

    def failure(field: str | None) -> Fail:
        def fail(reason: str) -> RegistryError:
            where = f"'{field}' " if field else ""
            return RegistryError("invalid-definition", f"{who}: {where}{reason}.", field=field, **ids)

        return fail

    return failure


def _snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])([A-Z])", lambda m: "_" + m.group(1).lower(), name)


def check_fields(
    definition: object, allowed: tuple[str, ...], what: str, failure: Callable[[str | None], Fail]
) -> Mapping[str, object]:
    """The definition as a mapping, refusing non-mappings and unknown fields.

    ``failure(field)`` gives the ``fail`` for a field; an unknown field is named
    as the error's field so a host can point at it.
    """
    if not isinstance(definition, Mapping):
        raise failure(None)(f"{what} must be a dict of fields; got {kind(definition)}")
    for key in definition:
        if key not in allowed:
            hint = ""
            if isinstance(key, str) and _snake(key) in allowed:
                hint = f" (fields are snake_case: did you mean {_snake(key)!r}?)"
            fail = failure(key if isinstance(key, str) else None)
            raise fail(f"is not a known field{hint}; the known fields are {listing(allowed)}")
    return definition


def non_blank(value: object, fail: Fail) -> str:
    if not isinstance(value, str):
        raise fail(f"must be a non-blank string; got {show(value)}")
    if not value.strip():
        raise fail(f"must be a non-blank string; got {show(value)}")
    return str.__str__(value)


def strict_bool(value: object, fail: Fail) -> bool:
    if not isinstance(value, bool):
        raise fail(f"must be true or false; got {show(value)}")
    return value


def choice(value: str, allowed: tuple[str, ...] | None, source: str, fail: Fail) -> str:
    """``value`` itself, when ``allowed`` is unset or holds it."""
    if allowed is not None and value not in allowed:
        raise fail(f"has {value!r}, which {source} does not allow; allowed: {listing(allowed)}")
    return value


def name_list(value: object, fail: Fail) -> tuple[str, ...]:
    """A list (or tuple) of unique non-blank names, as a tuple."""
    if not isinstance(value, (list, tuple)):
        raise fail(f"must be a list of unique non-blank names; got {show(value)}")
    names: list[str] = []
    for index, item in enumerate(value):
        if not isinstance(item, str) or not item.strip():
            raise fail(f"item {index} must be a non-blank string; got {show(item)}")
        name = str.__str__(item)
        if name in names:
            raise fail(f"lists {name!r} twice; names must be unique")
        names.append(name)
    return tuple(names)
