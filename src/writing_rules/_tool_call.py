"""Decoding a model's tool call and building the result envelope.

Shared by every dispatcher in the package (review tools, document tools) so
that all of them speak the same wire format:

- success: ``{"ok": True, "tool": NAME, "data": {...}}``
- failure: ``{"ok": False, "tool": NAME_OR_NONE, "error": {"code", "message", "field"?}}``

plus ``"id"`` when the call carried one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from ._describe import json_type_name, show_key
from ._errors import WritingRulesError

__all__ = [
    "MAX_CALL_ID_LENGTH",
    "ToolCall",
    "ToolCallError",
    "call_identity",
    "clean_json",
    "clean_text",
    "error_envelope",
    "holds_lone_surrogate",
    "is_plain_json",
    "json_pointer",
    "non_json_call_error",
    "parse_tool_call",
    "pointer_segment",
    "problem_envelope",
    "registry_definitions",
    "success_envelope",
    "unknown_tool_error",
]

_CALL_KEYS = ("name", "arguments", "id")
_CALL_KEY_SET = frozenset(_CALL_KEYS)


class ToolCallError(WritingRulesError):
    """A call or its arguments are wrong; becomes a failure envelope."""

    def __init__(
        self,
        code: str,
        message: str,
        *,
        field: str | None = None,
        details: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field
        self.details = dict(details) if details else {}


def unknown_tool_error(name: str, offered: Sequence[str]) -> ToolCallError:
    """``unknown-tool`` for ``name``: the message lists every tool the caller can use instead."""
    return ToolCallError(
        "unknown-tool",
        f"Unknown tool {name[:80]!r}; the tools available here are: {', '.join(offered)}.",
        field="/name",
    )


class ToolCall(NamedTuple):
    """A decoded call: the tool name, its arguments and the host's call id.

    A named tuple: every dispatched call builds one, and it is cheap to build.
    """

    name: str
    arguments: Mapping[str, Any]
    call_id: str | int | None = None
    has_id: bool = False


def pointer_segment(part: object) -> str:
    """One JSON Pointer step (RFC 6901): ``/`` plus the part with ``~`` and ``/`` escaped."""
    return "/" + str(part).replace("~", "~0").replace("/", "~1")


def json_pointer(*parts: str | int) -> str:
    """Build a JSON Pointer (RFC 6901) such as ``/ruleIds/2``."""
    return "".join(map(pointer_segment, parts))


MAX_CALL_ID_LENGTH = 256  # a call id is echoed in every result: it stays short
_MAX_FIELD = 256  # characters of a JSON Pointer echoed in "field"
# Compiled (and kept by re) the first time a text holds a lone surrogate: few ever do, and
# compiling it at import was 0.3 ms of every command-line start.
_SURROGATE = "[\ud800-\udfff]"
_MAX_JSON_NODES = 1_000_000  # is_plain_json stops looking after this many values


def _valid_id(value: object) -> bool:
    if type(value) is str:
        return len(value) <= MAX_CALL_ID_LENGTH
    return type(value) is int and value.bit_length() <= 256  # at most 78 digits echoed


def clean_text(text: str) -> str:
    """``text`` with every lone surrogate replaced by U+FFFD, so that it encodes as UTF-8."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return re.sub(_SURROGATE, "\ufffd", text)
    return text


def clean_json(value: Any) -> Any:
    """``value`` (JSON types) with every lone surrogate in its strings and keys replaced by U+FFFD.

    Copy on write: a container that holds nothing to replace is returned itself, so a
    clean value is never copied.
    """
    kind = type(value)
    if kind is str:
        return value if value.isascii() else clean_text(value)
    if kind is dict:
        copy: dict[Any, Any] | None = None
        for key, item in value.items():
            new = clean_json(item)
            new_key = clean_text(key) if type(key) is str else key
            if copy is None and (new is not item or new_key is not key):
                copy = {}
                for done_key, done_item in value.items():  # the entries before this one, as they were
                    if done_key is key:
                        break
                    copy[done_key] = done_item
            if copy is not None:
                copy[new_key] = new
        return value if copy is None else copy
    if kind is list or kind is tuple:
        items = [clean_json(item) for item in value]
        return value if all(new is old for new, old in zip(items, value, strict=True)) else items
    return value


