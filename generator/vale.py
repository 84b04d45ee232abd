"""``python -m generator.vale STYLE_DIR OUT_DIR``: import a Vale style as a rule-pack source.

The same as ``writing-rules pack import-vale`` (``run_import``). Prints what
was converted and skipped (docs/packs.md); exit 0 when the pack was written,
2 when the style or the output folder cannot be used (nothing is written then).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from ._vale import ValeImportError, import_vale_style

__all__ = ["main", "run_import"]


def run_import(style_dir: Path | str, out_dir: Path | str, language: str, stdout: TextIO, stderr: TextIO) -> int:
    """Import the style, print the report; returns the exit code (0 written, 2 not)."""
    try:
        report = import_vale_style(style_dir, out_dir, language=language)
    except ValeImportError as exc:
        stderr.write(f"error: {exc}\n")
        return 2
    stdout.write(f"{report.render()}\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m generator.vale",
        description="Convert a Vale style into a writing-rules pack source folder.",
    )
    parser.add_argument("style_dir", metavar="STYLE_DIR", help="the Vale style (the folder of its *.yml rules)")
    parser.add_argument("out_dir", metavar="OUT_DIR", help="the pack folder to write; must not exist or be empty")
    parser.add_argument(
        "--language", choices=("en", "de"), default="en", help="the language of the style's texts (default: en)"
    )
    args = parser.parse_args(argv)
    return run_import(args.style_dir, args.out_dir, args.language, sys.stdout, sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
