"""``python -m generator.vale STYLE_DIR OUT_DIR``: import a Vale style as a rule-pack source.

The command a later step wires as ``writing-rules pack import-vale``. Prints what
was converted and skipped (docs/packs.md); exit 0 when the pack was written,
2 when the style or the output folder cannot be used (nothing is written then).
"""

from __future__ import annotations

import argparse
import sys

from ._vale import ValeImportError, import_vale_style

__all__ = ["main"]


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
    try:
        report = import_vale_style(args.style_dir, args.out_dir, language=args.language)
    except ValeImportError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(report.render())
    return 0


if __name__ == "__main__":
    sys.exit(main())