def holds_lone_surrogate(values: Iterable[object]) -> bool:
    """True when one of ``values``, or a string in a list or tuple among them, holds a lone surrogate.

    C-level work per string (``isascii``, else an encoding attempt): cheap enough to ask
    of every call's arguments, where walking every result would not be.
    """
    for value in values:
        if type(value) is str:
            if not value.isascii() and clean_text(value) is not value:
                return True
        elif type(value) in (list, tuple) and holds_lone_surrogate(value):  # type: ignore[arg-type]
            return True
    return False


def _echo_id(value: str | int | None) -> str | int | None:
    return clean_text(value) if isinstance(value, str) else value


def is_plain_json(value: object) -> bool:
    """True when ``value`` is built from the exact types ``json.loads`` returns (or tuples).

    A dispatcher asks this when a call failed unexpectedly: a call built from
    other objects (a Mapping whose methods raise, a str subclass) is the
    caller's ``invalid-call``, not a bug here.
    """
    stack = [value]
    seen = 0
    try:
        while stack:
            item = stack.pop()
            seen += 1
            if seen > _MAX_JSON_NODES:
                return True
            kind = type(item)
            if kind is dict and isinstance(item, dict):
                if any(type(key) is not str for key in item):
                    return False
                stack.extend(item.values())
            elif kind in (list, tuple) and isinstance(item, (list, tuple)):
                stack.extend(item)
            elif item is not None and kind not in (str, int, float, bool):
                return False
    except Exception:
        return False
    return True


def non_json_call_error() -> ToolCallError:
    """The ``invalid-call`` for a call that holds objects a JSON decoder never makes."""
    return ToolCallError(
        "invalid-call",
        "The tool call could not be read as decoded JSON: it holds values of other types. Send the call as "
        "decoded JSON (objects, arrays, strings, numbers, booleans, null).",
    )


def parse_tool_call(call: object, tool_names: Collection[str]) -> ToolCall:
    """Check the shape of a call; raise ``ToolCallError`` when it is malformed.

    ``arguments`` missing or null means ``{}``; an ``arguments`` that is still a
    JSON string is refused, because decoding it is the host's job.
    """
    # Plain dicts (what a decoded call is) skip the slower abstract-class checks.
    if type(call) is not dict and not isinstance(call, Mapping):
        raise ToolCallError(
            "invalid-call",
            f"A tool call must be an object with 'name' and 'arguments'; got {json_type_name(call)}.",
        )
    if not _CALL_KEY_SET.issuperset(call):
        extra = [key for key in call if key not in _CALL_KEYS]
        shown = ", ".join(show_key(key) for key in extra[:5])
        raise ToolCallError(
            "invalid-call",
            f"Unexpected key(s) in the tool call: {shown}. A call has only 'name', 'arguments' and optionally 'id'.",
        )
    has_id = "id" in call
    call_id = call.get("id") if has_id else None
    if has_id and not _valid_id(call_id):
        got = f"a string of {len(call_id)} characters" if isinstance(call_id, str) else json_type_name(call_id)
        raise ToolCallError(
            "invalid-call",
            f"The call 'id' must be a string of at most {MAX_CALL_ID_LENGTH} characters or an integer of at "
            f"most 256 bits; got {got}.",
        )
    name = call.get("name")
    if not isinstance(name, str):
        raise ToolCallError(
            "invalid-call",
            f"The call 'name' must be a string naming one of: {', '.join(tool_names)}; got {json_type_name(name)}.",
        )
    arguments = call.get("arguments")
    if arguments is None:
        arguments = {}
    if isinstance(arguments, (str, bytes, bytearray)):
        raise ToolCallError(
            "invalid-call",
            "'arguments' is a string; it must be a decoded JSON object. "
            "Decode the JSON text of the arguments before dispatching.",
        )
    if type(arguments) is not dict and not isinstance(arguments, Mapping):
        raise ToolCallError(
            "invalid-call",
            f"'arguments' must be a JSON object; got {json_type_name(arguments)}.",
        )
    return ToolCall(name=name, arguments=arguments, call_id=call_id, has_id=has_id)


