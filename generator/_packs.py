"""Compiling a team's rule pack: ``pack new``, ``pack build`` and ``pack test`` (docs/packs.md).

A pack folder holds ``pack.yaml``, ``rules/<id>.md`` (the format of a built-in
rule, for the languages the pack declares) and optionally ``terms.yaml``. The
build checks them with the very code that checks ``rules-src/`` (schemas, every
example, every fix, the static backtracking check, the timed run with a verdict
cache, the trigger index) and writes ``_pack_data.py`` into the pack folder: one
data literal the runtime's pack loader (``writing_rules.packs``) reads without
running it. Every problem is reported at once as ``path:line:col: message``; on
any problem nothing is written.

Terms (``_terms.py``) become the signals of one rule, ``terms`` (``Vale.Terms``
in an imported Vale style; both are ``<pack>/…`` to users). Their patterns are built by the compiler from
literal words under fixed boundaries, so they get the static check and the
index check but not the timed run, whose minute of CPU per hundred patterns a
2,000-term vocabulary could not afford. A term whose generated signal passed
every check is listed in the pack's verdict cache by a key over the signal and
the checking code, so one edited term re-checks one term.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import stat
import tempfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ._errors import RuleSourceError, SourceProblems
from ._fixes import Fix
from ._paths import _DIGEST_LINE
from ._runtime import load_runtime
from ._sources import COMPILER_ROOT, COMPILER_VERSION, LANGUAGES, RuleFile, _read_rule_file, _read_yaml_file
from ._timing import INPUT_LENGTH, timing_problems
from ._triggers import build_index, fold_table, index_problems
from ._verdicts import CHECKER_VERSION, STATIC_DIGEST, render_verdicts, trusted_keys

__all__ = [
    "MODULE_NAME",
    "VERDICTS_NAME",
    "PackBuildResult",
    "build_pack",
    "new_pack",
    "pack_digest",
    "test_pack",
]

_DIGEST = load_runtime("packs/_digest.py")
MODULE_NAME: str = _DIGEST.MODULE_NAME
PACK_FORMAT: int = _DIGEST.PACK_FORMAT
VERDICTS_NAME = "verdicts.txt"

_VALE_OWN = "Vale."  # Vale's own rules (a vocabulary's): namespaced per pack (see _qualified)
_VALE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*\.[A-Za-z0-9][A-Za-z0-9_-]*$")
_SLUG = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")
# What decides whether a term's generated signal passes its checks, besides the signal itself.
_TERM_CHECKER = hashlib.sha256(
    b"".join(
        (Path(__file__).parent / name).read_bytes().replace(b"\r\n", b"\n")
        for name in ("_terms.py", "_validate.py", "_fixes.py", "_triggers.py", "_prose_examples.py")
    )
    + STATIC_DIGEST.encode("ascii")  # the static backtracking check, as the verdict keys hash it
).hexdigest()


# Bump with any change to the pack compiler (this module, _terms.py) that changes the bytes it
# writes for the same sources; the template's bytes count by themselves. The module records the
# renderer in its header, so a build after a compiler update renders it again; the tests render
# the example pack and compare the bytes, so a forgotten bump is caught.
PACK_RENDER_VERSION = 5  # 5: Vale's vocabulary rules are <pack>/Vale.Terms, <pack>/Vale.Avoid
_RENDERER = hashlib.sha256(
    f"{PACK_FORMAT}\0{COMPILER_VERSION}\0{PACK_RENDER_VERSION}\0".encode()
    + (COMPILER_ROOT / "templates" / "pack_data.py.j2").read_bytes().replace(b"\r\n", b"\n")
).hexdigest()
_RENDERER_LINE = re.compile(r"^# Renderer: ([0-9a-f]{64})$", re.MULTILINE)


def _recorded(module: Path) -> tuple[str | None, str | None]:
    """The source digest and the renderer a pack module's header records (None: absent)."""
    raw = _read_own(module)
    head = "" if raw is None else raw[:2048].decode("utf-8", "replace")
    digest, renderer = _DIGEST_LINE.search(head), _RENDERER_LINE.search(head)
    return (digest.group(1) if digest else None), (renderer.group(1) if renderer else None)


