"""``IntentRegistry``: the tools (intents) an agent may use, and how to call them."""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from writing_rules._describe import show

from ._errors import RegistryError
from ._fields import Fail, check_fields, choice, definition_failure, listing, name_list, non_blank, strict_bool
from ._json import NotJSONError, freeze, kind, plain_copy, thaw
from ._policy import IntentPolicy
from ._schema import ArgumentError, SchemaError, check_schema, validate

__all__ = ["IntentRegistry", "RegisteredIntent"]

Resolve = Callable[[Any, Mapping[str, Any]], Any]

_FIELDS = (
    "id",
    "description",
    "resolve",
    "input_schema",
    "active",
    "as_intent",
    "scope_policy",
    "target_policy",
    "context_tier",
    "plan_intent",
    "prepared_handoff",
    "auxiliary_actions",
    "delegates",
)
# Optional single names and the policy list each is checked against.
_NAMED = (
    ("scope_policy", "scope_modes"),
    ("target_policy", "target_modes"),
    ("context_tier", "context_tiers"),
    ("plan_intent", "actions"),
    ("prepared_handoff", "handoff_values"),
)
# "Empty object": a tool that declares no schema takes no arguments.
_EMPTY_OBJECT_SCHEMA = freeze({"type": "object", "properties": {}, "additionalProperties": False})


@dataclass(frozen=True)
class RegisteredIntent:
    """A registered tool: an immutable copy of its definition, defaults filled in.

    ``input_schema`` is a read-only mapping; ``to_dict()`` gives a plain copy.
    ``resolve`` is ``None`` when the definition had none (the validated input is
    then the result).
    """

    id: str
    description: str
    input_schema: Mapping[str, Any]
    resolve: Resolve | None = None
    active: bool = True
    as_intent: bool | str = False
    scope_policy: str | None = None
    target_policy: str | None = None
    context_tier: str | None = None
    plan_intent: str | None = None
    prepared_handoff: str | None = None
    auxiliary_actions: tuple[str, ...] = ()
    delegates: tuple[str, ...] = ()

    def __hash__(self) -> int:
        # The read-only schema mapping is unhashable; ids are unique within a registry.
        return hash((RegisteredIntent, self.id, self.description))

    def to_dict(self) -> dict[str, Any]:
        """A fresh JSON-serialisable dict of every field but ``resolve``."""
        return {
            "id": self.id,
            "description": self.description,
            "input_schema": thaw(self.input_schema),
            "active": self.active,
            "as_intent": self.as_intent,
            "scope_policy": self.scope_policy,
            "target_policy": self.target_policy,
            "context_tier": self.context_tier,
            "plan_intent": self.plan_intent,
            "prepared_handoff": self.prepared_handoff,
            "auxiliary_actions": list(self.auxiliary_actions),
            "delegates": list(self.delegates),
        }