def call_identity(call: object) -> tuple[str | None, bool, str | int | None]:
    """Best-effort (name, has_id, id) of a call, for echoing in an error envelope."""
    if not isinstance(call, Mapping):
        return None, False, None
    try:
        name = call.get("name")
        has_id = "id" in call
        call_id = call.get("id") if has_id else None
    except Exception:  # a hostile Mapping; echo nothing
        return None, False, None
    return (
        name if type(name) is str else None,
        has_id and _valid_id(call_id),
        call_id if _valid_id(call_id) else None,
    )


def success_envelope(
    tool: str,
    data: dict[str, Any],
    *,
    has_id: bool = False,
    call_id: str | int | None = None,
    clean: bool = True,
) -> dict[str, Any]:
    """``{"ok": True, "tool", "data"}`` plus ``"id"`` when the call had one.

    Every success envelope is made here, so this is where ``data`` is made encodable as
    UTF-8: each lone surrogate in its strings becomes U+FFFD (``clean_json``); offsets in
    it are left as they are. ``clean=False`` is for a caller that knows ``data`` holds none
    (it was made from the rule data and inputs without one): walking a large result
    costs more than the tool that made it.
    """
    result: dict[str, Any] = {"ok": True, "tool": tool, "data": clean_json(data) if clean else data}
    if has_id:
        result["id"] = _echo_id(call_id)
    return result


def error_envelope(
    tool: str | None,
    error: ToolCallError,
    *,
    has_id: bool = False,
    call_id: str | int | None = None,
) -> dict[str, Any]:
    """``{"ok": False, "tool", "error": {"code", "message", "field"?, ...}}``."""
    body: dict[str, Any] = {"code": error.code, "message": clean_text(error.message)}
    if error.field is not None:
        body["field"] = _shown_field(error.field)
    if error.details:
        # Details can name host values (a pack's folder) that hold lone surrogates too.
        body.update(clean_json(error.details))
    result: dict[str, Any] = {"ok": False, "tool": clean_text(tool) if tool is not None else None, "error": body}
    if has_id:
        result["id"] = _echo_id(call_id)
    return result


def _shown_field(field: str) -> str:
    # A pointer names the argument; one to a 10 MB key is cut, never echoed whole.
    return clean_text(field if len(field) <= _MAX_FIELD else field[: _MAX_FIELD - 1] + "…")


def problem_envelope(
    tool: str, code: str, field: str, message: str, has_id: bool, call_id: str | int | None
) -> dict[str, Any]:
    """The envelope ``error_envelope`` builds for a ``ToolCallError(code, message, field=field)``.

    Built directly, without the exception object: a dispatcher rejects a bad
    call on its hot path with this, where ``tool`` is one of its own names.
    """
    body = {
        "code": code,
        "message": message if message.isascii() else clean_text(message),
        "field": field if len(field) <= _MAX_FIELD and field.isascii() else _shown_field(field),
    }
    result: dict[str, Any] = {"ok": False, "tool": tool, "error": body}
    if has_id:
        result["id"] = _echo_id(call_id)
    return result


def registry_definitions(
    descriptors: list[dict[str, Any]], dispatch: Callable[[dict[str, Any]], dict[str, Any]]
) -> list[dict[str, Any]]:
    """Registry definitions ``{id, description, input_schema, resolve}`` for a dispatcher's tools.

    Each ``resolve(arguments, context)`` dispatches the call and returns the envelope.
    """

    def resolver(name: str) -> Callable[..., dict[str, Any]]:
        def resolve(arguments: Mapping[str, Any], context: Any = None) -> dict[str, Any]:
            return dispatch({"name": name, "arguments": dict(arguments)})

        return resolve

    return [
        {
            "id": descriptor["name"],
            "description": descriptor["description"],
            "input_schema": descriptor["inputSchema"],
            "resolve": resolver(descriptor["name"]),
        }
        for descriptor in descriptors
    ]