# Far above any pack module (a 2,000-term vocabulary's is 1.5 MB); the loader refuses larger ones.
_MAX_OWN_BYTES = 64 * 1024 * 1024


def _read_own(path: Path) -> bytes | None:
    """The bytes of a file the build writes (the module, the verdict cache); None when it is
    missing, larger than any the build writes, or not a regular file of the folder.

    A pack folder is often a checkout's: a FIFO there would block the build for ever, and a
    link to /dev/zero read it without end. Opened without blocking or following a link, and
    checked on the open descriptor (``writing_rules._regular_files`` does the same).
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    try:
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode) or status.st_size > _MAX_OWN_BYTES:
            return None  # (a folder, too: fdopen would refuse it)
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = handle.read(_MAX_OWN_BYTES + 1)
    finally:
        os.close(fd)
    return data if len(data) <= _MAX_OWN_BYTES else None


def _write_own(target: Path, data: bytes) -> bool:
    """Write ``data`` to ``target`` atomically, unless it holds exactly that; True when written.

    Whatever stands at ``target`` (a link, a FIFO) is replaced, never written through or read.
    """
    if _read_own(target) == data:
        return False
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.stem}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.replace(temporary, target)
    except BaseException as exc:
        if os.path.exists(temporary):
            os.unlink(temporary)
        if isinstance(exc, OSError) and exc.filename == temporary:  # (a folder in the target's place)
            raise OSError(exc.errno, exc.strerror, str(target)) from None
        raise
    return True


def pack_digest(folder: Path) -> str:
    """The digest ``pack build`` records: the pack's sources and this compiler's version."""
    digest: str = _DIGEST.pack_digest(Path(folder), COMPILER_VERSION)
    return digest


@dataclass(frozen=True)
class PackBuildResult:
    """What ``build_pack`` did."""

    module: Path
    changed: bool  # the module's bytes changed
    compiled: bool = True  # False: digest and cache said there was nothing to do
    timed_count: int = 0  # rule patterns the timed run measured (the cache vouched for the rest)
    checked_terms: int = 0  # terms checked (the cache vouched for the rest)
    rules: int = 0
    terms: int = 0


@dataclass
class _Compiled:
    """A checked pack, ready to render."""

    pack: dict[str, Any]
    rules: list[tuple[Any, dict[str, str]]] = field(default_factory=list)  # (Rule, {signal id: message})
    passed: list[tuple[str, str]] = field(default_factory=list)  # verdict cache lines (label, key)
    timed_count: int = 0
    checked_terms: int = 0
    term_count: int = 0


# Reading


def _display(folder: Path) -> str:
    text = folder.as_posix()
    return "." if text in ("", ".") else text


def _relocate(problems: list[RuleSourceError], display: str) -> list[RuleSourceError]:
    """Problems with paths relative to the pack folder, as the user named it."""
    prefix = "" if display == "." else display.rstrip("/") + "/"
    return [RuleSourceError(prefix + problem.path, problem.line, problem.col, problem.message) for problem in problems]


def _read_cache(folder: Path) -> str:
    """The pack's verdict cache (``_verdicts.py`` reads its lines); empty when absent or unreadable."""
    raw = _read_own(folder / VERDICTS_NAME)
    try:
        return "" if raw is None else raw.decode("utf-8")
    except UnicodeDecodeError:
        return ""


def _builtin_profiles() -> set[str]:
    """The profile ids a pack rule may join: the built-in catalogue's (none known: not checked)."""
    problems: list[RuleSourceError] = []
    catalog = _read_yaml_file(COMPILER_ROOT / "rules-src" / "catalog.yaml", COMPILER_ROOT, problems)
    if catalog is None or problems or not isinstance(catalog.value, dict):
        return set()
    return {
        str(profile["id"])
        for profile in catalog.value.get("profiles") or ()
        if isinstance(profile, dict) and "id" in profile
    }


