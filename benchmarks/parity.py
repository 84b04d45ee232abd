"""Parity: word families that a rule flags in one language but not the other.

``parity.yaml`` lists, per rule, word families that the rule's instruction names
in both languages, each with a probe sentence per language. The script scans
every probe with the rule (all levels, through the public tool) and lists the
families that have a signal in one language only. Each such family must be
justified in the rule's source: ``metadata.parity`` maps the family to the
reason. A justification for a family that is no longer one-sided is stale.

    python benchmarks/parity.py            # table of one-sided families
    python benchmarks/parity.py --check    # exit 1 on an unjustified or stale entry
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
FAMILIES = HERE / "parity.yaml"


@dataclass(frozen=True)
class Finding:
    rule: str
    family: str
    en: bool
    de: bool
    justification: str | None

    @property
    def one_sided(self) -> bool:
        return self.en != self.de

    @property
    def problem(self) -> str | None:
        if self.one_sided and not self.justification:
            side = "en" if self.en else "de"
            return f"{self.rule}: '{self.family}' is flagged in {side} only and not justified in its source"
        if not self.one_sided and self.justification:
            return f"{self.rule}: '{self.family}' is justified as one-sided but both languages agree now"
        if not self.en and not self.de:
            return f"{self.rule}: '{self.family}' is flagged in neither language (fix the probes)"
        return None


def _front_matter(rule: str) -> dict:
    text = (ROOT / "rules-src" / "rules" / f"{rule}.md").read_text(encoding="utf-8")
    return yaml.safe_load(text.split("---", 2)[1]) or {}


def findings() -> list[Finding]:
    sys.path.insert(0, str(ROOT / "src"))
    from writing_rules.tools import create_writing_tool_dispatcher

    dispatch = create_writing_tool_dispatcher().dispatch
    families = yaml.safe_load(FAMILIES.read_text(encoding="utf-8"))
    found = []
    for rule, entries in families.items():
        justified = (_front_matter(rule).get("metadata") or {}).get("parity") or {}
        for entry in entries:
            hits = {}
            for language in ("en", "de"):
                probe = entry[language]
                if probe is None:
                    hits[language] = False
                    continue
                call = {"text": probe, "language": language, "ruleIds": [rule]}
                result = dispatch({"name": "find_writing_signals", "arguments": call})
                hits[language] = bool(result["ok"] and result["data"]["signals"])
            found.append(Finding(rule, entry["family"], hits["en"], hits["de"], justified.get(entry["family"])))
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 on an unjustified or stale entry")
    args = parser.parse_args(argv)
    results = findings()
    one_sided = [item for item in results if item.one_sided]
    print(f"{len(results)} families, {len(one_sided)} flagged in one language only")
    for item in one_sided:
        side = "en only" if item.en else "de only"
        print(f"  {item.rule:<20} {item.family:<45} {side:<8} {item.justification or 'NOT JUSTIFIED'}")
    problems = [item.problem for item in results if item.problem]
    for problem in problems:
        print("problem:", problem)
    return 1 if args.check and problems else 0


if __name__ == "__main__":
    sys.exit(main())
