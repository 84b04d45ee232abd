"""Validation core of tool 4, ``get_model_comparison_evidence``.

The host's callback returns evidence about which of its models did best in an
independently judged comparison. The library does not trust that object: it
reads only the fields the contract names, through the mapping and sequence
protocols, copies every accepted value into fresh plain JSON types, and reports
every problem with the JSON path it was found at. Nothing here calls the
callback or checks the tool-call arguments; the dispatcher does both.

Decisions where the contract is silent:

- Counts (``reviews.*``, ``detection.*``, ``falseEditSuggestions``) must be
  Python ``int`` (not ``bool``, not a whole-number ``float``): evidence is host
  data, so a float count is a host bug, not JSON-decoding noise. Counts and an
  integer ``cost.usd`` stay within 0..2**53-1 so a JavaScript host reads them
  exactly (and ``json.dumps`` never meets an oversized integer).
- A JSON array may be a ``list`` or a ``tuple`` (Python's ordered arrays); the
  copy is always a ``list``. A JSON object may be any ``Mapping`` with string
  keys. Subclasses of ``str``/``int``/``float`` are copied as the plain type.
- ``sourceIds`` may not repeat an id: a source cited twice is a host bug.
- ``"evidence-missing"`` may still list sources (reports that show no winner).
- Limits keep hostile input cheap: at most 64 fields per object and 10,000
  items per array are read; at most 100 problems are listed (plus a count).
- Reading a host object may run host code (``__iter__``, ``__getitem__``); an
  ``Exception`` there becomes a problem naming only its type. A
  ``BaseException`` that is not an ``Exception`` (cancellation) propagates.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from enum import Enum
from types import MappingProxyType
from typing import Any, Final

from .._describe import quote

__all__ = [
    "EVIDENCE_STATUSES",
    "check_evidence",
    "evidence_failed",
    "evidence_missing",
    "freeze_context",
    "freeze_query",
]

EVIDENCE_STATUSES: Final[tuple[str, ...]] = (
    "evidence-available",
    "evidence-missing",
    "host-evidence-failed",
    "invalid-host-evidence",
)
_AVAILABLE, _MISSING, _FAILED, _INVALID_STATUS = EVIDENCE_STATUSES
_HOST_STATUSES: Final = (_AVAILABLE, _MISSING)

_QUERY_FIELDS: Final = ("language", "profile", "role", "cohortId")
_EVIDENCE_FIELDS: Final = (
    "status",
    "query",
    "bestValue",
    "highestDetection",
    "sources",
    "explanation",
    "limitations",
)
_SOURCE_FIELDS: Final = ("id", "location", "sha256")
_SELECTION_FIELDS: Final = (
    "modelId",
    "sourceIds",
    "independentlyJudged",
    "reviews",
    "detection",
    "falseEditSuggestions",
    "cost",
    "limitations",
)
_REVIEW_FIELDS: Final = ("planned", "judged", "acceptedComplete")
_DETECTION_FIELDS: Final = ("detected", "expected")
_COST_FIELDS: Final = ("usd", "includesFailedAttempts", "includesRetries")

_MAX_SAFE_INTEGER: Final = 2**53 - 1  # JavaScript's Number.MAX_SAFE_INTEGER
_MAX_FIELDS: Final = 64
_MAX_ITEMS: Final = 10_000
_MAX_PROBLEMS: Final = 100
_SHOWN_CHARS: Final = 60
_SHA256: Final = re.compile(r"[0-9a-f]{64}")

_NO_FALLBACK: Final = "No other model, language, profile, role or cohort was tried."


class _Bad(Enum):
    """Marks a value that is missing or failed validation (its problem is recorded)."""

    BAD = "bad"


_BAD: Final = _Bad.BAD
# A checked value: a plain JSON value, or _BAD after its problem was recorded.
_Checked = Any


# --- freezing what the callback receives -------------------------------------------------


def freeze_query(language: str, profile: str, role: str, cohort_id: str) -> Mapping[str, str]:
    """The read-only query the callback receives: the four camelCase argument keys."""
    return MappingProxyType(
        {
            "language": _require_str(language, "language"),
            "profile": _require_str(profile, "profile"),
            "role": _require_str(role, "role"),
            "cohortId": _require_str(cohort_id, "cohort_id"),
        }
    )


def freeze_context(available_model_ids: Sequence[str], cohort_ids: Sequence[str]) -> Mapping[str, tuple[str, ...]]:
    """The read-only context the callback receives; the id lists become tuples.

    The dispatcher checks emptiness and duplicates when it is created; this only
    copies. Build it per callback call: a proxy's underlying dict can be reached
    by determined host code, and a fresh one keeps such a change to one call.
    """
    return MappingProxyType(
        {
            "availableModelIds": _require_str_tuple(available_model_ids, "available_model_ids"),
            "cohortIds": _require_str_tuple(cohort_ids, "cohort_ids"),
        }
    )


# --- results for the cases without usable evidence ---------------------------------------


def evidence_missing(query: Mapping[str, str], explanation: str, limitations: Sequence[str] = ()) -> dict[str, Any]:
    """``data`` when there is no context or no callback (cases 1 and 3)."""
    return _no_selection(
        _MISSING,
        query,
        _require_str(explanation, "explanation"),
        list(_require_str_tuple(limitations, "limitations")),
    )


def evidence_failed(query: Mapping[str, str], error: BaseException) -> dict[str, Any]:
    """``data`` when the callback failed (case 5); never echoes the error's text."""
    name = _type_name(type(error))
    # Only a plain identifier is named: a dynamically made class could carry anything.
    shown = name if name.isidentifier() and len(name) <= _SHOWN_CHARS else "an exception"
    return _no_selection(
        _FAILED,
        query,
        f"The host's evidence callback failed ({shown}), so no evidence is available "
        "for this query and no model is chosen.",
        [
            "The error's message is not shown because it could contain secrets.",
            _NO_FALLBACK,
        ],
    )