def _term_key(item: dict[str, Any], message: str) -> str:
    text = json.dumps(
        {"checker": CHECKER_VERSION, "code": _TERM_CHECKER, "item": item, "message": message},
        sort_keys=True,
        ensure_ascii=True,
        separators=(",", ":"),
    )
    return hashlib.sha256(text.encode("ascii")).hexdigest()


# Checking


def _compile_pack(folder: Path, *, timed: bool, trusted: frozenset[str], input_length: int) -> _Compiled:
    """Check every source of the pack; raise ``SourceProblems`` with all problems found."""
    from ._validate import Rule, RuleText, Signal, Verdicts, _check_rule, _check_signals, _Pattern, _schema_problems

    problems: list[RuleSourceError] = []
    if not folder.is_dir():
        raise SourceProblems([RuleSourceError(_display(folder), 1, 1, "no such pack folder")])
    pack_doc = _read_yaml_file(folder / "pack.yaml", folder, problems)
    pack: dict[str, Any] = {}
    if pack_doc is not None:
        found = _schema_problems(pack_doc, "pack.schema.json")
        problems.extend(found)
        if not found:
            pack = dict(pack_doc.value)
            languages = list(pack["languages"])
            if set(pack["title"]) != set(languages):
                problems.append(
                    pack_doc.at_key(("title",), f"title needs exactly the pack's languages: {', '.join(languages)}")
                )
    declared: Any = pack.get("languages")
    if declared is None and pack_doc is not None and isinstance(pack_doc.value, dict):
        # pack.yaml has problems elsewhere: still check the rules against the languages it names.
        declared = pack_doc.value.get("languages")
    declared = declared if isinstance(declared, list) else []
    languages_t: tuple[str, ...] = tuple(language for language in LANGUAGES if language in declared)
    vale = bool(pack.get("vale"))
    profiles = _builtin_profiles()
    verdicts = Verdicts(trusted=trusted, length=input_length)
    patterns: list[_Pattern] = []
    compiled_rules: list[tuple[Any, dict[str, str]]] = []
    rule_paths = sorted((folder / "rules").glob("*.md")) if (folder / "rules").is_dir() else []
    seen_ids: dict[str, str] = {}
    for path in rule_paths:
        rule_file = _read_rule_file(path, folder, problems)
        if rule_file is None or not languages_t:
            continue
        if not _check_pack_front(rule_file, languages_t, vale, problems):
            continue
        rule_id = rule_file.front.value.get("id")
        if isinstance(rule_id, str):
            if rule_id in seen_ids:
                problems.append(
                    rule_file.front.at(("id",), f"duplicate rule id {rule_id!r} (also in {seen_ids[rule_id]})")
                )
                continue
            seen_ids[rule_id] = rule_file.path
        rule = _check_rule(
            rule_file,
            profiles,
            patterns,
            verdicts,
            problems,
            languages=languages_t,
            schema="pack-rule.schema.json",
        )
        if rule is not None:
            messages = {
                item["id"]: item["message"] for item in rule_file.front.value.get("signals") or () if "message" in item
            }
            compiled_rules.append((rule, messages))
    # Terms: one rule, each entry one signal, checked one entry at a time (fixes never span entries).
    terms_path = folder / "terms.yaml"
    term_patterns: list[str] = []
    passed_terms: list[tuple[str, str]] = []
    checked_terms = 0
    term_count = 0
    if terms_path.exists() and languages_t:
        from ._terms import compile_term, located_terms, term_signal_id, terms_rule_texts

        terms_doc = _read_yaml_file(terms_path, folder, problems)
        if terms_doc is not None:
            found = _schema_problems(terms_doc, "terms.schema.json")
            problems.extend(found)
            if not found:
                entries = list(terms_doc.value.get("terms") or ())
                term_count = len(entries)
                compiled_terms = []
                taken: set[str] = set()
                first_avoid: dict[tuple[str, str], int] = {}
                for index, entry in enumerate(entries):
                    start = len(problems)
                    if entry["language"] not in languages_t:
                        problems.append(
                            terms_doc.at(
                                ("terms", index, "language"),
                                f"language {entry['language']!r} is not one of the pack's ({', '.join(languages_t)})",
                            )
                        )
                    case = entry.get("case", "insensitive")
                    if not entry["avoid"] and case != "sensitive":
                        problems.append(
                            terms_doc.at_key(
                                ("terms", index, "avoid"),
                                "'avoid' is empty: name the words to replace, or say 'case: sensitive' "
                                "to flag 'use' written in another capitalisation",
                            )
                        )
                    for number, word in enumerate(entry["avoid"]):
                        folded = word if case == "sensitive" else word.casefold()
                        if (word.casefold() == entry["use"].casefold()) and case != "sensitive":
                            problems.append(
                                terms_doc.at(("terms", index, "avoid", number), f"{word!r} is the term itself")
                            )
                        other = first_avoid.setdefault((entry["language"], folded), index)
                        if other != index:
                            problems.append(
                                terms_doc.at(
                                    ("terms", index, "avoid", number),
                                    f"{word!r} is avoided by entry {other + 1} ({entries[other]['use']!r}) as well; "
                                    "a word has one replacement",
                                )
                            )
                    if len(problems) > start:
                        continue
                    signal_id = term_signal_id(entry["use"], entry["language"], taken)
                    compiled_terms.append(compile_term(entry, index, signal_id))
                signals = []
                term_messages: dict[str, str] = {}
                for term in compiled_terms:
                    item = term.item
                    key = _term_key(item, term.message)
                    label = f"terms/{item['id']}"
                    level = item.get("level", "warning")
                    term_messages[item["id"]] = term.message
                    if key in trusted:
                        fixes = tuple(
                            Fix(
                                fix["match"],
                                fix["replacement"],
                                False,
                                tuple((e["before"], e["after"]) for e in fix["examples"]),
                            )
                            for fix in item.get("fixes", ())
                        )
                        signals.append(Signal(item["id"], item["language"], item["pattern"], level, fixes))
                        passed_terms.append((label, key))
                        term_patterns.append(item["pattern"])
                        continue
                    checked_terms += 1
                    start = len(problems)
                    doc = located_terms(terms_doc, [term])
                    rule_file = RuleFile(path=terms_doc.file, front=doc, body_line=1, sections=())
                    found_signals = _check_signals(
                        rule_file, [], Verdicts(length=input_length), problems, (item["language"],)
                    )
                    for message in index_problems(item["pattern"]):
                        problems.append(terms_doc.at(("terms", term.index, "avoid"), message))
                    if len(problems) == start:
                        signals.extend(found_signals)
                        passed_terms.append((label, key))
                        term_patterns.append(item["pattern"])
                rule_id = "Vale.Terms" if vale else "terms"
                if rule_id in seen_ids:
                    problems.append(
                        RuleSourceError(
                            seen_ids[rule_id], 1, 1, f"rule id {rule_id!r} is taken by the pack's terms.yaml"
                        )
                    )
                if compiled_terms:
                    texts = {
                        language: RuleText(*terms_rule_texts(compiled_terms, entries, language))
                        for language in languages_t
                    }
                    rule = Rule(
                        id=rule_id,
                        level="warning",
                        profiles=(),
                        tags=("terms",),
                        texts=texts,
                        signals=tuple(signals),
                    )
                    compiled_rules.append((rule, term_messages))
    if timed and not problems:
        jobs = [pattern.job for pattern in patterns if not pattern.cached]
        slow = timing_problems(jobs, input_length) if jobs else {}
        for pattern in patterns:
            if not pattern.cached and pattern.job.index in slow:
                problems.append(pattern.rule_file.front.at(pattern.path, slow[pattern.job.index]))
        result_timed = len(jobs)
    else:
        result_timed = 0
    for pattern in patterns:
        for message in index_problems(pattern.job.pattern):
            problems.append(pattern.rule_file.front.at(pattern.path, message))
    if not compiled_rules and not problems:
        problems.append(RuleSourceError("pack.yaml", 1, 1, "the pack has no rule (rules/*.md) and no terms.yaml"))
    if problems:
        raise SourceProblems(_relocate(problems, _display(folder)))
    compiled = _Compiled(pack=pack, rules=compiled_rules, timed_count=result_timed)
    compiled.passed = [(pattern.label, pattern.key) for pattern in patterns] + passed_terms
    compiled.checked_terms = checked_terms
    compiled.term_count = term_count
    return compiled


