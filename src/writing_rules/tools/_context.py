"""Host options of the review dispatcher: review and model-comparison context.

A host bug is an exception at setup (``TypeError`` / ``ValueError``); a model's
bad call is a result. The dispatcher keeps the normalised, immutable copies
made here, so later changes to the host's objects change nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

_Context = TypeVar("_Context")

__all__ = ["ModelComparisonContext", "ReviewContext", "to_model_comparison_context", "to_review_context"]


def _text(value: object, name: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a string, got {type(value).__name__}")
    if not value.strip():
        raise ValueError(f"{name} must not be blank: say who reads the document and what it must achieve")
    return value


def _ids(value: object, name: str) -> tuple[str, ...]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise TypeError(f"{name} must be a list of strings, got {type(value).__name__}")
    items = tuple(value)
    if not items:
        raise ValueError(f"{name} must not be empty")
    for item in items:
        if not isinstance(item, str):
            raise TypeError(f"{name} must hold only strings, got {type(item).__name__}")
        if not item.strip():
            raise ValueError(f"{name} must not hold blank ids")
    duplicates = sorted({item for item in items if items.count(item) > 1})
    if duplicates:
        raise ValueError(f"{name} holds duplicate ids: {', '.join(duplicates)}")
    return items


@dataclass(frozen=True)
class ReviewContext:
    """Who reads the document and what it must achieve; set by the host, never by a tool call."""

    audience: str
    goal: str

    def __post_init__(self) -> None:
        _text(self.audience, "audience")
        _text(self.goal, "goal")


@dataclass(frozen=True)
class ModelComparisonContext:
    """The host's model ids and the cohort ids a tool call may ask about."""

    available_model_ids: tuple[str, ...]
    cohort_ids: tuple[str, ...]

    def __post_init__(self) -> None:
        # Accept any sequence from the host, keep an immutable copy.
        object.__setattr__(self, "available_model_ids", _ids(self.available_model_ids, "available_model_ids"))
        object.__setattr__(self, "cohort_ids", _ids(self.cohort_ids, "cohort_ids"))


def _from_mapping(value: Mapping[str, Any], cls: type[_Context], fields: tuple[str, ...]) -> _Context:
    unknown = sorted(str(key) for key in value if key not in fields)
    if unknown:
        raise ValueError(f"{cls.__name__} has no field(s) {', '.join(unknown)}; expected {', '.join(fields)}")
    missing = [name for name in fields if name not in value]
    if missing:
        raise ValueError(f"{cls.__name__} needs {', '.join(missing)}")
    return cls(**{name: value[name] for name in fields})


def to_review_context(value: object) -> ReviewContext | None:
    """Normalise the ``review_context`` option (None, a ReviewContext or a mapping)."""
    if value is None or isinstance(value, ReviewContext):
        return value
    if isinstance(value, Mapping):
        return _from_mapping(value, ReviewContext, ("audience", "goal"))
    raise TypeError(f"review_context must be a ReviewContext or a mapping, got {type(value).__name__}")


def to_model_comparison_context(value: object) -> ModelComparisonContext | None:
    """Normalise the ``model_comparison_context`` option (None, the dataclass or a mapping)."""
    if value is None or isinstance(value, ModelComparisonContext):
        return value
    if isinstance(value, Mapping):
        return _from_mapping(value, ModelComparisonContext, ("available_model_ids", "cohort_ids"))
    raise TypeError(
        f"model_comparison_context must be a ModelComparisonContext or a mapping, got {type(value).__name__}"
    )
