"""The texts the benchmark scripts measure on, built in one place so their figures compare."""

from __future__ import annotations

import random
from pathlib import Path

import yaml

__all__ = ["GUIDE_SENTENCES", "PRODUCTS", "REJECTED_CALLS", "labelled_sentences", "labelled_text"]

_SIGNAL_EVAL = Path(__file__).resolve().parent / "signal_eval"

# Arguments of four find_writing_signals calls the schema rejects, one of each kind of mistake
# a model makes; both the scanner and the rejected-call benchmark time these.
_CALL_TEXT = "Simply click the powerful button."
REJECTED_CALLS = [
    {"text": _CALL_TEXT, "audience": "developers"},  # an unexpected field
    {"text": _CALL_TEXT, "language": "EN"},  # a language in the wrong case
    {"text": _CALL_TEXT, "maxSignals": 0},  # out of range
    {"text": _CALL_TEXT, "ruleIds": ["word-choice", "tone"]},  # an unknown rule id
]

PRODUCTS = ["Relay", "Beacon", "Harbor", "Lantern", "Quarry", "Sparrow", "Tandem", "Vessel"]
# Sentences of the kind real guides carry, some plain and some with habits the tools flag
# ({p}: a product name, {n}: a number).
GUIDE_SENTENCES = [
    "The {p} agent reads its configuration once, when it starts.",
    "You can basically run {p} anywhere that Python 3.10 runs.",
    "If a route fails, {p} retries it {n} times and then writes the event to the dead-letter queue.",
    "This is a very powerful feature that makes {p} extremely flexible.",
    "Each event is acknowledged after the target answers with a status below 300.",
    "In order to rotate the key, open the dashboard and select Keys.",
    "It should be noted that the log level can be changed at run time.",
    "Most users will probably never need to change the default timeout of {n} seconds.",
    "The {p} command line prints the route name, the source and the last error.",
    "Simply add a second route to the same file and restart {p}.",
    "Events larger than {n} KB are rejected with a clear message.",
    "Run `{p} check` before you deploy, and read its report line by line.",
    "At the end of the day, the queue is just a folder of JSON files.",
]


def labelled_sentences(language: str) -> list[str]:
    """Every labelled sentence of ``signal_eval/<language>.yaml``, positive and negative."""
    labelled = yaml.safe_load((_SIGNAL_EVAL / f"{language}.yaml").read_text(encoding="utf-8"))
    return [s for rule in labelled.values() for kind in ("positive", "negative") for s in rule[kind]]


def labelled_text(language: str, length: int = 250_000, seed: int = 7) -> str:
    """``length`` characters of paragraphs of 2 to 6 labelled sentences (deterministic)."""
    sentences = labelled_sentences(language)
    rng = random.Random(seed)
    parts: list[str] = []
    size = 0
    while size < length:
        paragraph = " ".join(rng.choice(sentences) for _ in range(rng.randint(2, 6)))
        parts.append(paragraph)
        size += len(paragraph) + 2
    return "\n\n".join(parts)[:length]
