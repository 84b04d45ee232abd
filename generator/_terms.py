"""Compiling a pack's vocabulary (``terms.yaml``) into signals with safe fixes.

Each entry (``use``, ``avoid``, ``language``, ``level``, ``case``, ``why``,
extra examples) becomes one pattern signal of the pack's ``terms`` rule, written
out as a rule-file signal would be (``pattern``, ``must_match``,
``must_not_match``, ``fixes``), so the compiler checks it exactly like one:
every example, every fix example, the static backtracking check, the index.

The words of an entry are literal. Each ``avoid`` phrase is found with its
inflections (in English: plural ``-s``/``-es`` on its last word, possessive ``'s``/``’s``)
as a whole word: not inside a longer word and not as a part of a hyphenated
compound (``pre-login``, ``login-page``). The fix replaces each form with the
same form of ``use``. How case counts (``case``, docs/packs.md):

- ``preserve``: any capitalisation is found; the fix writes ``use`` in the
  hit's capitalisation, as the fixes of built-in rules do (``Log in`` -> ``Sign in``);
- ``insensitive`` (default): any capitalisation is found; the fix writes
  ``use`` as written, so it is offered only for hits where the runtime's case
  rule (``_fix_text.apply_case``) leaves it as written;
- ``sensitive``: ``avoid`` phrases are found only as written, and ``use``
  written in another capitalisation is a hit too; the fix writes ``use`` as
  written, with the same restriction as ``insensitive``.

The generated examples show every form found, near misses that must not be
found (the word glued to a letter, inside a hyphenated compound, ``use``
itself) and, where the fix does not apply (an ALL CAPS hit of an "as written"
entry), nothing else: the compiler then checks that no fix fires there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ._fixes import apply_case
from ._yaml import Located

__all__ = ["CompiledTerm", "compile_term", "plural", "term_signal_id", "terms_rule_texts"]

_EDGE_BEFORE = r"(?<![\w-])"
_EDGE_AFTER = r"(?![\w-])"
_APOSTROPHES = ("'", "’")

# A neutral frame per language, so an example is a sentence and a fix example shows context.
_FRAMES = {
    "en": ("Please see {} for details.", "The {} page loads."),
    "de": ("Siehe {} für Details.", "Die Seite {} lädt."),
}
# The most terms the rule's instruction lists by name.
MAX_LISTED_TERMS = 100
_NEUTRAL = {"en": "Nothing here needs a change.", "de": "Hier muss nichts geändert werden."}
# A hit under a negation: reported, but the scanner offers no fix there (``_fix_text.negated``);
# a signal with fixes shows one such example.
_NEGATED = {"en": "This is not {} yet.", "de": "Das ist nicht {} hier."}


@dataclass(frozen=True)
class CompiledTerm:
    """One entry as a rule-file signal (``item``), plus what the pack module shows for a hit."""

    item: dict[str, Any]
    message: str
    index: int  # the entry's position in terms.yaml


def plural(word: str) -> str:
    """The regular English plural of a phrase's last word: ``-es`` after s, x, z, ch, sh; else ``-s``."""
    if re.search(r"(?:s|x|z|ch|sh)$", word, re.IGNORECASE):
        return word + ("ES" if word.isupper() else "es")
    return word + ("S" if word.isupper() and len(word) > 1 else "s")


def _forms(phrase: str, language: str) -> dict[str, str]:
    """The inflected forms of ``phrase`` by kind: base, plural, possessive (both apostrophes)."""
    forms = {"base": phrase}
    # German inflects irregularly (Umlaut, -en, -n): its forms are listed in ``avoid`` by the author.
    if phrase[-1:].isalpha() and language == "en":
        forms["plural"] = plural(phrase)
        for number, mark in enumerate(_APOSTROPHES):
            forms[f"possessive{number}"] = phrase + mark + "s"
    return forms


def term_signal_id(use: str, language: str, taken: set[str]) -> str:
    """A slug for the entry (``sign-in-en``), unique among ``taken`` (which it joins)."""
    slug = re.sub(r"[^a-z0-9]+", "-", use.lower()).strip("-")[:48].strip("-") or "term"
    if not slug[0].isalpha():
        slug = "term-" + slug
    base = f"{slug}-{language}"
    candidate, number = base, 2
    while candidate in taken:
        candidate, number = f"{base}-{number}", number + 1
    taken.add(candidate)
    return candidate


