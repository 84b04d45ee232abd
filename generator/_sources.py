"""Reading ``rules-src/``: front matter, Markdown body sections and their positions."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from ._errors import RuleSourceError
from ._paths import COMPILER_ROOT
from ._yaml import Located, load_yaml

__all__ = [
    "COMPILER_ROOT",
    "COMPILER_VERSION",
    "LANGUAGES",
    "SUBSECTIONS",
    "TEMPLATES",
    "BodySection",
    "ExampleText",
    "RuleFile",
    "SourceTree",
    "digest_inputs",
    "read_sources",
]

LANGUAGES = ("en", "de")
# Sub-section headings are structural keys: the same, in this order, in both languages.
SUBSECTIONS = ("Instruction", "Applies when", "Examples")

_HEADING = re.compile(r"^(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$")
_FENCE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})")


@dataclass(frozen=True)
class ExampleText:
    before: str
    after: str
    line: int


@dataclass(frozen=True)
class BodySection:
    """One ``## <language>`` section and its sub-sections."""

    language: str
    line: int
    # (heading, heading line, raw text of the lines after the heading)
    subsections: tuple[tuple[str, int, str], ...]


@dataclass(frozen=True)
class RuleFile:
    path: str
    front: Located
    body_line: int
    sections: tuple[BodySection, ...]


@dataclass(frozen=True)
class SourceTree:
    catalog: Located | None
    prompts: Located | None
    rules: tuple[RuleFile, ...]
    rule_names: tuple[str, ...]  # file stems of every rule file, parsed or not


def _rel(path: Path, root: Path) -> str:
    return path.relative_to(root).as_posix()


def read_sources(root: Path, problems: list[RuleSourceError]) -> SourceTree:
    """Read every source under ``root/rules-src``; append problems instead of raising."""
    src = root / "rules-src"
    catalog = _read_yaml_file(src / "catalog.yaml", root, problems)
    prompts = _read_yaml_file(src / "prompts.yaml", root, problems)
    rule_paths = sorted((src / "rules").glob("*.md"))
    if not rule_paths:
        problems.append(RuleSourceError(f"{_rel(src, root)}/rules", 1, 1, "no rule files (*.md) found"))
    rules = []
    for path in rule_paths:
        rule = _read_rule_file(path, root, problems)
        if rule is not None:
            rules.append(rule)
    return SourceTree(
        catalog=catalog, prompts=prompts, rules=tuple(rules), rule_names=tuple(p.stem for p in rule_paths)
    )


def _read_text(path: Path, root: Path, problems: list[RuleSourceError]) -> str | None:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        problems.append(RuleSourceError(_rel(path, root), 1, 1, f"cannot read file: {exc.strerror}"))
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        problems.append(RuleSourceError(_rel(path, root), line, 1, "file is not valid UTF-8"))
        return None
    if text.startswith("\ufeff"):
        text = text[1:]
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _read_yaml_file(path: Path, root: Path, problems: list[RuleSourceError]) -> Located | None:
    if not path.exists():
        problems.append(RuleSourceError(_rel(path, root), 1, 1, "file is missing"))
        return None
    text = _read_text(path, root, problems)
    if text is None:
        return None
    located, found = load_yaml(text, _rel(path, root))
    problems.extend(found)
    return located


def _read_rule_file(path: Path, root: Path, problems: list[RuleSourceError]) -> RuleFile | None:
    rel = _rel(path, root)
    text = _read_text(path, root, problems)
    if text is None:
        return None
    lines = text.split("\n")
    if not lines or lines[0].rstrip() != "---":
        problems.append(RuleSourceError(rel, 1, 1, "a rule file starts with '---' and YAML front matter"))
        return None
    try:
        end = next(i for i in range(1, len(lines)) if lines[i].rstrip() == "---")
    except StopIteration:
        problems.append(RuleSourceError(rel, 1, 1, "front matter is not closed by a '---' line"))
        return None
    front, found = load_yaml("\n".join(lines[1:end]), rel, line_offset=1)
    problems.extend(found)
    if front is None:
        return None
    body_line = end + 2  # 1-based line after the closing '---'
    sections = _parse_body(lines[end + 1 :], body_line, rel, problems)
    return RuleFile(path=rel, front=front, body_line=body_line, sections=sections)