def _no_selection(status: str, query: Mapping[str, str], explanation: str, limitations: list[str]) -> dict[str, Any]:
    return {
        "status": status,
        "query": _request_copy(query),
        "bestValue": None,
        "highestDetection": None,
        "sources": [],
        "explanation": explanation,
        "limitations": limitations,
    }


# --- validating the host's evidence --------------------------------------------------------


def check_evidence(evidence: object, *, query: Mapping[str, str], available_model_ids: Sequence[str]) -> dict[str, Any]:
    """Validate the callback's evidence (cases 6 and 7); never raises an ``Exception``.

    Returns a deep copy in plain JSON types with the host's status, or an
    ``"invalid-host-evidence"`` result whose ``problems`` say what failed.
    """
    request = _request_copy(query)
    checker = _Checker(request, frozenset(_require_str_tuple(available_model_ids, "available_model_ids")))
    copy: _Checked
    try:
        copy = checker.evidence(evidence)
    except Exception as exc:  # a gap in the reader; the host still gets an answer, not a crash
        checker.problem("", f"could not be validated ({_exception_name(exc)})")
        copy = _BAD
    if checker.problems or _has_bad(copy) or not isinstance(copy, dict):
        return _invalid(request, checker.problems or ["evidence: could not be validated"])
    return copy


def _invalid(request: dict[str, str], problems: list[str]) -> dict[str, Any]:
    count = len(problems)
    if count > _MAX_PROBLEMS:
        problems = [*problems[: _MAX_PROBLEMS - 1], f"... and {count - _MAX_PROBLEMS + 1} more problems"]
    data = _no_selection(
        _INVALID_STATUS,
        request,
        f"The host's evidence for this query failed validation ({count} "
        f"problem{'s' if count != 1 else ''}), so it is not used and no model is chosen.",
        ["The host has to correct its evidence; 'problems' lists what failed.", _NO_FALLBACK],
    )
    data["problems"] = list(problems)
    return data