def _alternation(texts: list[str]) -> str:
    # Longest first: the regex tries alternatives in order, and "log in's" must win over "log in".
    unique = sorted(set(texts), key=lambda text: (-len(text), text))
    return "(?:" + "|".join(re.escape(text).replace("\\ ", " ") for text in unique) + ")"


def _variant(form: str) -> str:
    """``form`` in any capitalisation except exactly as written: a misspelt ``use`` (``case: sensitive``)."""
    exact = re.escape(form).replace("\\ ", " ")
    return f"(?!(?-i:{exact}){_EDGE_AFTER})(?i:{exact})"


def _as_written_guard(form: str, replacement: str) -> str:
    """A look-ahead that lets the fix apply only where the runtime's case rule keeps ``replacement`` as written.

    ``apply_case`` upper-cases the replacement for an ALL CAPS hit and capitalises it
    for a hit whose first letter is a capital; both would change a replacement that
    is not written so.
    """
    guards = []
    letters = [char for char in form if char.isalpha()]
    if replacement.upper() != replacement and len(letters) > 1:
        guards.append(f"(?!(?-i:{_escaped(form.upper())}){_EDGE_AFTER})")
    first = next((char for char in replacement if char.isalpha()), "")
    if first and first.islower():
        lead = next(i for i, char in enumerate(form) if char.isalpha()) if letters else 0
        if letters:
            guards.append(f"(?=(?-i:{_escaped(form[:lead] + form[lead].lower())}))")
    return "".join(guards)


def compile_term(entry: dict[str, Any], index: int, signal_id: str) -> CompiledTerm:
    """The signal of one schema-valid entry: pattern, generated and authored examples, fixes."""
    use: str = entry["use"]
    language: str = entry["language"]
    case: str = entry.get("case", "insensitive")
    avoid: list[str] = list(dict.fromkeys(entry["avoid"]))
    use_forms = _forms(use, language)
    # Per kind of form: the texts found (exact texts and, for ``sensitive``, misspelt ``use``)
    found: dict[str, list[str]] = {}
    for phrase in avoid:
        for kind, form in _forms(phrase, language).items():
            found.setdefault(kind, []).append(form)
    kinds = [kind for kind in use_forms if kind in found or case == "sensitive"]
    if case == "sensitive":
        # Longest first, as in ``_alternation``: a possessive must win over its base form.
        sized = [(form, _escaped(form)) for kind in kinds for form in found.get(kind, [])]
        sized += [(use_forms[kind], _variant(use_forms[kind])) for kind in kinds]
        branches = [regex for _, regex in sorted(dict(sized).items(), key=lambda item: (-len(item[0]), item[0]))]
        pattern = f"{_EDGE_BEFORE}(?:{'|'.join(branches)}){_EDGE_AFTER}"
    else:
        every = [form for kind in kinds for form in found.get(kind, [])]
        pattern = f"(?i){_EDGE_BEFORE}{_alternation(every)}{_EDGE_AFTER}"
    fixes = _fixes(found, use_forms, kinds, case, language)
    first, second = _FRAMES.get(language, _FRAMES["en"])
    every_form = [form for forms in found.values() for form in forms]
    must_match = [str(text) for text in entry.get("must_match") or ()]
    must_not_match = [str(text) for text in entry.get("must_not_match") or ()]
    for kind in kinds:
        for form in found.get(kind, []):
            must_match.append(first.format(f"[[{form}]]"))
            if (case == "preserve" or case == "insensitive") and _recased(form.upper(), form):
                must_match.append(second.format(f"[[{form.upper()}]]"))
    if fixes:
        hit = next((form for kind in kinds for form in found.get(kind, [])), None)
        if hit is None:  # ``sensitive`` with no ``avoid``: a misspelt ``use``
            hit = use.lower() if use.lower() != use else use.upper()
        if _recased(hit, use) or hit in every_form:
            must_match.append(_NEGATED.get(language, _NEGATED["en"]).format(f"[[{hit}]]"))
    if case == "sensitive":
        for kind in kinds:
            form = use_forms[kind]
            misspelt = form.lower() if form.lower() != form else form.upper()
            if misspelt != form and _recased(misspelt, form):
                must_match.append(first.format(f"[[{misspelt}]]"))
    # Near misses: glued to letters, inside hyphenated compounds, and ``use`` itself.
    fold = case != "sensitive"
    for phrase in avoid:
        for near in (f"x{phrase}", f"{phrase}x", f"pre-{phrase}", f"{phrase}-based"):
            # Not where another avoided phrase stands whole inside ("KK" in "xKK KK").
            if not _occurs(near, every_form, fold=fold):
                must_not_match.append(first.format(near))
    if not _occurs(use, every_form, fold=fold):
        must_not_match.append(first.format(use))
    must_not_match.append(_NEUTRAL.get(language, _NEUTRAL["en"]))
    item: dict[str, Any] = {
        "id": signal_id,
        "language": language,
        "pattern": pattern,
        "must_match": list(dict.fromkeys(must_match)),
        "must_not_match": list(dict.fromkeys(must_not_match)),
    }
    if "level" in entry:
        item["level"] = entry["level"]
    if fixes:
        item["fixes"] = fixes
    why = entry.get("why")
    message = {"en": "Use '{use}' instead of '%s'.", "de": "'{use}' statt '%s' verwenden."}.get(
        language, "Use '{use}' instead of '%s'."
    )
    message = message.format(use=use)
    if why:
        message += " " + why
    return CompiledTerm(item=item, message=message, index=index)