class IntentRegistry:
    """Tools an agent may use, each checked against the host's policy.

    Build it with ``register``/``register_all`` (or ``create``), then ``seal()``
    it; after that no registration is possible. Policy keywords restrict ids
    (``id_pattern``, matched against the whole id) and the names a definition
    may use; an omitted keyword allows any name.
    """

    def __init__(
        self,
        *,
        id_pattern: str | re.Pattern[str] | None = None,
        delegates: Sequence[str] | None = None,
        scope_modes: Sequence[str] | None = None,
        target_modes: Sequence[str] | None = None,
        context_tiers: Sequence[str] | None = None,
        actions: Sequence[str] | None = None,
        handoff_values: Sequence[str] | None = None,
    ) -> None:
        self._policy = IntentPolicy.build(
            id_pattern=id_pattern,
            delegates=delegates,
            scope_modes=scope_modes,
            target_modes=target_modes,
            context_tiers=context_tiers,
            actions=actions,
            handoff_values=handoff_values,
        )
        self._tools: dict[str, RegisteredIntent] = {}
        self._sealed = False

    @classmethod
    def create(cls, definitions: Iterable[Mapping[str, Any]], **policy: Any) -> IntentRegistry:
        """A registry with ``policy`` holding ``definitions`` (not sealed)."""
        return cls(**policy).register_all(definitions)

    # --- registration --------------------------------------------------------

    @property
    def policy(self) -> IntentPolicy:
        """The policy this registry checks definitions against."""
        return self._policy

    @property
    def sealed(self) -> bool:
        """True once ``seal()`` was called."""
        return self._sealed

    def seal(self) -> IntentRegistry:
        """Refuse every later registration; returns the registry."""
        self._sealed = True
        return self

    def register(self, definition: Mapping[str, Any]) -> IntentRegistry:
        """Register one definition; returns the registry."""
        return self._add([definition], batch=False)

    def register_all(self, definitions: Iterable[Mapping[str, Any]]) -> IntentRegistry:
        """Register every definition, or none of them when one is invalid."""
        if isinstance(definitions, (Mapping, str, bytes)) or not isinstance(definitions, Iterable):
            raise RegistryError(
                "invalid-definition",
                f"register_all takes a list of definitions; got {kind(definitions)}. "
                "Use register() for a single definition.",
            )
        return self._add(list(definitions), batch=True)

    def _add(self, definitions: list[Any], *, batch: bool) -> IntentRegistry:
        if self._sealed:
            first = definitions[0] if definitions else None
            tool_id = first.get("id") if isinstance(first, Mapping) else None
            raise RegistryError(
                "sealed",
                "The registry is sealed, so no tool can be registered"
                + (f" (tried {tool_id!r})" if isinstance(tool_id, str) else "")
                + ". Register every tool before calling seal().",
                tool_id=tool_id if isinstance(tool_id, str) else None,
            )
        built: list[RegisteredIntent] = []
        for index, definition in enumerate(definitions):
            label = f"Tool definition #{index}" if batch else "Tool definition"
            tool = _build(definition, self._policy, label)
            if tool.id in self._tools or any(other.id == tool.id for other in built):
                raise RegistryError(
                    "duplicate-id",
                    f"Tool {tool.id!r}: 'id' is already registered; tool ids must be unique.",
                    field="id",
                    tool_id=tool.id,
                )
            built.append(tool)
        # Only now, with every definition valid, does the registry change.
        for tool in built:
            self._tools[tool.id] = tool
        return self

    # --- lookups -------------------------------------------------------------

    def ids(self) -> tuple[str, ...]:
        """Registered tool ids in registration order."""
        return tuple(self._tools)

    def get(self, tool_id: str) -> RegisteredIntent | None:
        """The registered tool, or ``None``."""
        return self._tools.get(tool_id) if isinstance(tool_id, str) else None

    def require(self, tool_id: str) -> RegisteredIntent:
        """The registered tool; raises ``RegistryError`` (``unknown-tool``) when there is none."""
        tool = self.get(tool_id)
        if tool is None:
            raise RegistryError(
                "unknown-tool",
                f"Unknown tool {show(tool_id)}; registered tools: {listing(self._tools)}.",
                field="id",
                tool_id=tool_id if isinstance(tool_id, str) else None,
            )
        return tool

    def allows(self, tool_id: str, delegate: str) -> bool:
        """Whether the registered tool lists ``delegate`` among its delegates."""
        tool = self.get(tool_id)
        return tool is not None and isinstance(delegate, str) and delegate in tool.delegates

    def active(self) -> tuple[RegisteredIntent, ...]:
        """The registered tools that are active, in registration order."""
        return tuple(tool for tool in self._tools.values() if tool.active)

    def describe(self) -> list[dict[str, Any]]:
        """Fresh JSON-serialisable dicts, one per registered tool, without ``resolve``."""
        return [tool.to_dict() for tool in self._tools.values()]

    def with_intent(self) -> list[dict[str, Any]]:
        """Like ``describe()``, for the active tools advertised through ``as_intent``.

        When ``as_intent`` is a string it replaces the description.
        """
        result = []
        for tool in self._tools.values():
            if tool.active and tool.as_intent:
                entry = tool.to_dict()
                if isinstance(tool.as_intent, str):
                    entry["description"] = tool.as_intent
                result.append(entry)
        return result

    # --- calling -------------------------------------------------------------

    def resolve(self, tool_id: str, arguments: Mapping[str, Any] | None, stage_id: str) -> Any:
        """Validate ``arguments`` against the tool's schema, then run its ``resolve``.

        ``arguments`` of ``None`` means ``{}``. ``resolve`` gets a plain copy of
        the arguments and the read-only context ``{"stage_id": stage_id}``.
        Raises ``RegistryError``: ``unknown-tool`` (also for an inactive tool),
        ``invalid-arguments`` or ``resolve-failed``.
        """
        tool = self.require(tool_id)
        if not tool.active:
            active = [other.id for other in self._tools.values() if other.active]
            raise RegistryError(
                "unknown-tool",
                f"Tool {tool.id!r} is registered but inactive, so it cannot be called; "
                f"active tools: {listing(active)}.",
                field="id",
                tool_id=tool.id,
            )
        if not isinstance(stage_id, str):
            raise RegistryError(
                "invalid-arguments",
                f"Tool {tool.id!r}: 'stage_id' must be a string; got {kind(stage_id)}.",
                field="stage_id",
                tool_id=tool.id,
            )
        value = _check_arguments(tool, {} if arguments is None else arguments)
        if tool.resolve is None:
            return value
        context = MappingProxyType({"stage_id": stage_id})
        try:
            result = tool.resolve(value, context)
        except Exception as exc:
            raise RegistryError(
                "resolve-failed",
                f"Tool {tool.id!r} rejected the call: {type(exc).__name__}: {exc}",
                tool_id=tool.id,
            ) from exc
        if inspect.isawaitable(result) or inspect.isasyncgen(result):
            close = getattr(result, "close", None)
            if callable(close):  # a coroutine: close it so Python does not warn it was never awaited
                close()
            raise RegistryError(
                "resolve-failed",
                f"Tool {tool.id!r}: 'resolve' returned {type(result).__name__}, an asynchronous "
                "result; resolve runs inside the model call and must return its value directly.",
                field="resolve",
                tool_id=tool.id,
            )
        return result


