"""A minimal valid ``rules-src`` tree that each generator test breaks in one place."""

from __future__ import annotations

from pathlib import Path

PROMPTS = (Path(__file__).resolve().parents[2] / "rules-src" / "prompts.yaml").read_text(encoding="utf-8")

CATALOG = """\
order:
  - plain-rule
  - word-choice
profiles:
  - id: public-docs
    name: {en: Public documentation, de: Öffentliche Dokumentation}
    framing: {en: Guides for people outside the team., de: Anleitungen für Menschen außerhalb des Teams.}
"""

PLAIN_RULE = """\
---
id: plain-rule
level: warning
profiles: [public-docs]
title: {en: Open with the goal, de: Mit dem Ziel beginnen}
summary: {en: Say first what the reader achieves., de: "Sagen Sie zuerst, was erreicht wird."}
---

## en

### Instruction

Start with the goal.

### Applies when

Always.

### Examples

Before: This page describes the tool.
After: Set up the tool in five minutes.

## de

### Instruction

Beginnen Sie mit dem Ziel.

### Applies when

Immer.

### Examples

Before: Diese Seite beschreibt das Werkzeug.
After: Richten Sie das Werkzeug in fünf Minuten ein.
"""

WORD_CHOICE = """\
---
id: word-choice
level: warning
profiles: [public-docs]
title: {en: Use precise words, de: Präzise Wörter}
summary: {en: No hype., de: Keine Werbesprache.}
signals:
  - id: hype-en
    language: en
    pattern: '(?i)\\b(?:powerful|seamless(?:ly)?)\\b'
    must_match:
      - A [[powerful]] API.
    must_not_match:
      - The power supply.
  - id: hype-de
    language: de
    pattern: '(?i)\\bleistungsstark(?:e[mnrs]?)?\\b'
    must_match:
      - Eine [[leistungsstarke]] Lösung.
    must_not_match:
      - Die Leistung steigt.
---

## en

### Instruction

Name what it does.

### Applies when

Product copy.

### Examples

Before: A powerful API.
After: An API that retries.

## de

### Instruction

Nennen Sie, was es tut.

### Applies when

Produkttexte.

### Examples

Before: Eine leistungsstarke API.
After: Eine API, die Anfragen wiederholt.
"""


def write_tree(root: Path, **files: str) -> Path:
    """Write the valid tree, with ``files`` (relative path -> text) replacing or adding files."""
    contents = {
        "rules-src/catalog.yaml": CATALOG,
        "rules-src/prompts.yaml": PROMPTS,
        "rules-src/rules/plain-rule.md": PLAIN_RULE,
        "rules-src/rules/word-choice.md": WORD_CHOICE,
    }
    contents.update(files)
    for name, text in contents.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def line_of(text: str, needle: str, occurrence: int = 1) -> int:
    """1-based line number of the ``occurrence``-th line containing ``needle``."""
    seen = 0
    for number, line in enumerate(text.splitlines(), start=1):
        if needle in line:
            seen += 1
            if seen == occurrence:
                return number
    raise AssertionError(f"{needle!r} not found")
