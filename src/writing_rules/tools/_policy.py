"""A team's decisions applied to signals: disabled rules, a minimum level, accepted terms.

The command line reads them from ``.writing-rules.toml``; a host gives them to
``create_writing_tool_dispatcher(config=...)`` so an agent sees what the team's
CI sees.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from .._catalog import Catalog, rule_source
from .._errors import WritingRulesError
from .._levels import DEFAULT_MIN_LEVEL, LEVELS, highest_level, level_at_least

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._signal import Signal

__all__ = ["SignalPolicy", "SignalPolicyError", "to_signal_policy"]

# Keys of a configuration file that agents follow; the others (include, markup ...) are about files.
# ``packs`` is read where the dispatcher is created (the packs load there).
_AGENT_KEYS = ("disable", "min-level", "accept", "rules", "profile", "packs")
_FILE_KEYS = ("language", "include", "exclude", "markup", "front-matter-keys", "overrides")


class SignalPolicyError(WritingRulesError, TypeError):
    """A ``config`` the host must fix. A ``ValueError`` like every bad option, and a ``TypeError``
    when the value has the wrong type."""


class SignalPolicy(NamedTuple):
    """Disabled rule ids, the lowest level reported, and terms never flagged (case-sensitive).

    ``catalog`` holds the rules the ids name (None: the built-in catalogue; see
    ``writing_rules.packs.catalog_for``).
    """

    disable: frozenset[str] = frozenset()
    min_level: str | None = None
    accept: tuple[str, ...] = ()
    catalog: Catalog | None = None

    def rule_ids(self, rule_ids: Iterable[str]) -> tuple[str, ...]:
        """``rule_ids`` less the disabled ones and those with no signal at ``min_level`` or above."""
        return tuple(
            rule_id
            for rule_id in rule_ids
            if rule_id not in self.disable
            and level_at_least(highest_level(rule_id, catalog=self.catalog), self.min_level)
        )

    def keep(self, signals: Iterable[Signal], text: str) -> list[Signal]:
        """The signals of rules still in force, at ``min_level`` or above, not inside an accepted term."""
        spans = _term_spans(text, self.accept)
        kept = []
        for signal in signals:
            if signal.rule_id in self.disable:
                continue
            if self.min_level is not None and not level_at_least(signal.level, self.min_level):
                continue
            if spans and _inside_term(spans, signal.start, signal.end):
                continue
            kept.append(signal)
        return kept


def _term_spans(text: str, terms: Iterable[str]) -> list[tuple[int, list[int]]]:
    """Per accepted term found in ``text``: its length and where it starts, in order."""
    spans = []
    for term in dict.fromkeys(terms):
        starts = []
        at = text.find(term)
        while at >= 0:
            starts.append(at)
            at = text.find(term, at + 1)
        if starts:
            spans.append((len(term), starts))
    return spans


def _inside_term(spans: list[tuple[int, list[int]]], start: int, end: int) -> bool:
    """Whether an occurrence of a term covers ``start`` to ``end``: one bisection per term, so
    ``accept = [" "]`` on a long text costs no more than a look-up per signal."""
    for length, starts in spans:
        # The first occurrence that does not end before ``end`` is the only one that may cover it.
        index = bisect_left(starts, end - length)
        if index < len(starts) and starts[index] <= start:
            return True
    return False


def to_signal_policy(config: object, *, catalog: Catalog | None = None) -> SignalPolicy | None:
    """The policy a host passed as ``config``: a mapping with the configuration file's keys,
    or an object with ``disable``, ``min_level`` and ``accept`` attributes (a
    ``writing_rules.lint.FileSettings``, or a ``LintConfig``'s ``settings``).

    Rule ids and the profile are checked against ``catalog`` (None: the built-in
    rules); the packs the config names are the caller's to load (``catalog``).
    Without ``min-level`` the command line's default applies (``warning``).
    Raises ``TypeError`` / ``ValueError`` for a value the host must fix.
    """
    if config is None:
        return None
    if isinstance(config, SignalPolicy):
        return config if catalog is None or config.catalog is not None else config._replace(catalog=catalog)
    data = rule_source(catalog)
    if isinstance(config, Mapping):
        unknown = [key for key in config if key not in _AGENT_KEYS + _FILE_KEYS]
        if unknown:
            raise SignalPolicyError(
                f"config has unknown key {unknown[0]!r}; keys: {', '.join(_AGENT_KEYS + _FILE_KEYS)}"
            )
        disable, min_level, accept = config.get("disable", ()), config.get("min-level"), config.get("accept", ())
        rules, profile = config.get("rules"), config.get("profile")
    else:
        settings: Any = getattr(config, "settings", config)
        try:
            disable, min_level, accept = settings.disable, settings.min_level, settings.accept
            rules, profile = getattr(settings, "rules", None), getattr(settings, "profile", None)
        except AttributeError:
            raise SignalPolicyError(
                "config must be a mapping like {'disable': [...], 'min-level': 'warning', 'accept': [...]} "
                "or writing_rules.lint settings"
            ) from None
    disabled = set(_rule_ids("disable", disable, data))
    # As on the command line: the profile's rules, then only those in ``rules``; the rest are off.
    if profile is not None:
        if not isinstance(profile, str) or profile not in data.PROFILES:
            raise SignalPolicyError(f"config 'profile' must be one of {', '.join(data.PROFILES)}, not {profile!r}")
        disabled.update(rule_id for rule_id in data.RULE_IDS if rule_id not in data.PROFILES[profile].rule_ids)
    if rules is not None:
        chosen = set(_rule_ids("rules", rules, data))
        disabled.update(rule_id for rule_id in data.RULE_IDS if rule_id not in chosen)
    if min_level is None:
        min_level = DEFAULT_MIN_LEVEL  # as the command line: a team that says nothing sees warnings and errors
    if min_level not in LEVELS:
        raise SignalPolicyError(f"config 'min-level' must be one of {', '.join(LEVELS)}, not {min_level!r}")
    if not _is_list(accept) or not all(isinstance(term, str) and term for term in accept):
        raise SignalPolicyError("config 'accept' must be a list of non-empty strings")
    return SignalPolicy(frozenset(disabled), min_level, tuple(accept), catalog)


def _is_list(value: object) -> bool:
    return isinstance(value, (list, tuple, set, frozenset))


def _rule_ids(key: str, value: object, data: Catalog) -> list[str]:
    if not isinstance(value, (list, tuple, set, frozenset)) or not all(isinstance(item, str) for item in value):
        raise SignalPolicyError(f"config {key!r} must be a list of rule ids")
    ids = [str(item) for item in value]
    unknown = [rule_id for rule_id in ids if rule_id not in data.RULES]
    if unknown:
        raise SignalPolicyError(f"config {key!r} names unknown rule {unknown[0]!r}; rules: {', '.join(data.RULE_IDS)}")
    return ids