class _Checker:
    """Reads one evidence object, collecting problems; one instance per check."""

    def __init__(self, request: dict[str, str], model_ids: frozenset[str]) -> None:
        self.request = request
        self.model_ids = model_ids
        self.problems: list[str] = []

    def problem(self, path: str, text: str) -> None:
        self.problems.append(f"{path or 'evidence'}: {text}")

    # top level

    def evidence(self, raw: object) -> _Checked:
        fields = self.fields(raw, "", _EVIDENCE_FIELDS)
        if fields is None:
            return _BAD
        status = self.string(fields["status"], "status", what="'evidence-available' or 'evidence-missing'")
        if isinstance(status, str) and status not in _HOST_STATUSES:
            self.problem(
                "status",
                f"is {_show(status)}; a host returns 'evidence-available' or 'evidence-missing'",
            )
        query = self.query(fields["query"])
        sources, source_ids = self.sources(fields["sources"])
        explanation = self.string(fields["explanation"], "explanation", what="a non-blank string", blank=False)
        limitations = self.strings(fields["limitations"], "limitations")
        best_value = self.selection(fields["bestValue"], "bestValue", source_ids)
        highest_detection = self.selection(fields["highestDetection"], "highestDetection", source_ids)
        if isinstance(best_value, dict):
            self.require_best_value(best_value)
        if isinstance(highest_detection, dict):
            self.require_highest_detection(highest_detection)
        self.require_status(status, fields["bestValue"], fields["highestDetection"])
        return {
            "status": status,
            "query": query,
            "bestValue": best_value,
            "highestDetection": highest_detection,
            "sources": sources,
            "explanation": explanation,
            "limitations": limitations,
        }

    def query(self, raw: object) -> _Checked:
        fields = self.fields(raw, "query", _QUERY_FIELDS)
        if fields is None:
            return _BAD
        copy: dict[str, Any] = {}
        for key in _QUERY_FIELDS:
            path = f"query.{key}"
            value = self.string(fields[key], path, what="a string equal to the request's")
            wanted = self.request.get(key)
            if isinstance(value, str) and value != wanted:
                self.problem(
                    path,
                    f"is {_show(value)} but the request asked for {_show(wanted)}; "
                    "the query must equal the request exactly",
                )
            copy[key] = value
        return copy

    def require_status(self, status: _Checked, best_raw: object, detection_raw: object) -> None:
        # A missing selection field is already a problem; only judge what was read.
        if status == _AVAILABLE and best_raw is None and detection_raw is None:
            self.problem(
                "status",
                "is 'evidence-available' but bestValue and highestDetection are both null; "
                "give at least one selection or return 'evidence-missing'",
            )
        if status == _MISSING:
            for name, raw in (("bestValue", best_raw), ("highestDetection", detection_raw)):
                if raw is not None and raw is not _BAD:
                    self.problem(name, "must be null when status is 'evidence-missing'")

    # sources

    def sources(self, raw: object) -> tuple[_Checked, frozenset[str] | None]:
        items = self.items(raw, "sources", "source records")
        if items is _BAD:
            return _BAD, None  # references cannot be checked; say so only once
        copies: list[Any] = []
        ids: set[str] = set()
        for index, item in enumerate(items):
            path = f"sources[{index}]"
            fields = self.fields(item, path, _SOURCE_FIELDS)
            if fields is None:
                copies.append(_BAD)
                continue
            source_id = self.string(fields["id"], f"{path}.id", what="a non-blank string", blank=False)
            if isinstance(source_id, str) and source_id.strip():
                if source_id in ids:
                    self.problem(f"{path}.id", f"{_show(source_id)} is already used; source ids must be unique")
                ids.add(source_id)
            location = self.string(fields["location"], f"{path}.location", what="a non-blank string", blank=False)
            digest = self.string(fields["sha256"], f"{path}.sha256", what="a SHA-256 hex digest")
            if isinstance(digest, str) and not _SHA256.fullmatch(digest):
                self.problem(f"{path}.sha256", "must be exactly 64 lowercase hexadecimal characters (0-9, a-f)")
            copies.append({"id": source_id, "location": location, "sha256": digest})
        return copies, frozenset(ids)

    # selections

    def selection(self, raw: object, path: str, source_ids: frozenset[str] | None) -> _Checked:
        if raw is None or raw is _BAD:
            return raw
        fields = self.fields(raw, path, _SELECTION_FIELDS)
        if fields is None:
            return _BAD
        model_id = self.string(fields["modelId"], f"{path}.modelId", what="one of the host's model ids")
        if isinstance(model_id, str) and model_id not in self.model_ids:
            self.problem(
                f"{path}.modelId",
                f"{_show(model_id)} is not one of the host's available model ids: {_list(sorted(self.model_ids))}",
            )
        return {
            "modelId": model_id,
            "sourceIds": self.source_refs(fields["sourceIds"], f"{path}.sourceIds", source_ids),
            "independentlyJudged": self.boolean(fields["independentlyJudged"], f"{path}.independentlyJudged"),
            "reviews": self.reviews(fields["reviews"], f"{path}.reviews"),
            "detection": self.detection(fields["detection"], f"{path}.detection"),
            "falseEditSuggestions": self.count(
                fields["falseEditSuggestions"], f"{path}.falseEditSuggestions", nullable=True
            ),
            "cost": self.cost(fields["cost"], f"{path}.cost"),
            "limitations": self.strings(fields["limitations"], f"{path}.limitations"),
        }

    def source_refs(self, raw: object, path: str, source_ids: frozenset[str] | None) -> _Checked:
        items = self.items(raw, path, "source ids")
        if items is _BAD:
            return _BAD
        if not items:
            self.problem(path, "is empty; name at least one id from sources")
        refs: list[Any] = []
        seen: set[str] = set()
        for index, item in enumerate(items):
            ref = self.string(item, f"{path}[{index}]", what="a source id")
            if isinstance(ref, str):
                if ref in seen:
                    self.problem(f"{path}[{index}]", f"{_show(ref)} is listed twice; source ids must be unique")
                elif source_ids is not None and ref not in source_ids:
                    self.problem(f"{path}[{index}]", f"{_show(ref)} is not the id of a record in sources")
                seen.add(ref)
            refs.append(ref)
        return refs

    def reviews(self, raw: object, path: str) -> _Checked:
        fields = self.fields(raw, path, _REVIEW_FIELDS)
        if fields is None:
            return _BAD
        planned, judged, accepted = (
            self.count(fields[name], f"{path}.{name}", nullable=False) for name in _REVIEW_FIELDS
        )
        if _all_int(judged, planned) and judged > planned:
            self.problem(f"{path}.judged", f"is {judged}, more than planned ({planned}); judged <= planned")
        if _all_int(accepted, judged) and accepted > judged:
            self.problem(
                f"{path}.acceptedComplete",
                f"is {accepted}, more than judged ({judged}); acceptedComplete <= judged",
            )
        return {"planned": planned, "judged": judged, "acceptedComplete": accepted}

    def detection(self, raw: object, path: str) -> _Checked:
        fields = self.fields(raw, path, _DETECTION_FIELDS)
        if fields is None:
            return _BAD
        detected = self.count(fields["detected"], f"{path}.detected", nullable=True)
        expected = self.count(fields["expected"], f"{path}.expected", nullable=True)
        if _all_int(detected, expected) and detected > expected:
            self.problem(
                f"{path}.detected",
                f"is {detected}, more than expected ({expected}); detected <= expected",
            )
        return {"detected": detected, "expected": expected}

    def cost(self, raw: object, path: str) -> _Checked:
        if raw is None or raw is _BAD:
            return raw
        fields = self.fields(raw, path, _COST_FIELDS)
        if fields is None:
            return _BAD
        return {
            "usd": self.usd(fields["usd"], f"{path}.usd"),
            "includesFailedAttempts": self.boolean(fields["includesFailedAttempts"], f"{path}.includesFailedAttempts"),
            "includesRetries": self.boolean(fields["includesRetries"], f"{path}.includesRetries"),
        }

    def require_best_value(self, selection: dict[str, Any]) -> None:
        if selection["independentlyJudged"] is False:
            self.problem("bestValue.independentlyJudged", "is false; bestValue needs independently judged reviews")
        reviews = selection["reviews"]
        if reviews is not _BAD and reviews["acceptedComplete"] == 0:
            self.problem(
                "bestValue.reviews.acceptedComplete",
                "is 0; bestValue needs at least one accepted complete review",
            )
        cost = selection["cost"]
        if cost is None:
            self.problem(
                "bestValue.cost",
                "is null; bestValue needs a known cost that includes failed and retried attempts",
            )
        elif cost is not _BAD:
            if cost["includesFailedAttempts"] is False:
                self.problem(
                    "bestValue.cost.includesFailedAttempts",
                    "is false; bestValue needs a cost that includes failed attempts",
                )
            if cost["includesRetries"] is False:
                self.problem(
                    "bestValue.cost.includesRetries",
                    "is false; bestValue needs a cost that includes retried attempts",
                )

    def require_highest_detection(self, selection: dict[str, Any]) -> None:
        if selection["independentlyJudged"] is False:
            self.problem(
                "highestDetection.independentlyJudged",
                "is false; highestDetection needs independently judged problems",
            )
        detection = selection["detection"]
        if detection is not _BAD:
            for name, what in (("detected", "detected"), ("expected", "expected")):
                if detection[name] is None:
                    self.problem(
                        f"highestDetection.detection.{name}",
                        f"is null; highestDetection needs a known count of {what} problems",
                    )
        if selection["falseEditSuggestions"] is None:
            self.problem(
                "highestDetection.falseEditSuggestions",
                "is null; highestDetection needs a known count of false edit suggestions",
            )

    # primitive readers: each records its own problem and returns _BAD on failure

    def fields(self, raw: object, path: str, names: tuple[str, ...]) -> dict[str, Any] | None:
        """Read an object with exactly ``names``; missing or unreadable fields map to ``_BAD``."""
        if raw is _BAD:
            return None
        if not _is_mapping(raw):
            self.problem(path, f"expected an object with the fields {_list(names)}; got {_kind(raw)}")
            return None
        keys: dict[str, object] = {}  # plain key -> the host's key object, for the lookup
        try:
            for index, key in enumerate(iter(raw)):  # type: ignore[call-overload]
                if index >= _MAX_FIELDS:
                    self.problem(path, f"has more than {_MAX_FIELDS} fields; expected only {_list(names)}")
                    break
                plain = _plain_str(key)
                if plain is None:
                    self.problem(path, f"has a key that is {_kind(key)}; keys must be strings")
                elif plain in keys:
                    self.problem(path, f"has the key {_show(plain)} twice")
                else:
                    keys[plain] = key
        except Exception as exc:
            self.problem(path, f"its fields could not be listed ({_exception_name(exc)})")
            return None
        unexpected = [key for key in keys if key not in names]
        if unexpected:
            self.problem(
                path,
                f"unexpected field{'s' if len(unexpected) > 1 else ''} "
                f"{_list([_show(key) for key in unexpected])}; allowed fields: {_list(names)}",
            )
        missing = [name for name in names if name not in keys]
        if missing:
            self.problem(path, f"missing field{'s' if len(missing) > 1 else ''} {_list(missing)}")
        values: dict[str, Any] = {}
        for name in names:
            values[name] = _BAD
            if name in keys:
                try:
                    values[name] = raw[keys[name]]  # type: ignore[index]
                except Exception as exc:
                    self.problem(_join(path, name), f"could not be read ({_exception_name(exc)})")
        return values

    def items(self, raw: object, path: str, what: str) -> _Checked:
        if raw is _BAD:
            return _BAD
        if not issubclass(type(raw), (list, tuple)):
            self.problem(path, f"expected an array of {what}; got {_kind(raw)}")
            return _BAD
        items: list[object] = []
        try:
            for item in raw:  # type: ignore[attr-defined]
                if len(items) >= _MAX_ITEMS:
                    self.problem(path, f"has more than {_MAX_ITEMS} items")
                    return _BAD
                items.append(item)
        except Exception as exc:
            self.problem(path, f"its items could not be read ({_exception_name(exc)})")
            return _BAD
        return items

    def strings(self, raw: object, path: str) -> _Checked:
        items = self.items(raw, path, "strings")
        if items is _BAD:
            return _BAD
        return [self.string(item, f"{path}[{index}]", what="a string") for index, item in enumerate(items)]

    def string(self, raw: object, path: str, *, what: str, blank: bool = True) -> _Checked:
        if raw is _BAD:
            return _BAD
        plain = _plain_str(raw)
        if plain is None:
            self.problem(path, f"expected {what}; got {_kind(raw)}")
            return _BAD
        if not blank and not plain.strip():
            self.problem(path, f"is blank; expected {what}")
        return plain

    def boolean(self, raw: object, path: str) -> _Checked:
        if raw is _BAD:
            return _BAD
        if type(raw) is not bool:  # strictly: 0 and 1 are not booleans
            self.problem(path, f"expected true or false; got {_kind(raw)}")
            return _BAD
        return raw

    def count(self, raw: object, path: str, *, nullable: bool) -> _Checked:
        if raw is _BAD:
            return _BAD
        if raw is None and nullable:
            return None
        allowed = f"an integer from 0 to {_MAX_SAFE_INTEGER}" + (" or null (unknown)" if nullable else "")
        kind = type(raw)
        if kind is bool or not issubclass(kind, int):
            self.problem(path, f"expected {allowed}; got {_kind(raw)}")
            return _BAD
        number = int.__int__(raw)  # type: ignore[arg-type]  # plain int, bypassing overrides
        if not 0 <= number <= _MAX_SAFE_INTEGER:
            self.problem(path, f"is {_show_int(number)}; expected {allowed}")
            return _BAD
        return number

    def usd(self, raw: object, path: str) -> _Checked:
        if raw is _BAD:
            return _BAD
        allowed = "a finite number >= 0"
        kind = type(raw)
        if kind is not bool and issubclass(kind, int):
            number = int.__int__(raw)  # type: ignore[arg-type]
            if not 0 <= number <= _MAX_SAFE_INTEGER:
                self.problem(path, f"is {_show_int(number)}; expected {allowed} (integers up to {_MAX_SAFE_INTEGER})")
                return _BAD
            return number
        if issubclass(kind, float):
            value = float.__float__(raw)  # type: ignore[arg-type]
            if not math.isfinite(value) or value < 0:
                self.problem(path, f"is {value!r}; expected {allowed}")
                return _BAD
            return value
        self.problem(path, f"expected {allowed}; got {_kind(raw)}")
        return _BAD