def _fixes(
    found: dict[str, list[str]],
    use_forms: dict[str, str],
    kinds: list[str],
    case: str,
    language: str,
) -> list[dict[str, Any]]:
    """One fix per kind of form (each replaces that form of ``avoid`` by the same form of ``use``)."""
    fixes = []
    first, _ = _FRAMES.get(language, _FRAMES["en"])
    for kind in kinds:
        replacement = use_forms[kind]
        if case == "preserve":
            texts = found.get(kind, [])
            if not texts:
                continue
            match = f"(?i){_alternation(texts)}"
        else:
            branches: list[tuple[str, str]] = []  # (form, regex)
            for form in found.get(kind, []):
                if case == "sensitive":
                    # Found only as written: offered when the case rule keeps ``use`` as written there.
                    if apply_case(replacement, form) == replacement:
                        branches.append((form, _escaped(form)))
                else:
                    branches.append((form, _as_written_guard(form, replacement) + f"(?i:{_escaped(form)})"))
            if case == "sensitive":
                form = use_forms[kind]
                branches.append((form, _as_written_guard(form, replacement) + f"(?i:{_escaped(form)})"))
            if not branches:
                continue
            # Longest form first: the fix must reach the hit's end, and the first branch that matches decides.
            ordered = sorted(set(branches), key=lambda pair: (-len(pair[0]), pair))
            match = "(?:" + "|".join(regex for _, regex in ordered) + ")"
        # The examples are worked out here without a regex (a 2,000-term build compiles none for a
        # term the cache vouches for); the compiler then checks each with the real patterns.
        examples = []
        for text in _fix_candidates(found.get(kind, []), use_forms[kind], case):
            if _fix_applies(text, found.get(kind, []), replacement, case):
                before = first.format(text)
                examples.append({"before": before, "after": first.format(apply_case(replacement, text))})
        if examples:
            fixes.append({"match": match, "replacement": replacement, "examples": examples[:8]})
    return fixes


def _fix_applies(text: str, forms: list[str], replacement: str, case: str) -> bool:
    """Whether the fix of this kind applies to the hit ``text`` (the fix's match, worked out by hand)."""
    if case == "preserve":
        return True
    if case == "sensitive" and text in forms:
        return apply_case(replacement, text) == replacement
    # The look-ahead of ``_as_written_guard``: not ALL CAPS, and a lowercase first letter where ``use`` has one.
    letters = [char for char in text if char.isalpha()]
    if replacement.upper() != replacement and len(letters) > 1 and all(char.isupper() for char in letters):
        return False
    first = next((char for char in replacement if char.isalpha()), "")
    return not (first.islower() and letters and letters[0].isupper())


def _occurs(text: str, forms: list[str], *, fold: bool) -> bool:
    """Whether one of ``forms`` occurs in ``text`` as the pattern finds it: whole, not in a compound."""
    haystack = text.casefold() if fold else text
    for form in forms:
        needle = form.casefold() if fold else form
        start = haystack.find(needle)
        while start >= 0:
            end = start + len(needle)
            before = haystack[start - 1] if start else " "
            after = haystack[end] if end < len(haystack) else " "
            if not (before.isalnum() or before in "_-") and not (after.isalnum() or after in "_-"):
                return True
            start = haystack.find(needle, start + 1)
    return False


def _escaped(text: str) -> str:
    return re.escape(text).replace("\\ ", " ")