def _check_pack_front(
    rule_file: RuleFile, languages: tuple[str, ...], vale: bool, problems: list[RuleSourceError]
) -> bool:
    """What a pack rule must do beyond a built-in one: its id's form, and only the pack's languages."""
    doc = rule_file.front
    front = doc.value
    if not isinstance(front, dict):
        problems.append(doc.at((), "front matter is not a mapping"))
        return False
    start = len(problems)
    rule_id = front.get("id")
    if isinstance(rule_id, str):
        if vale and not (_VALE_ID.match(rule_id) or _SLUG.match(rule_id)):
            problems.append(doc.at(("id",), f"{rule_id!r} is neither a Vale name ('Style.Rule') nor a slug"))
        elif not vale and not _SLUG.match(rule_id):
            problems.append(
                doc.at(
                    ("id",),
                    f"{rule_id!r} is not a slug (lowercase letters, digits and '-'); "
                    "Vale names need 'vale:' in pack.yaml",
                )
            )
    for key in ("title", "summary"):
        value = front.get(key)
        if isinstance(value, dict) and set(value) != set(languages):
            problems.append(doc.at_key((key,), f"{key} needs exactly the pack's languages: {', '.join(languages)}"))
    for section in rule_file.sections:
        if section.language not in languages:
            problems.append(
                RuleSourceError(
                    rule_file.path,
                    section.line,
                    1,
                    f"section '## {section.language}': the pack declares {', '.join(languages)} only",
                )
            )
    for index, item in enumerate(front.get("signals") or ()):
        if isinstance(item, dict) and item.get("language") in LANGUAGES and item["language"] not in languages:
            problems.append(
                doc.at(
                    ("signals", index, "language"),
                    f"language {item['language']!r} is not one of the pack's ({', '.join(languages)})",
                )
            )
    return len(problems) == start


