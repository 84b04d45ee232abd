"""What reading a document as prose costs, as a ratio against the same scan without the reader.

    python benchmarks/bench_prose.py

Issue 13's target: the prose view adds at most 25 % to a 250,000-unit scan of
Markdown. Both runs scan the same text with every rule that has signals, in one
process: once as the tool does (``scan_text`` reads the text into its prose
view, scans prose and code, maps every hit back), once with the reader bypassed
(a view that is the text itself, one copied segment, no code). The text is
Markdown built from the labelled evaluation sentences: hard-wrapped paragraphs,
headings, lists, block quotes, emphasis, links with long URLs, inline code and
fenced code, as documentation pages hold them.

It also prints the reader alone per markup on the same text (Markdown read as
rst, html and text too, which exercises those readers on the same size).
"""

from __future__ import annotations

import random
import textwrap
from pathlib import Path

from _texts import labelled_sentences  # benchmarks/ is this script's folder
from _timing import best

from writing_rules import _rules_data as data
from writing_rules.prose import MARKUPS, ProseView, TextMap, read_prose
from writing_rules.tools import scan_text

ROOT = Path(__file__).resolve().parent
LENGTH = 250_000
URL = "https://example.com/docs/" + "-".join(["powerful", "seamless", "simply", "easy"] * 20)


def markdown_for(language: str) -> str:
    sentences = labelled_sentences(language)
    rng = random.Random(13)
    parts: list[str] = []
    size = 0
    while size < LENGTH:
        words = rng.choice(sentences).split()
        kind = rng.random()
        if kind < 0.08:
            block = "## " + " ".join(words[:6])
        elif kind < 0.2:
            block = "\n".join("- " + rng.choice(sentences) for _ in range(3))
        elif kind < 0.27:
            block = "> " + textwrap.fill(rng.choice(sentences), 70).replace("\n", "\n> ")
        elif kind < 0.33:
            block = "```sh\n" + "\n".join(rng.choice(sentences) for _ in range(3)) + "\n```"
        else:
            paragraph = []
            for _ in range(rng.randint(2, 5)):
                sentence = rng.choice(sentences).split()
                i = rng.randrange(len(sentence))
                sentence[i] = rng.choice([f"*{sentence[i]}*", f"`{sentence[i]}`", f"[{sentence[i]}]({URL})"])
                paragraph.append(" ".join(sentence))
            block = textwrap.fill(" ".join(paragraph), 80, break_on_hyphens=False, break_long_words=False)
        parts.append(block)
        size += len(block) + 2
    return "\n\n".join(parts)[:LENGTH]


def identity(text: str) -> ProseView:
    """The text as its own prose: what the scanner saw before it read documents."""
    empty = TextMap()
    return ProseView(
        source=text,
        markup="text",
        text=text,
        prose_map=TextMap((0,), (0,), (len(text),), (True,)),
        code_text="",
        code_map=empty,
    )


def figures(language: str) -> None:
    text = markdown_for(language)
    rules = tuple(rule_id for rule_id in data.RULE_IDS if data.RULES[rule_id].has_signals)
    bypassed = best(lambda: scan_text(text, language, rules, 500, view=identity(text)), 5)
    with_reader = best(lambda: scan_text(text, language, rules, 500), 5)
    reader = best(lambda: read_prose(text), 5)
    print(
        f"{language}: {len(text):,} units; scan with the prose view {with_reader * 1000:.1f} ms, "
        f"reader bypassed {bypassed * 1000:.1f} ms: ratio {with_reader / bypassed:.2f} "
        f"(target <= 1.25); reader alone {reader * 1000:.1f} ms"
    )
    times = [(markup, best(lambda m=markup: read_prose(text, m), 3)) for markup in MARKUPS]
    print("    reader per markup on the same text: " + ", ".join(f"{m} {t * 1000:.1f} ms" for m, t in times))


def main() -> None:
    for language in ("en", "de"):
        figures(language)


if __name__ == "__main__":
    main()
