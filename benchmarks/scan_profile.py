"""Where the scanner core's time goes, per language: its parts, and the trigger index's work.

    python benchmarks/scan_profile.py [--pages] [--rounds 9] [--top 10] [--without-keys das,ist]

On ``bench_scanner.py``'s 250,000-character texts, or with ``--pages`` on the development
pages of the field corpus (``field_quality.py``'s ``dev`` part; held-out pages are never
read), joined. CPU time, best of ``--rounds`` rounds in which the parts take turns:

- the anchored 50-word pass (the baseline of ``bench_scanner.py``'s budgets) and the
  scanner core (``find_spans``, every rule);
- reading the words: lowercasing the text and looking every word's key up, as the word
  pass does, with no key's entries checked;
- the word pass (``_word_candidates``: that, the checks of the keys found, word endings and
  look backs);
- the patterns tried at their candidates (the rest of ``_pattern_spans``, but for keeping
  the spans of their matches);

then the index's work: words, key hits, hits whose key's tails all fail, hits that pass a
tail but no text before the key, candidates and matches; the keys with the most hits that
give no candidate; per pattern its candidates, matches and the CPU time of trying them
(the ``--top`` costliest). ``--without-keys`` times the word pass again with those keys
left out of the index: an upper bound of what a finer index could save on them (such as
a case-sensitive key for "Das", which would still look up every "Das").
"""

from __future__ import annotations

import argparse
import re
import time
from array import array
from collections import Counter, defaultdict
from collections.abc import Callable
from functools import partial
from itertools import repeat
from typing import Any

import field_quality  # benchmarks/ is this script's folder
from _texts import labelled_text
from _timing import best_interleaved
from bench_scanner import LENGTH, NAIVE_WORDS

from writing_rules import _rules_data as data
from writing_rules.prose import read_prose
from writing_rules.tools import _scanner


def _text(language: str, pages: bool) -> str:
    if not pages:
        return read_prose(labelled_text(language, LENGTH), "markdown").text
    texts = (
        read_prose((field_quality.CORPUS / language / page).read_text(encoding="utf-8"), "markdown").text
        for page in field_quality.pages("dev")
    )
    return "\n\n".join(text for text in texts if text)


def _candidates(text: str, language: str, index: Any) -> dict[int, array[int]]:
    found: dict[int, array[int]] = defaultdict(partial(array, "i"))
    everything = set(range(len(data.SIGNAL_TABLES[language])))
    _scanner._word_candidates(text, language, index, everything, found, data)
    return found


def _read_words(text: str, index: Any) -> list[object]:
    """The word pass's reading alone: lowercase, every word's key, its lookup."""
    words = re.compile(rf"([{index.key_chars}]{{1,{index.key_size}}})[{index.key_chars}]*")
    return list(map(dict(index.words).get, map(_scanner._key_of, words.finditer(text.lower()))))


def _try_all(text: str, tried: list[tuple[re.Pattern[str], list[int]]]) -> None:
    """Each pattern at its candidates, as ``_pattern_spans`` tries them (its matches left unread)."""
    for regex, positions in tried:
        for _match in map(regex.match, repeat(text, len(positions)), positions):
            pass


def _index_work(text: str, index: Any) -> tuple[int, int, int, int, Counter[str]]:
    """(words, key hits, hits no tail passes, hits no text before the key passes, per key its idle hits)."""
    folded = text.lower()
    words = hits = tails_fail = befores_fail = 0
    idle: Counter[str] = Counter()
    for match in re.finditer(rf"([{index.key_chars}]{{1,{index.key_size}}})[{index.key_chars}]*", folded):
        words += 1
        entries = index.words.get(match[1])
        if entries is None:
            continue
        hits += 1
        at, after_key = match.start(), match.end(1)
        passing = [checks for tails, checks in entries if folded.startswith(tails, after_key)]
        if not passing:
            tails_fail += 1
            idle[match[1]] += 1
        elif not any(not befores or folded.endswith(befores, 0, at) for checks in passing for befores, _, _ in checks):
            befores_fail += 1
            idle[match[1]] += 1
    return words, hits, tails_fail, befores_fail, idle