def _parse_body(
    lines: list[str], first_line: int, rel: str, problems: list[RuleSourceError]
) -> tuple[BodySection, ...]:
    sections: list[BodySection] = []
    language: str | None = None
    language_line = 0
    subsections: list[tuple[str, int, list[str]]] = []
    fence: str | None = None

    def close_language() -> None:
        if language is not None:
            subs = tuple((name, line, "\n".join(body)) for name, line, body in subsections)
            sections.append(BodySection(language, language_line, subs))

    for number, line in enumerate(lines, start=first_line):
        fence_match = _FENCE.match(line)
        if fence is not None:
            if fence_match and fence_match.group(1)[0] == fence[0] and len(fence_match.group(1)) >= len(fence):
                fence = None
            if subsections:
                subsections[-1][2].append(line)
            continue
        if fence_match:
            fence = fence_match.group(1)
        heading = None if fence_match else _HEADING.match(line)
        if heading is None:
            if subsections:
                subsections[-1][2].append(line)
            elif line.strip():
                where = "a '### ' sub-section" if language else "a '## en' or '## de' section"
                problems.append(RuleSourceError(rel, number, 1, f"text outside {where}"))
            continue
        level, title = len(heading.group(1)), heading.group(2)
        if level == 2:
            close_language()
            subsections = []
            if title not in LANGUAGES:
                problems.append(
                    RuleSourceError(rel, number, 1, f"unknown language section '## {title}'; use '## en' or '## de'")
                )
                language = None
                continue
            if any(section.language == title for section in sections):
                problems.append(RuleSourceError(rel, number, 1, f"second '## {title}' section"))
                language = None
                continue
            language, language_line = title, number
        elif level == 3:
            if language is None:
                problems.append(
                    RuleSourceError(rel, number, 1, f"sub-section '### {title}' outside a language section")
                )
                continue
            subsections.append((title, number, []))
        else:
            problems.append(
                RuleSourceError(
                    rel,
                    number,
                    1,
                    f"heading level {level} is not used in rule bodies; use '## <language>' and '### <sub-section>'",
                )
            )
    close_language()
    return tuple(sections)


def parse_examples(text: str, first_line: int, rel: str, problems: list[RuleSourceError]) -> list[ExampleText]:
    """Parse ``Before:`` / ``After:`` pairs; continuation lines join the open field."""
    examples: list[ExampleText] = []
    before: list[str] | None = None
    after: list[str] | None = None
    start = first_line

    def finish(line: int) -> None:
        nonlocal before, after
        if before is not None:
            if after is None:
                problems.append(RuleSourceError(rel, start, 1, "'Before:' without a matching 'After:'"))
            else:
                b, a = " ".join(before).strip(), " ".join(after).strip()
                if not b or not a:
                    problems.append(
                        RuleSourceError(rel, start, 1, "an example needs text after 'Before:' and 'After:'")
                    )
                else:
                    examples.append(ExampleText(b, a, start))
        before, after = None, None

    for number, line in enumerate(text.split("\n"), start=first_line):
        stripped = line.strip()
        if stripped.startswith("Before:"):
            finish(number)
            before, start = [stripped[len("Before:") :].strip()], number
        elif stripped.startswith("After:"):
            if before is None or after is not None:
                problems.append(RuleSourceError(rel, number, 1, "'After:' must follow a 'Before:' line"))
                continue
            after = [stripped[len("After:") :].strip()]
        elif stripped:
            if after is not None:
                after.append(stripped)
            elif before is not None:
                before.append(stripped)
            else:
                problems.append(RuleSourceError(rel, number, 1, "example text must start with 'Before:' or 'After:'"))
    finish(first_line)
    return examples


TEMPLATES = COMPILER_ROOT / "templates"


# The compiler's own input to the digest. Bump it with any change to the generator that
# changes the bytes it writes for the same sources and templates (a new table, another
# layout, a changed check that alters the output): the committed module then reads as
# stale. A refactor that renders the same bytes leaves it alone, and the module stays
# current; a test renders the module with the current compiler and compares the bytes,
# so a forgotten bump is caught.
COMPILER_VERSION = 5

# Templates of the pack compiler (generator/_packs.py): not inputs of the built-in module.
PACK_TEMPLATES = frozenset({"pack_data.py.j2"})


def digest_inputs(root: Path) -> str:
    """SHA-256 over every input of the generated module: sources, templates, compiler version.

    Paths are hashed relative to their folder, so the digest does not depend
    on where the checkout lives.
    """
    hasher = hashlib.sha256()
    hasher.update(f"writing-rules compiler {COMPILER_VERSION}\0".encode())
    inputs: list[tuple[str, Path]] = []
    for base, folder, patterns in (
        (Path(root), "rules-src", ("**/*.md", "**/*.yaml")),
        (COMPILER_ROOT, "templates", ("**/*.j2",)),
    ):
        for pattern in patterns:
            for path in (base / folder).glob(pattern):
                if "__pycache__" not in path.parts and path.name not in PACK_TEMPLATES:
                    inputs.append((f"{folder}/{path.relative_to(base / folder).as_posix()}", path))
    for name, path in sorted(set(inputs)):
        data = path.read_bytes().replace(b"\r\n", b"\n")
        hasher.update(name.encode() + b"\0" + str(len(data)).encode() + b"\0" + data)
    return hasher.hexdigest()