# Rendering


def _qualified(pack_id: str, rule_id: str, vale: bool) -> str:
    """The id users see: ``<pack>/<rule>``, or a Vale style's ``Style.Rule`` as it is.

    Vale's own vocabulary rules (``Vale.Terms``, ``Vale.Avoid``) belong to the pack, not to
    its style: Vale has one vocabulary per configuration, a team with two imported styles
    has one per pack, so they are ``<pack>/Vale.Terms`` and two such packs load together.
    """
    if vale and "." in rule_id and not rule_id.startswith(_VALE_OWN):
        return rule_id
    return f"{pack_id}/{rule_id}"


def _pack_data(compiled: _Compiled, digest: str, sources: list[str]) -> dict[str, Any]:
    from ._index_rows import index_rows
    from ._render import _named

    pack = compiled.pack
    vale = bool(pack.get("vale"))
    languages = tuple(language for language in LANGUAGES if language in pack["languages"])
    rules = []
    tables: dict[str, list[tuple[str, str, str]]] = {language: [] for language in languages}
    lengths: dict[str, list[tuple[str, str, int | None, int | None]]] = {language: [] for language in languages}
    fixes = []
    messages = []
    excluded = {}
    for rule, rule_messages in compiled.rules:
        rule_id = _qualified(pack["id"], rule.id, vale)
        signal_ids = tuple(signal.id for signal in rule.signals)
        levels = {signal.id: signal.level for signal in rule.signals if signal.level != rule.level}
        texts = {
            language: (
                text.title,
                text.summary,
                text.instruction,
                text.applies_when,
                *((before, after) for before, after in text.examples),
            )
            for language, text in rule.texts.items()
        }
        rules.append((rule_id, rule.level, signal_ids, levels, tuple(rule.profiles), tuple(rule.tags), texts))
        for signal in rule.signals:
            if signal.pattern is not None:
                tables[signal.language].append((rule_id, signal.id, signal.pattern))
            else:
                lengths[signal.language].append((rule_id, signal.id, signal.max_words, signal.max_chars))
            if signal.fixes:
                fixes.append((rule_id, signal.id, tuple((fix.match, fix.replacement) for fix in signal.fixes)))
            if signal.id in rule_messages:
                messages.append((rule_id, signal.id, rule_messages[signal.id]))
        if rule.excluded_contexts:
            excluded[rule_id] = tuple(rule.excluded_contexts)
    index = {}
    prefix_chars: set[str] = set()
    for language in languages:
        table = tables[language]
        built = build_index([(pattern, bool(re.compile(pattern).flags & re.IGNORECASE)) for _, _, pattern in table])
        names = tuple(f"p{position}" for position in range(len(table)))
        rows, plain = index_rows(built.words, names)
        named = _named(built, names)
        index[language] = {
            "key_size": built.key_size,
            "key_chars": built.key_chars,
            "partial": built.partial,
            **named,
            "words_plain": plain,
            "words": rows,
        }
        for entries in built.words.values():
            for tails, checks in entries:
                prefix_chars.update(*tails)
                for befores, _, _ in checks:
                    prefix_chars.update(*befores)
    fold_replace, fold_unsafe = fold_table(prefix_chars)
    return {
        "format": PACK_FORMAT,
        "compiler": COMPILER_VERSION,
        "digest": digest,
        "id": pack["id"],
        "version": str(pack["version"]),
        "title": dict(pack["title"]),
        "languages": languages,
        "vale_style": (pack.get("vale") or {}).get("style"),
        "sources": tuple(sources),
        "rules": tuple(rules),
        "patterns": {language: tuple(tables[language]) for language in languages},
        "length_signals": {language: tuple(lengths[language]) for language in languages},
        "fixes": tuple(fixes),
        "messages": tuple(messages),
        "excluded_contexts": excluded,
        "index": index,
        "fold_map": {ord(char): new for char, new in fold_replace.items()},
        "fold_unsafe": fold_unsafe,
    }


