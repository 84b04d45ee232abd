"""Checks and copies shared by the provider adapters."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

from .._errors import WritingRulesError
from .._tool_call import clean_text

__all__ = ["AdapterError", "checked_descriptors", "encodable", "envelope_json"]

_TOOL_NAME = re.compile(r"[a-zA-Z0-9_-]{1,64}")


class AdapterError(WritingRulesError):
    """A descriptor or envelope is not what the adapters accept; the message says what is wrong."""


def checked_descriptors(descriptors: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Deep copies of ``descriptors`` after checking the fields every provider needs."""
    if isinstance(descriptors, (Mapping, str, bytes)):
        raise AdapterError("descriptors must be a list of tool descriptors, not a single mapping or string")
    checked = []
    for index, descriptor in enumerate(descriptors):
        if not isinstance(descriptor, Mapping):
            raise AdapterError(f"descriptor {index} is not a mapping")
        name = descriptor.get("name")
        if not isinstance(name, str) or not _TOOL_NAME.fullmatch(name):
            raise AdapterError(f"descriptor {index} has name {name!r}; providers accept ^[a-zA-Z0-9_-]{{1,64}}$")
        if not isinstance(descriptor.get("description"), str):
            raise AdapterError(f"descriptor {name!r} needs a string 'description'")
        schema = descriptor.get("inputSchema")
        if not isinstance(schema, Mapping) or schema.get("type") != "object":
            raise AdapterError(f"descriptor {name!r} needs an object 'inputSchema' with type 'object'")
        checked.append(copy.deepcopy(dict(descriptor)))
    return checked


def envelope_json(envelope: Mapping[str, Any]) -> tuple[str, bool]:
    """The envelope as JSON text, and whether it reports an error."""
    if not isinstance(envelope, Mapping) or not isinstance(envelope.get("ok"), bool):
        raise AdapterError("envelope must be a dispatcher result: a mapping with a boolean 'ok'")
    try:
        text = json.dumps(envelope, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as error:
        raise AdapterError(f"envelope is not JSON-serialisable: {error}") from None
    return text, not envelope["ok"]


def encodable(value: Any) -> Any:
    """A deep copy of a JSON value with every lone surrogate (in strings and keys) replaced by U+FFFD.

    A lone surrogate cannot be written as UTF-8, so a transport that sends UTF-8
    (MCP's JSON-RPC) would fail on it; the dispatchers' own envelopes never hold
    one, this covers envelopes a host built itself.
    """
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, Mapping):
        return {clean_text(key) if isinstance(key, str) else key: encodable(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [encodable(item) for item in value]
    return copy.deepcopy(value)