def _recased(text: str, original: str) -> bool:
    """Whether ``text`` is ``original`` in other capitals as ``re`` sees it: letter for letter
    (``ß`` upper-cases to ``SS``, which IGNORECASE does not equate with it)."""
    return len(text) == len(original) and all(
        a == b or a.lower() == b.lower() or a.upper() == b.upper() for a, b in zip(text, original, strict=True)
    )


def _fix_candidates(forms: list[str], use_form: str, case: str) -> list[str]:
    """Texts to show each fix on: each form as written and capitalised; a misspelt ``use``."""
    texts: list[str] = []
    for form in forms:
        texts.append(form)
        capitalised = form[:1].upper() + form[1:]
        if case != "sensitive" and _recased(capitalised, form):
            texts.append(capitalised)
    if case == "sensitive":
        misspelt = use_form.lower() if use_form.lower() != use_form else use_form.upper()
        if _recased(misspelt, use_form):
            texts.append(misspelt)
    return list(dict.fromkeys(texts))


def terms_rule_texts(
    terms: list[CompiledTerm], entries: list[dict[str, Any]], language: str
) -> tuple[str, str, str, str, tuple[tuple[str, str], ...]]:
    """The ``terms`` rule's title, summary, instruction, applies-when and examples in one language."""
    lines = []
    examples: list[tuple[str, str]] = []
    for term in terms:
        entry = entries[term.index]
        if entry["language"] != language:
            continue
        avoided = ", ".join(f"'{word}'" for word in entry["avoid"])
        if language == "de":
            line = f"- '{entry['use']}'" + (f" statt {avoided}" if avoided else " (so geschrieben)")
        else:
            line = f"- '{entry['use']}'" + (f" instead of {avoided}" if avoided else " (written so)")
        if entry.get("why"):
            line += f": {entry['why']}"
        lines.append(line)
        for fix in term.item.get("fixes", ())[:1]:
            if len(examples) < 3:
                example = fix["examples"][0]
                examples.append((example["before"], example["after"]))
    if not lines:
        lines.append("- (keine Begriffe auf Deutsch)" if language == "de" else "- (no terms in English)")
    if len(lines) > MAX_LISTED_TERMS:
        # The instruction goes into review prompts: a 2,000-term list would be most of one.
        # The scanner still checks every term.
        more = len(lines) - MAX_LISTED_TERMS
        lines = lines[:MAX_LISTED_TERMS]
        lines.append(f"- (und {more} weitere)" if language == "de" else f"- (and {more} more)")
    if language == "de":
        return (
            "Vokabular des Teams",
            "Die Begriffe des Teams verwenden.",
            "Die bevorzugten Begriffe des Teams verwenden:\n" + "\n".join(lines),
            "Überall im Fließtext; nicht in Code.",
            tuple(examples),
        )
    return (
        "Team vocabulary",
        "Use the team's terms.",
        "Use the team's preferred terms:\n" + "\n".join(lines),
        "Everywhere in prose; not in code.",
        tuple(examples),
    )


def located_terms(terms_doc: Located, compiled: list[CompiledTerm]) -> Located:
    """The terms as the front matter of a rule file, positions pointing into terms.yaml.

    A problem with a generated signal is reported at its entry (an authored
    example at that example), so the author knows which entry to change.
    """
    values: dict[tuple[Any, ...], tuple[int, int]] = {}
    keys: dict[tuple[Any, ...], tuple[int, int]] = {}
    for number, term in enumerate(compiled):
        source = ("terms", term.index)
        entry_at = terms_doc.values.get(source, (1, 1))
        values[("signals", number)] = entry_at
        keys[("signals", number)] = entry_at
        for field, where in (("pattern", "avoid"), ("fixes", "use"), ("id", "use"), ("language", "language")):
            at = terms_doc.values.get((*source, where), entry_at)
            values[("signals", number, field)] = at
            keys[("signals", number, field)] = terms_doc.keys.get((*source, where), at)
        for kind in ("must_match", "must_not_match"):
            authored = (terms_doc.value["terms"][term.index].get(kind)) or ()
            for position in range(len(authored)):
                at = terms_doc.values.get((*source, kind, position), entry_at)
                values[("signals", number, kind, position)] = at
    front = {"id": "terms", "level": "warning", "signals": [term.item for term in compiled]}
    return Located(file=terms_doc.file, value=front, values=values, keys=keys)
