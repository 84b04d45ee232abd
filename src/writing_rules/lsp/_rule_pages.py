"""The page a diagnostic links to: the rule's own text, as a reviewer sees it."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from .._catalog import rule_source

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .._catalog import Catalog

__all__ = ["rule_page_text", "rule_page_uri"]


def rule_page_text(rule_id: str, language: str, *, catalog: Catalog | None = None) -> str:
    """The rule as Markdown: title, summary, instruction, when it applies, examples.

    A pack's rule (``catalog``) that has no text in ``language`` is shown in its own language.
    """
    rule = rule_source(catalog).RULES[rule_id]
    if language not in rule.texts:
        language = next(iter(rule.texts))
    text = rule.texts[language]
    heading = {"en": ("Applies when", "Examples"), "de": ("Gilt wann", "Beispiele")}[language]
    lines = [f"# {text.title} (`{rule_id}`)", "", text.summary, "", text.instruction, "", f"## {heading[0]}", ""]
    lines += [text.applies_when, "", f"## {heading[1]}", ""]
    for example in text.examples:
        lines += [f"- {example.before}", f"  → {example.after}"]
    return "\n".join(lines) + "\n"


def rule_page_uri(rule_id: str, language: str, base_url: str | None = None, *, catalog: Catalog | None = None) -> str:
    """A link to the rule's text.

    ``base_url`` (the client's ``ruleUrl`` setting, with ``{id}`` and
    ``{language}``) points at the team's own pages. Without it the text is
    written once per rule-data version (the built-in data's, or the catalogue's
    with the packs in force) into the temporary folder, so the link works
    offline and always matches the rules in use. A pack's rule id
    (``acme/sign-in``, ``write-good.Passive``) names a file ``acme--sign-in.md``.
    """
    if base_url:
        return base_url.replace("{id}", rule_id).replace("{language}", language)
    digest = rule_source(catalog).digest
    folder = Path(tempfile.gettempdir()) / f"writing-rules-{digest[:12]}" / language
    name = rule_id.replace("/", "--").replace("\\", "--")
    page = folder / f"{name}.md"
    # No link target is better than no diagnostics: a pack's rule id may make a name too long
    # for the file system, or hold a NUL (ValueError).
    with contextlib.suppress(OSError, ValueError):
        if not page.exists():
            folder.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".tmp")
            with os.fdopen(handle, "w", encoding="utf-8") as stream:
                stream.write(rule_page_text(rule_id, language, catalog=catalog))
            os.replace(temporary, page)
    return page.as_uri()
