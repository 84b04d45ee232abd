"""A team's decisions applied to signals: disabled rules, a minimum level, accepted terms.

The command line reads them from ``.writing-rules.toml``; a host gives them to
``create_writing_tool_dispatcher(config=...)`` so an agent sees what the team's
CI sees.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .._lazy_rules import rule_data as data
from .._levels import DEFAULT_MIN_LEVEL, LEVELS, highest_level, level_at_least, signal_level

__all__ = ["SignalPolicy", "to_signal_policy"]

# Keys of a configuration file that agents follow; the others (include, markup ...) are about files.
_AGENT_KEYS = ("disable", "min-level", "accept")
_FILE_KEYS = ("language", "profile", "rules", "include", "exclude", "markup", "front-matter-keys", "overrides")


@dataclass(frozen=True)
class SignalPolicy:
    """Disabled rule ids, the lowest level reported, and terms never flagged (case-sensitive)."""

    disable: frozenset[str] = frozenset()
    min_level: str | None = None
    accept: tuple[str, ...] = ()

    def rule_ids(self, rule_ids: Iterable[str]) -> tuple[str, ...]:
        """``rule_ids`` less the disabled ones and those with no signal at ``min_level`` or above."""
        return tuple(
            rule_id
            for rule_id in rule_ids
            if rule_id not in self.disable and level_at_least(highest_level(rule_id), self.min_level)
        )

    def keep(self, signals: Iterable[Mapping[str, Any]], text: str) -> list[Mapping[str, Any]]:
        """The signals of rules still in force, at ``min_level`` or above, not inside an accepted term."""
        spans = _term_spans(text, self.accept)
        levels: dict[tuple[str, str | None], str] = {}  # a page repeats few (rule, signal) pairs
        kept = []
        for signal in signals:
            if signal["ruleId"] in self.disable:
                continue
            if self.min_level is not None:
                level = signal.get("level")  # the tool reports each signal's level
                if level is None:
                    pair = (signal["ruleId"], signal.get("signalId"))
                    if pair not in levels:
                        levels[pair] = signal_level(*pair)
                    level = levels[pair]
                if not level_at_least(level, self.min_level):
                    continue
            if spans and any(first <= signal["start"] and signal["end"] <= last for first, last in spans):
                continue
            kept.append(signal)
        return kept


def _term_spans(text: str, terms: Iterable[str]) -> list[tuple[int, int]]:
    spans = []
    for term in terms:
        at = text.find(term)
        while at >= 0:
            spans.append((at, at + len(term)))
            at = text.find(term, at + 1)
    return spans


def to_signal_policy(config: object) -> SignalPolicy | None:
    """The policy a host passed as ``config``: a mapping with the configuration file's keys,
    or an object with ``disable``, ``min_level`` and ``accept`` attributes (a
    ``writing_rules.lint.FileSettings``, or a ``LintConfig``'s ``settings``).

    Without ``min-level`` the command line's default applies (``warning``).
    Raises ``TypeError`` / ``ValueError`` for a value the host must fix.
    """
    if config is None or isinstance(config, SignalPolicy):
        return config
    if isinstance(config, Mapping):
        unknown = [key for key in config if key not in _AGENT_KEYS + _FILE_KEYS]
        if unknown:
            raise ValueError(f"config has unknown key {unknown[0]!r}; keys: {', '.join(_AGENT_KEYS + _FILE_KEYS)}")
        disable, min_level, accept = config.get("disable", ()), config.get("min-level"), config.get("accept", ())
    else:
        settings: Any = getattr(config, "settings", config)
        try:
            disable, min_level, accept = settings.disable, settings.min_level, settings.accept
        except AttributeError:
            raise TypeError(
                "config must be a mapping like {'disable': [...], 'min-level': 'warning', 'accept': [...]} "
                "or writing_rules.lint settings"
            ) from None
    if isinstance(disable, str) or not all(isinstance(rule_id, str) for rule_id in disable):
        raise TypeError("config 'disable' must be a list of rule ids")
    unknown_rules = [rule_id for rule_id in disable if rule_id not in data.RULES]
    if unknown_rules:
        raise ValueError(f"config 'disable' names unknown rule {unknown_rules[0]!r}; rules: {', '.join(data.RULE_IDS)}")
    if min_level is None:
        min_level = DEFAULT_MIN_LEVEL  # as the command line: a team that says nothing sees warnings and errors
    if min_level not in LEVELS:
        raise ValueError(f"config 'min-level' must be one of {', '.join(LEVELS)}, not {min_level!r}")
    if isinstance(accept, str) or not all(isinstance(term, str) and term for term in accept):
        raise TypeError("config 'accept' must be a list of non-empty strings")
    return SignalPolicy(frozenset(disable), min_level, tuple(accept))