# --- helpers --------------------------------------------------------------------------------


def _has_bad(value: object) -> bool:
    """Whether a checked copy still holds ``_BAD``: a safety net, never expected to fire."""
    if value is _BAD:
        return True
    if type(value) is dict:
        return any(_has_bad(item) for item in value.values())
    if type(value) is list:
        return any(_has_bad(item) for item in value)
    return False


def _is_mapping(value: object) -> bool:
    # issubclass on the real type: isinstance would consult a forged __class__.
    try:
        return issubclass(type(value), Mapping)
    except Exception:
        return False


def _plain_str(value: object) -> str | None:
    """A plain ``str`` copy of a string (subclass overrides bypassed), else None."""
    if issubclass(type(value), str):
        return str.__str__(value)
    return None


def _kind(value: object) -> str:
    """Name a value by its JSON type without running any of its code."""
    kind = type(value)
    if value is None:
        return "null"
    if kind is bool:
        return "a boolean"
    if issubclass(kind, int):
        return f"the integer {_show_int(int.__int__(value))}"  # type: ignore[arg-type]
    if issubclass(kind, float):
        number = float.__float__(value)  # type: ignore[arg-type]
        if not math.isfinite(number):
            return f"the non-finite number {number!r}"
        if number.is_integer():
            return f"the number {number!r} (a float; host counts must be integers)"
        return f"the number {number!r}"
    if issubclass(kind, str):
        return f"the string {_show(str.__str__(value))}"
    if issubclass(kind, (list, tuple)):
        return "an array"
    if _is_mapping(value):
        return "an object"
    return f"a non-JSON value ({_type_name(kind)})"