def _json(value: Any, indent: int = 0) -> str:
    """JSON laid out as the built-in module is: a value on one line when it fits in 100 columns
    (or holds only plain values), else one item a line; so an edited term changes its own lines."""
    text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    if indent + len(text) <= 100 or not isinstance(value, (dict, list, tuple)) or not value:
        return text
    if not isinstance(value, dict) and all(isinstance(item, (str, int, float, type(None))) for item in value):
        return text
    pad = " " * (indent + 1)
    if isinstance(value, dict):
        items = [
            f"{pad}{json.dumps(str(key), ensure_ascii=False)}: {_json(item, indent + 1)}" for key, item in value.items()
        ]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    return "[\n" + ",\n".join(pad + _json(item, indent + 1) for item in value) + "\n" + " " * indent + "]"


# The module's sections read per signal when first needed (their checksums are in the data).
SECTIONS = ("patterns", "fixes", "messages")


def _section(rows: Any) -> str:
    """A section's text: one line per signal, ``rule id<TAB>signal id<TAB>JSON value``, in data order.

    The loader checks every line's ids when it loads the pack and parses a value only
    when a scan needs it: a 2,000-term vocabulary's fixes were most of a load's time.
    JSON escapes tabs and line breaks inside strings, so neither can split a line.
    """
    return "\n".join(
        f"{rule_id}\t{signal_id}\t{json.dumps(value, ensure_ascii=False, separators=(', ', ': '))}"
        for rule_id, signal_id, value in rows
    )