def _check_arguments(tool: RegisteredIntent, arguments: object) -> Any:
    def fail(pointer: str, reason: str) -> RegistryError:
        where = f"argument {pointer!r}" if pointer else "the arguments object"
        return RegistryError(
            "invalid-arguments",
            f"Tool {tool.id!r}: {where} is invalid: {reason}.",
            field=pointer,
            tool_id=tool.id,
        )

    try:
        value = plain_copy(arguments)
    except NotJSONError as exc:
        raise fail(exc.pointer, exc.reason) from None
    try:
        validate(tool.input_schema, value)
    except ArgumentError as exc:
        raise fail(exc.pointer, exc.reason) from None
    return value


def _build(definition: object, policy: IntentPolicy, label: str) -> RegisteredIntent:
    raw_id = definition.get("id") if isinstance(definition, Mapping) else None
    who = f"Tool {raw_id!r}" if isinstance(raw_id, str) and raw_id.strip() else label
    known_id = raw_id if isinstance(raw_id, str) else None

    failure = definition_failure(who, tool_id=known_id)
    fields = check_fields(definition, _FIELDS, "a definition", failure)

    def given(field: str) -> Any:
        # An optional field set to None counts as omitted, like undefined in the original.
        return fields.get(field)

    tool_id = non_blank(fields.get("id"), failure("id"))
    if policy.id_pattern is not None and policy.id_pattern.fullmatch(tool_id) is None:
        raise failure("id")(
            f"must match the registry's id_pattern {policy.id_pattern.pattern!r} as a whole; got {tool_id!r}"
        )
    description = non_blank(fields.get("description"), failure("description"))
    values: dict[str, Any] = {}
    for field, policy_list in _NAMED:
        if given(field) is not None:
            name = non_blank(given(field), failure(field))
            values[field] = choice(
                name, getattr(policy, policy_list), f"the policy's {policy_list!r} list", failure(field)
            )
    if given("active") is not None:
        values["active"] = strict_bool(given("active"), failure("active"))
    if given("as_intent") is not None:
        values["as_intent"] = _as_intent(given("as_intent"), failure("as_intent"))
    for field, policy_list in (("auxiliary_actions", "actions"), ("delegates", "delegates")):
        if given(field) is not None:
            names = name_list(given(field), failure(field))
            for name in names:
                choice(name, getattr(policy, policy_list), f"the policy's {policy_list!r} list", failure(field))
            values[field] = names
    if given("resolve") is not None:
        values["resolve"] = _resolve(given("resolve"), failure("resolve"))
    schema = _EMPTY_OBJECT_SCHEMA
    if given("input_schema") is not None:
        schema = _input_schema(given("input_schema"), failure("input_schema"))
    return RegisteredIntent(id=tool_id, description=description, input_schema=schema, **values)


def _as_intent(value: object, fail: Fail) -> bool | str:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip():
        return str.__str__(value)
    raise fail(
        "must be true (advertise with the description), a non-blank string (advertise with that "
        f"text) or false; got {show(value)}"
    )


def _resolve(value: object, fail: Fail) -> Resolve:
    if not callable(value):
        raise fail(f"must be a callable (input, context) -> value; got {kind(value)}")
    # An object whose __call__ is async is as asynchronous as an async def.
    call = type(value).__call__ if not inspect.isroutine(value) else None
    if (
        inspect.iscoroutinefunction(value)
        or inspect.isasyncgenfunction(value)
        or inspect.iscoroutinefunction(call)
        or inspect.isasyncgenfunction(call)
    ):
        raise fail(
            "is asynchronous; resolve runs inside the model call and must return its value "
            "synchronously. Use a plain function"
        )
    try:
        signature = inspect.signature(value)
    except (TypeError, ValueError):  # some builtins have no signature; check at call time
        return value
    try:
        signature.bind(None, None)
    except TypeError:
        raise fail(f"must accept two positional arguments (input, context); its signature is {signature}") from None
    return value


def _input_schema(value: object, fail: Fail) -> Mapping[str, Any]:
    try:
        schema = freeze(value)
    except NotJSONError as exc:
        raise fail(f"is not JSON data at {exc.pointer or '(root)'}: {exc.reason}") from None
    if not isinstance(schema, Mapping) or schema.get("type") != "object":
        raise fail(
            'must be an object schema, a dict with "type": "object"; got '
            + (f"type {show(schema.get('type'))}" if isinstance(schema, Mapping) else kind(value))
        )
    try:
        check_schema(schema)
    except SchemaError as exc:
        raise fail(f"at {exc.pointer or '(root)'}: {exc.reason}") from None
    return schema
