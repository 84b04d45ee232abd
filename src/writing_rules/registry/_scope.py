"""``ScopeRegistry``: knowledge scopes, their aliases, and which tools they accept."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from writing_rules._describe import show

from ._errors import RegistryError
from ._fields import check_fields, choice, definition_failure, listing, name_list, non_blank, strict_bool
from ._json import kind

__all__ = ["RegisteredScope", "ScopeRegistry"]

_FIELDS = ("id", "description", "category", "aliases", "goal_ids", "knowledge_topic_ids", "tool_ids")
_LISTS = ("aliases", "goal_ids", "knowledge_topic_ids", "tool_ids")


@dataclass(frozen=True)
class RegisteredScope:
    """A registered scope; every list is a tuple."""

    id: str
    description: str
    category: str
    aliases: tuple[str, ...] = ()
    goal_ids: tuple[str, ...] = ()
    knowledge_topic_ids: tuple[str, ...] = ()
    tool_ids: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """A fresh JSON-serialisable dict of the scope."""
        return {
            "id": self.id,
            "description": self.description,
            "category": self.category,
            "aliases": list(self.aliases),
            "goal_ids": list(self.goal_ids),
            "knowledge_topic_ids": list(self.knowledge_topic_ids),
            "tool_ids": list(self.tool_ids),
        }


class ScopeRegistry:
    """An immutable set of scopes, built and checked in one go.

    ``categories`` restricts each scope's ``category``; ``require_goals``
    demands at least one goal id; ``require_sources`` demands at least one
    knowledge topic or tool id. A scope is found by its id or any alias.
    """

    def __init__(
        self,
        scopes: Iterable[Mapping[str, Any]] = (),
        *,
        categories: Sequence[str] | None = None,
        require_goals: bool = False,
        require_sources: bool = False,
    ) -> None:
        self._categories = _option_categories(categories)
        self._require_goals = _option_bool("require_goals", require_goals)
        self._require_sources = _option_bool("require_sources", require_sources)
        if isinstance(scopes, (Mapping, str, bytes)) or not isinstance(scopes, Iterable):
            raise RegistryError(
                "invalid-definition",
                f"ScopeRegistry takes a list of scope definitions; got {kind(scopes)}.",
            )
        self._scopes: dict[str, RegisteredScope] = {}
        self._names: dict[str, str] = {}  # id or alias -> id
        for index, definition in enumerate(list(scopes)):
            self._add(self._build(definition, index))

    @classmethod
    def create(
        cls,
        scopes: Iterable[Mapping[str, Any]],
        *,
        categories: Sequence[str] | None = None,
        require_goals: bool = False,
        require_sources: bool = False,
    ) -> ScopeRegistry:
        """A registry holding ``scopes``; raises ``RegistryError`` when one is invalid."""
        return cls(scopes, categories=categories, require_goals=require_goals, require_sources=require_sources)

    def _build(self, definition: object, index: int) -> RegisteredScope:
        raw_id = definition.get("id") if isinstance(definition, Mapping) else None
        named = isinstance(raw_id, str) and raw_id.strip()
        who = f"Scope {raw_id!r}" if named else f"Scope definition #{index}"
        known_id = raw_id if isinstance(raw_id, str) else None

        failure = definition_failure(who, scope_id=known_id)
        fields = check_fields(definition, _FIELDS, "a scope definition", failure)
        scope_id = non_blank(fields.get("id"), failure("id"))
        description = non_blank(fields.get("description"), failure("description"))
        category = choice(
            non_blank(fields.get("category"), failure("category")),
            self._categories,
            "the 'categories' option",
            failure("category"),
        )
        lists = {
            field: name_list(fields[field], failure(field)) if fields.get(field) is not None else () for field in _LISTS
        }
        if scope_id in lists["aliases"]:
            raise failure("aliases")(f"repeats the scope's own id {scope_id!r}; an alias is another name")
        if self._require_goals and not lists["goal_ids"]:
            raise failure("goal_ids")("must name at least one goal, because the registry has require_goals")
        if self._require_sources and not (lists["knowledge_topic_ids"] or lists["tool_ids"]):
            raise failure("knowledge_topic_ids")(
                "and 'tool_ids' are both empty; the registry has require_sources, so a scope needs "
                "at least one knowledge topic or tool id"
            )
        return RegisteredScope(id=scope_id, description=description, category=category, **lists)

    def _add(self, scope: RegisteredScope) -> None:
        for field, name in [("id", scope.id)] + [("aliases", alias) for alias in scope.aliases]:
            owner = self._names.get(name)
            if owner is not None:
                taken = f"the id of scope {owner!r}" if owner == name else f"an alias of scope {owner!r}"
                raise RegistryError(
                    "duplicate-id",
                    f"Scope {scope.id!r}: {field!r} has {name!r}, which is already {taken}; scope ids "
                    "and aliases must be unique across the registry.",
                    field=field,
                    scope_id=scope.id,
                )
        self._scopes[scope.id] = scope
        self._names[scope.id] = scope.id
        for alias in scope.aliases:
            self._names[alias] = scope.id

    # --- lookups -------------------------------------------------------------

    def ids(self) -> tuple[str, ...]:
        """Scope ids in registration order."""
        return tuple(self._scopes)

    def normalize(self, name: str) -> str | None:
        """The scope id for an id or alias; ``None`` for an unknown name."""
        return self._names.get(name) if isinstance(name, str) else None

    def get(self, name: str) -> RegisteredScope | None:
        """The scope named by id or alias, or ``None``."""
        scope_id = self.normalize(name)
        return None if scope_id is None else self._scopes[scope_id]

    def require(self, name: str) -> RegisteredScope:
        """The scope named by id or alias; raises ``RegistryError`` (``unknown-scope``)."""
        scope = self.get(name)
        if scope is None:
            raise RegistryError(
                "unknown-scope",
                f"Unknown scope {show(name)}; known scopes: {listing(self._scopes)} "
                f"(aliases: {listing([n for n in self._names if n not in self._scopes])}).",
                field="id",
                scope_id=name if isinstance(name, str) else None,
            )
        return scope

    def accepts_tool(self, scope: str, tool_id: str) -> bool:
        """Whether the scope (id or alias) lists ``tool_id`` in its goal ids or tool ids."""
        found = self.get(scope)
        return found is not None and (tool_id in found.goal_ids or tool_id in found.tool_ids)

    def topics(self, scope: str) -> tuple[str, ...]:
        """The scope's knowledge topic ids; ``()`` for an unknown scope."""
        found = self.get(scope)
        return () if found is None else found.knowledge_topic_ids

    def describe(self) -> list[dict[str, Any]]:
        """Fresh JSON-serialisable dicts, one per scope."""
        return [scope.to_dict() for scope in self._scopes.values()]


def _option_categories(categories: object) -> tuple[str, ...] | None:
    if categories is None:
        return None

    def fail(reason: str) -> RegistryError:
        return RegistryError(
            "invalid-definition",
            f"ScopeRegistry option 'categories' {reason}. Pass a list of names, or omit it to allow any.",
            field="categories",
        )

    return name_list(categories, fail)


def _option_bool(name: str, value: object) -> bool:
    def fail(reason: str) -> RegistryError:
        return RegistryError("invalid-definition", f"ScopeRegistry option {name!r} {reason}.", field=name)

    return strict_bool(value, fail)