def _listed(rows: Any, patterns: Any) -> dict[str, Any]:
    """How the data lists a section's signals: ``{"except": [...]}``, the patterns section's signals
    but these, when the section's are those in their order (a vocabulary's signals each have a
    pattern, a fix and a message: their thousands of ids are written once); else ``{"signals": [...]}``."""
    keys = [(rule_id, signal_id) for rule_id, signal_id, _ in rows]
    every = [(rule_id, signal_id) for rule_id, signal_id, _ in patterns]
    listed = set(keys)
    if [key for key in every if key in listed] == keys:
        return {"except": _grouped([(*key, None) for key in every if key not in listed])}
    return {"signals": _grouped(rows)}


def _grouped(rows: Any) -> list[list[Any]]:
    """``[rule id, [signal id, ...]]`` for each run of rows of one rule, in order."""
    groups: list[list[Any]] = []
    for rule_id, signal_id, _ in rows:
        if not groups or groups[-1][0] != rule_id:
            groups.append([rule_id, []])
        groups[-1][1].append(signal_id)
    return groups


def _render(data: dict[str, Any]) -> str:
    import jinja2

    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(COMPILER_ROOT / "templates")),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        autoescape=False,
    )
    patterns = [row for language in data["languages"] for row in data["patterns"][language]]
    sections = {name: _section(patterns if name == "patterns" else data[name]) for name in SECTIONS}
    head = {key: value for key, value in data.items() if key not in SECTIONS}
    # The tables name their patterns only, per rule (the texts are in the patterns section).
    head["patterns"] = {language: _grouped(rows) for language, rows in data["patterns"].items()}
    # Per section a checksum, not a digest: it tells the loader that the section is the one written
    # with this data; and the signals of its lines in order, grouped by rule (the patterns section
    # holds the tables' patterns, in language order).
    head["sections"] = {
        name: {"crc32": f"{zlib.crc32(text.encode()):08x}"}
        | ({} if name == "patterns" else _listed(data[name], patterns))
        for name, text in sections.items()
    }
    payload = _json(head)
    # JSON escapes every quote inside a string, and puts a separator between two strings:
    # no three quotes in a row can end the raw string early. A backslash cannot end it either.
    for text in (payload, *sections.values()):
        assert '"""' not in text and not text.endswith("\\")
    text = environment.get_template("pack_data.py.j2").render(
        data=data, payload=payload, sections=sections, renderer=_RENDERER
    )
    return "\n".join(line.rstrip() for line in text.split("\n")).rstrip("\n") + "\n"


# The commands


def build_pack(
    folder: Path | str, *, timed: bool = True, retime: bool = False, input_length: int = INPUT_LENGTH
) -> PackBuildResult:
    """``pack build``: check the pack and write ``<folder>/_pack_data.py``; raise ``SourceProblems``.

    Does nothing when the module records the sources' digest and the verdict
    cache says a timed build of exactly these sources passed. Writes the
    module and ``verdicts.txt`` only when their bytes change, each atomically.
    """
    folder = Path(folder)
    module = folder / MODULE_NAME
    try:
        digest = pack_digest(folder) if folder.is_dir() else ""
    except (OSError, ValueError) as exc:  # a source too large to read, or unreadable
        message = str(exc) if isinstance(exc, ValueError) else f"cannot read the pack: {exc.strerror}"
        raise SourceProblems([RuleSourceError(_display(folder), 1, 1, message)]) from None
    previous = _read_cache(folder)
    trusted = frozenset() if retime else trusted_keys(previous)
    build_key = _build_key(digest, input_length)
    current = _recorded(module) == (digest, _RENDERER)
    if digest and current and (not timed or build_key in trusted):
        return PackBuildResult(module=module, changed=False, compiled=False)
    compiled = _compile_pack(folder, timed=timed, trusted=trusted, input_length=input_length)
    sources = _DIGEST.source_files(folder)
    text = _render(_pack_data(compiled, digest, sources))
    changed = _write_own(module, text.encode("utf-8"))
    passed = list(compiled.passed)
    if timed:
        passed.append(("build", build_key))
        _write_own(folder / VERDICTS_NAME, render_verdicts(passed, previous).encode("utf-8"))
    return PackBuildResult(
        module=module,
        changed=changed,
        timed_count=compiled.timed_count,
        checked_terms=compiled.checked_terms,
        rules=len(compiled.rules),
        terms=compiled.term_count,
    )


