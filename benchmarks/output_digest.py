"""One SHA-256 over what the front ends report, to check that a refactoring changes no output.

    python benchmarks/output_digest.py [ROOT]

Scans every page of the field corpus and two 250,000-character texts (English and
German, ``_texts.labelled_text``) with ``writing-rules scan`` in five ways (JSON at the
default view, JSON at min-level suggestion with code, text, SARIF, GitHub
annotations), and calls ``find_writing_signals`` on the same texts with three
``config`` values; prints one digest for each. Run it before and after a change in
the same checkout (or point ROOT at an exported older tree, with PYTHONPATH at its
``src``): equal digests mean equal outputs.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[1])
sys.path.insert(0, str(ROOT / "benchmarks"))

from _field_pages import held_out_pages  # noqa: E402  (benchmarks/ is this script's folder)
from _texts import labelled_text  # noqa: E402

from writing_rules.cli._commands import run  # noqa: E402
from writing_rules.tools import create_writing_tool_dispatcher  # noqa: E402

SCANS = (
    ["--format", "json"],
    ["--format", "json", "--min-level", "suggestion", "--include-code"],
    ["--format", "text"],
    ["--format", "sarif", "--min-level", "suggestion"],
    ["--format", "github", "--include-code"],
)


def main() -> None:
    os.chdir(ROOT)  # reports name paths relative to the working folder
    corpus = Path("benchmarks/field_eval/corpus")
    held = held_out_pages(corpus)
    pages = sorted(str(path) for path in corpus.rglob("*") if path.suffix in (".md", ".mdx") and path not in held)
    with tempfile.TemporaryDirectory() as folder:
        big = []
        for language in ("en", "de"):
            path = Path(folder) / f"big-{language}.md"
            path.write_text(labelled_text(language, 250_000), encoding="utf-8")
            big.append(str(path))
        scans = hashlib.sha256()
        for options in SCANS:
            for path in [*pages, *big]:
                out = io.StringIO()
                status = run(["scan", "--no-cache", "--no-fail", *options, path], io.StringIO(), out, io.StringIO())
                scans.update(f"{path.replace(folder, 'TMP')}|{status}|".encode())
                scans.update(out.getvalue().replace(folder, "TMP").encode())
        texts = [Path(path).read_text(encoding="utf-8-sig") for path in [*pages, *big]]
    tool = hashlib.sha256()
    for config in (None, {}, {"min-level": "suggestion", "accept": ["Astro"]}):
        dispatcher = create_writing_tool_dispatcher(config=config)
        for text in texts:
            for language in ("en", "de"):
                call = {"text": text, "language": language, "maxSignals": 500}
                envelope = dispatcher.dispatch({"name": "find_writing_signals", "arguments": call})
                tool.update(json.dumps(envelope, ensure_ascii=False).encode())
    print(f"pages {len(pages)} + 2 texts of 250,000 characters")
    print(f"scan (5 formats and views)   {scans.hexdigest()}")
    print(f"find_writing_signals (3 configs) {tool.hexdigest()}")


if __name__ == "__main__":
    main()