def _pattern_costs(
    text: str, language: str, found: dict[int, array[int]], rounds: int
) -> list[tuple[float, int, int, int]]:
    """Per pattern with candidates: (CPU seconds trying them, pattern, candidates, matches)."""
    table = data.SIGNAL_TABLES[language]
    costs = []
    for i, positions in found.items():
        regex = table[i].regex
        ordered = sorted(positions)
        matches = sum(1 for match in map(regex.match, [text] * len(ordered), ordered) if match)
        fastest = float("inf")
        for _ in range(rounds):
            start = time.process_time()
            for _match in map(regex.match, [text] * len(ordered), ordered):
                pass
            fastest = min(fastest, time.process_time() - start)
        costs.append((fastest, i, len(ordered), matches))
    return sorted(costs, reverse=True)


def profile(language: str, pages: bool, rounds: int, top: int, without: list[str]) -> None:
    text = _text(language, pages)
    index = data.SIGNAL_INDEX[language]
    table = data.SIGNAL_TABLES[language]
    rule_ids = tuple(rule for rule in data.RULE_IDS if data.RULES[rule].has_signals)
    found = _candidates(text, language, index)
    tried = [(table[i].regex, sorted(positions)) for i, positions in sorted(found.items())]
    anchored = re.compile(r"(?i)\b(?:" + "|".join(map(re.escape, NAIVE_WORDS)) + r")\b")
    parts: dict[str, Callable[[], object]] = {
        "anchored 50-word pass": lambda: list(anchored.finditer(text)),
        "scanner core (find_spans)": lambda: _scanner.find_spans(text, language, rule_ids),
        "  reading the words (lowercase, keys, lookups)": lambda: _read_words(text, index),
        "  word pass (_word_candidates)": lambda: _candidates(text, language, index),
        "  the patterns at their candidates": lambda: _try_all(text, tried),
    }
    if without:
        fewer = index._replace(words={key: value for key, value in index.words.items() if key not in without})
        parts[f"  word pass without the keys {', '.join(without)}"] = lambda: _candidates(text, language, fewer)
    times = best_interleaved(parts, rounds, time.process_time)
    base = times["anchored 50-word pass"]
    source = "development pages" if pages else f"{LENGTH:,} characters"
    print(f"{language}: {source}, {len(text):,} characters of prose")
    for name, seconds in times.items():
        print(f"  {name:<52} {seconds * 1000:8.1f} ms {seconds / base:6.2f}x")
    words, hits, tails_fail, befores_fail, idle = _index_work(text, index)
    costs = _pattern_costs(text, language, found, max(3, rounds // 3))
    print(
        f"  {words:,} words, {hits:,} key hits ({tails_fail:,} pass no tail, {befores_fail:,} no text before the"
        f" key), {sum(c for _, _, c, _ in costs):,} candidates, {sum(m for _, _, _, m in costs):,} matches"
    )
    print("  keys with the most hits that give no candidate:", ", ".join(f"{k} {n}" for k, n in idle.most_common(top)))
    for seconds, i, candidates, matches in costs[:top]:
        print(f"    {table[i].signal_id:<36} {candidates:6,} candidates {matches:5,} matches {seconds * 1000:6.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", action="store_true", help="the field corpus's development pages, joined")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--top", type=int, default=10)
    parser.add_argument("--language", choices=("en", "de"), action="append")
    parser.add_argument("--without-keys", default="", help="keys to leave out of a second word pass, comma-separated")
    args = parser.parse_args()
    without = [key for key in args.without_keys.split(",") if key]
    for language in args.language or ("en", "de"):
        profile(language, args.pages, args.rounds, args.top, without)


if __name__ == "__main__":
    main()
