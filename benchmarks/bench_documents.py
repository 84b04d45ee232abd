"""Benchmark the document engine on a 1 MB document; prints times and ratios against baselines.

Run: PYTHONPATH=src python benchmarks/bench_documents.py

Targets: exact replaceBlock <= 3x (str.count + str.replace), fuzzy replaceBlock
<= 10 ms, not-found with candidates <= 150 ms. Baselines run in the same
process, so the ratios hold across machines better than the times do.
"""

from __future__ import annotations

import random

from _timing import best  # benchmarks/ is this script's folder

from writing_rules.documents import DocumentEditError, apply_operations

_WORDS = [
    "the",
    "of",
    "and",
    "to",
    "in",
    "is",
    "for",
    "on",
    "with",
    "as",
    "by",
    "this",
    "that",
    "from",
    "install",
    "server",
    "client",
    "request",
    "response",
    "configure",
    "option",
    "value",
    "default",
    "file",
    "folder",
    "document",
    "section",
    "example",
    "table",
    "note",
    "warning",
    "Anleitung",
    "Datei",
    "Ordner",
    "Beispiel",
    "Hinweis",
    "Größe",
    "Übersicht",
    "prüfen",
    "ändern",
]


def make_document(size: int = 1_000_000, seed: int = 6) -> tuple[str, str]:
    """Markdown-like text of about ``size`` characters with one unique block in the middle."""
    rng = random.Random(seed)
    lines: list[str] = []
    total = 0
    block = "## Unique heading 4711\n\nThis paragraph is the one to change, exactly once.\n"
    while total < size:
        if rng.random() < 0.05:
            line = "#" * rng.randint(1, 3) + " " + " ".join(rng.choices(_WORDS, k=rng.randint(2, 6)))
        elif rng.random() < 0.1:
            line = ""
        else:
            line = ("    " if rng.random() < 0.1 else "") + " ".join(rng.choices(_WORDS, k=rng.randint(6, 14)))
        lines.append(line + "\n")
        total += len(line) + 1
        if block and total >= size // 2:
            lines.append(block)
            total += len(block)
            block = ""
    return "".join(lines), "## Unique heading 4711\n\nThis paragraph is the one to change, exactly once.\n"


def main() -> None:
    document, block = make_document()
    new_block = block.replace("change", "keep")
    print(f"document: {len(document):,} characters, {document.count(chr(10)):,} lines")

    def baseline_exact() -> str:
        if document.count(block) != 1:
            raise AssertionError
        return document.replace(block, new_block, 1)

    exact_ops = [{"operation": "replaceBlock", "oldBlock": block, "newBlock": new_block}]
    assert apply_operations(document, exact_ops) == baseline_exact()
    base = best(baseline_exact, 15)
    ours = best(lambda: apply_operations(document, exact_ops), 15)
    print(
        f"exact replaceBlock:   {ours * 1e3:7.2f} ms  baseline str.count+str.replace {base * 1e3:6.2f} ms  "
        f"ratio {ours / base:5.2f}x  (target <= 3x)"
    )

    # A quote with the wrong indentation and trailing blanks: only fuzzy matching finds it.
    sloppy = "  ## Unique heading 4711  \n\n This paragraph is the one to change, exactly once.   \n"
    fuzzy_ops = [{"operation": "replaceBlock", "oldBlock": sloppy, "newBlock": new_block, "fuzzyMatch": True}]
    assert apply_operations(document, fuzzy_ops) == baseline_exact()
    plain = best(lambda: document.replace(block, new_block, 1), 15)
    fuzzy = best(lambda: apply_operations(document, fuzzy_ops), 15)
    print(
        f"fuzzy replaceBlock:   {fuzzy * 1e3:7.2f} ms  baseline str.replace {plain * 1e3:6.2f} ms  "
        f"ratio {fuzzy / plain:6.1f}x  (target <= 10 ms)"
    )

    missing = [
        {
            "operation": "replaceBlock",
            "oldBlock": "## Unique heading 4712\n\nThis paragraph is the one to chnage, exacly once.\n",
            "newBlock": "x",
        }
    ]

    def not_found() -> DocumentEditError:
        try:
            apply_operations(document, missing)
        except DocumentEditError as error:
            return error
        raise AssertionError("expected not-found")

    error = not_found()
    assert error.code == "not-found" and error.candidates
    top = error.candidates[0]
    slow = best(not_found, repeat=5)
    print(
        f"not found+candidates: {slow * 1e3:7.2f} ms  ratio to str.replace {slow / plain:6.1f}x  "
        f"(target <= 150 ms); best candidate line {top['line']} similarity {top['similarity']}"
    )


if __name__ == "__main__":
    main()
