"""Running an imported Vale pack over Vale's own fixtures, the way the scanner will.

Each converted rule's patterns run over the prose view of a fixture
(``writing_rules.prose``: code and front matter left out, as Vale leaves them
out), and each hit is mapped back to its source line and column. The expected
alerts come from the style's ``features/rules.feature``.
"""

from __future__ import annotations

import configparser
import re
from dataclasses import dataclass
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

import yaml

from writing_rules.prose import markup_for_path, read_prose

STYLES = Path(__file__).resolve().parent / "vale_styles"


@dataclass(frozen=True, order=True)
class Alert:
    case: str
    file: str
    line: int
    column: int
    rule: str
    message: str = ""

    @property
    def key(self) -> tuple[str, str, int, int, str]:
        return (self.case, self.file, self.line, self.column, self.rule)


def expected_alerts(style_dir: Path) -> list[Alert]:
    """The alerts of ``features/rules.feature``: per scenario, the fixture folder and its lines."""
    alerts: list[Alert] = []
    case = ""
    inside = False
    for raw in (style_dir / "features" / "rules.feature").read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        tested = re.match(r'When I test "(.+)"', line)
        if tested:
            case = tested.group(1)
        elif line == '"""':
            inside = not inside
        elif inside and line:
            file, number, column, rule, message = line.split(":", 4)
            alerts.append(Alert(case, file, int(number), int(column), rule, message))
    return alerts


def load_pack_rules(pack_dir: Path) -> dict[str, dict[str, Any]]:
    """Front matter of every rule of the pack, by id."""
    rules = {}
    for path in sorted((pack_dir / "rules").glob("*.md")):
        text = path.read_text(encoding="utf-8")
        front = text.split("---\n", 2)[1]
        data = yaml.safe_load(front)
        rules[data["id"]] = data
    return rules


def _enabled(ini: Path, rule_ids: list[str]) -> list[tuple[str, list[str]]]:
    """(file glob, rule ids) per section of a fixture's ``.vale.ini``."""
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string("[root]\n" + ini.read_text(encoding="utf-8"))
    sections = []
    for name in parser.sections():
        if name == "root":
            continue
        enabled: list[str] = []
        for key, value in parser.items(name):
            if key == "BasedOnStyles":
                styles = [s.strip() for s in value.split(",")]
                enabled += [r for r in rule_ids if r.split(".")[0] in styles]
            elif value.strip().upper() == "YES" and key in rule_ids:
                enabled.append(key)
        sections.append((name, enabled))
    return sections


def _glob_matches(glob: str, file: str) -> bool:
    brace = re.match(r"(.*)\{(.+)\}(.*)", glob)
    if brace:
        return any(fnmatch(file, brace.group(1) + alt + brace.group(3)) for alt in brace.group(2).split(","))
    return fnmatch(file, glob)


def run_pack(style_dir: Path, rules: dict[str, dict[str, Any]]) -> list[Alert]:
    """The alerts the pack's rules give on every fixture folder named in ``rules.feature``."""
    cases = sorted({alert.case for alert in expected_alerts(style_dir)})
    found: set[Alert] = set()
    for case in cases:
        folder = style_dir / "fixtures" / case
        ini = folder / ".vale.ini"
        for path in sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith(".")):
            for glob, enabled in _enabled(ini, sorted(rules)):
                if not _glob_matches(glob, path.name):
                    continue
                source = path.read_text(encoding="utf-8")
                view = read_prose(source, markup_for_path(path.name))
                for rule_id in enabled:
                    found |= _rule_alerts(case, path.name, source, view, rule_id, rules[rule_id])
    return sorted(found)


def _rule_alerts(case: str, file: str, source: str, view: Any, rule_id: str, rule: dict[str, Any]) -> set[Alert]:
    excluded = set(rule.get("excluded_contexts", []))
    alerts: dict[tuple[int, int], Alert] = {}
    for signal in rule["signals"]:
        if "pattern" not in signal:
            continue
        for match in re.finditer(signal["pattern"], view.text):
            if match.end() == match.start() or ("heading" in excluded and view.is_heading(match.start())):
                continue
            start, end = view.source_span(*match.span())
            line = source.count("\n", 0, start) + 1
            column = start - (source.rfind("\n", 0, start) + 1) + 1
            message = signal.get("message", "")
            observed = source[start:end].strip()
            alerts.setdefault(
                (line, column), Alert(case, file, line, column, rule_id, message.replace("%s", observed, 1))
            )
    return set(alerts.values())