def _build_key(digest: str, input_length: int) -> str:
    """A key for "a timed build of exactly these sources, by this compiler and checker, passed"."""
    text = f"{digest}\0{_RENDERER}\0{CHECKER_VERSION}\0{_TERM_CHECKER}\0{input_length}"
    return hashlib.sha256(text.encode()).hexdigest()


def test_pack(folder: Path | str) -> int:
    """``pack test``: every example and fix of the pack checked, no timed run, nothing written.

    Returns the number of rules checked (the terms rule counts as one); raises
    ``SourceProblems`` with every problem found.
    """
    compiled = _compile_pack(Path(folder), timed=False, trusted=frozenset(), input_length=INPUT_LENGTH)
    return len(compiled.rules)


test_pack.__test__ = False  # type: ignore[attr-defined]  # not a pytest test, despite its name


_SCAFFOLD_RULE = """\
---
id: no-simply
level: suggestion
profiles: []
title:
  en: Do not say "simply"
summary:
  en: '"Simply" tells readers a step is easy; when it is not, they feel slow.'
signals:
  - id: simply-en
    language: en
    pattern: '(?i)\\bsimply\\b'
    must_match:
      - "Then [[simply]] restart the server."
      - "Do not [[simply]] restart the server."
    must_not_match:
      - "Then restart the server."
    fixes:
      - match: '(?i)simply '
        delete: true
        examples:
          - before: "Then simply restart the server."
            after: "Then restart the server."
---

## en

### Instruction

Leave out "simply": the step is as easy as it is without the word.

### Applies when

Instructions and procedures; not in quotations or code.

### Examples

Before: Then simply restart the server.
After: Then restart the server.
"""

_SCAFFOLD_TERMS = """\
# The team's vocabulary: each entry becomes a signal with a safe fix (docs/packs.md, "terms.yaml").
terms:
  - use: sign in
    avoid: [log in]
    language: en
    case: preserve
    why: Our product says "sign in" everywhere.
"""


def new_pack(folder: Path | str, pack_id: str | None = None) -> list[Path]:
    """``pack new``: a scaffold with one rule and one term that builds and tests green.

    ``folder`` must not exist or be empty; the id defaults to the folder's name.
    Returns the files written.
    """
    folder = Path(folder)
    pack_id = pack_id or re.sub(r"[^a-z0-9]+", "-", folder.resolve().name.lower()).strip("-")
    if not _SLUG.match(pack_id or ""):
        raise ValueError(f"pack id {pack_id!r} is not a slug (lowercase letters, digits and '-'); give one with --id")
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise FileExistsError(f"{_display(folder)} exists and is not empty; choose a new folder")
    files = {
        "pack.yaml": (f"id: {pack_id}\nversion: 0.1.0\ntitle:\n  en: {pack_id} writing rules\nlanguages: [en]\n"),
        "rules/no-simply.md": _SCAFFOLD_RULE,
        "terms.yaml": _SCAFFOLD_TERMS,
    }
    existed = folder.exists()
    written = []
    try:
        for name, text in files.items():
            path = folder / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            written.append(path)
    except OSError:
        # Leave nothing half-written: the folder was empty or absent, and only the scaffold is in it.
        if existed:
            for path in written:
                path.unlink(missing_ok=True)
            shutil.rmtree(folder / "rules", ignore_errors=True)
        else:
            shutil.rmtree(folder, ignore_errors=True)
        raise
    return written