def _show(text: str | None) -> str:
    """A short quoted form of a plain string for a problem message."""
    return "null" if text is None else quote(text, _SHOWN_CHARS)


def _show_int(number: int) -> str:
    # str() of a huge int raises (int max str digits); such values only need a rough name.
    if abs(number) <= 10**18:
        return str(number)
    return "a negative integer too large to show" if number < 0 else "an integer too large to show"


def _list(names: Sequence[str]) -> str:
    shown = list(names[:10])
    more = len(names) - len(shown)
    return ", ".join(shown) + (f" (and {more} more)" if more > 0 else "")


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def _all_int(*values: object) -> bool:
    return all(type(value) is int for value in values)


def _type_name(kind: type) -> str:
    # Read the real name: a metaclass could override __name__ with anything.
    try:
        name = type.__dict__["__name__"].__get__(kind)
    except Exception:
        return "unknown type"
    return name if type(name) is str else "unknown type"


def _exception_name(exc: BaseException) -> str:
    # The type only: the message could hold the host's secrets.
    name = _type_name(type(exc))
    return name if name.isidentifier() and len(name) <= _SHOWN_CHARS else "an exception"


def _request_copy(query: Mapping[str, str]) -> dict[str, str]:
    return {_require_str(key, "query key"): _require_str(value, f"query[{key!r}]") for key, value in query.items()}


def _require_str(value: object, name: str) -> str:
    plain = _plain_str(value)
    if plain is None:
        raise TypeError(f"{name} must be a string, not {_type_name(type(value))}")
    return plain


def _require_str_tuple(values: Sequence[str], name: str) -> tuple[str, ...]:
    if _plain_str(values) is not None:
        raise TypeError(f"{name} must be a sequence of strings, not a single string")
    return tuple(_require_str(value, f"{name} item") for value in values)
