"""The scanner's index pass and matching with two generated modules in one process (a compiler A/B).

    python benchmarks/bench_index.py OLD/src/writing_rules/_rules_data.py [--rounds 25]

A change to the trigger index (``generator/_triggers.py``) changes only the generated module,
so the two modules can be timed in turns in one process, with this tree's scanner: the index
pass and the patterns at their candidates (``_pattern_spans``, every pattern selected) on the
prose of ``bench_scanner.py``'s 250,000-character texts, against the same anchored 50-word
pass, CPU time, best of ``--rounds`` rounds (and the median). On a busy machine that tells a
millisecond that ``bench_scanner.py``'s separate runs cannot. Also prints the key hits and
candidates of each module, and checks that both find the same spans (``--other-rules``: the
other module holds other patterns, such as an older release's, and only the times compare:
what the rules' growth cost with the same scanner).
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import time
from array import array
from collections import defaultdict
from collections.abc import Callable
from functools import partial
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from _texts import labelled_text  # benchmarks/ is this script's folder
from bench_scanner import LENGTH, NAIVE_WORDS

from writing_rules import _rules_data
from writing_rules.prose import read_prose
from writing_rules.tools import _scanner


def _tables(path: Path, name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    # What _pattern_spans reads of a catalogue.
    return SimpleNamespace(
        SIGNAL_TABLES=module.SIGNAL_TABLES,
        SIGNAL_INDEX=module.SIGNAL_INDEX,
        FOLD_MAP=module.FOLD_MAP,
        FOLD_UNSAFE=module.FOLD_UNSAFE,
    )


def _counts(text: str, language: str, data: Any) -> tuple[int, int]:
    """(words that are a key, candidates) of one module's index on ``text``."""
    index, table = data.SIGNAL_INDEX[language], data.SIGNAL_TABLES[language]
    words = re.compile(rf"([{index.key_chars}]{{1,{index.key_size}}})[{index.key_chars}]*")
    hits = sum(1 for match in words.finditer(text.lower()) if match[1] in index.words)
    candidates: dict[int, array[int]] = defaultdict(partial(array, "i"))
    _scanner._word_candidates(text, language, index, set(range(len(table))), candidates, data)
    return hits, sum(map(len, candidates.values()))


def _anchored(pattern: re.Pattern[str], text: str) -> object:
    return list(pattern.finditer(text))


def _indexed(text: str, language: str, selected: list[int], data: Any) -> object:
    return list(_scanner._pattern_spans(text, language, selected, data))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old", type=Path, help="the other tree's generated module (_rules_data.py)")
    parser.add_argument("--rounds", type=int, default=25)
    parser.add_argument("--other-rules", action="store_true", help="the other module holds other patterns")
    args = parser.parse_args()
    modules = {"old": _tables(args.old, "old_rules_data"), "new": _tables(Path(_rules_data.__file__), "new_rules_data")}
    anchored = re.compile(r"(?i)\b(?:" + "|".join(map(re.escape, NAIVE_WORDS)) + r")\b")
    for language in ("en", "de"):
        text = read_prose(labelled_text(language, LENGTH), "markdown").text
        spans = {}
        for name, data in modules.items():
            table = data.SIGNAL_TABLES[language]
            found = _scanner._pattern_spans(text, language, list(range(len(table))), data)
            spans[name] = [(table[i].signal_id, found_spans) for i, found_spans in found]
            hits, candidates = _counts(text, language, data)
            patterns = len(data.SIGNAL_TABLES[language])
            print(f"{language} {name}: {patterns} patterns, {hits:,} key hits, {candidates:,} candidates")
        if not args.other_rules:
            assert spans["old"] == spans["new"], "the two modules find different spans"
        functions: dict[str, Callable[[], object]] = {"anchored": partial(_anchored, anchored, text)}
        for name, data in modules.items():
            selected = list(range(len(data.SIGNAL_TABLES[language])))
            functions[name] = partial(_indexed, text, language, selected, data)
        times: dict[str, list[float]] = {name: [] for name in functions}
        for _ in range(args.rounds):
            for name, function in functions.items():
                start = time.process_time()
                function()
                times[name].append(time.process_time() - start)
        base = min(times["anchored"])
        for name, measured in times.items():
            best, median = min(measured), sorted(measured)[len(measured) // 2]
            print(
                f"  {language} {name:8} best {best * 1000:6.1f} ms  median {median * 1000:6.1f} ms  {best / base:5.2f}x"
            )


if __name__ == "__main__":
    main()
