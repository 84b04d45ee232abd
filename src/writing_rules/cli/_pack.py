"""``writing-rules pack new|build|test|import-vale``: a team's rule packs (needs the ``authoring`` extra).

The commands run the rule compiler, the same that builds the built-in rules
(docs/packs.md). It needs jinja2, PyYAML and jsonschema, which the runtime never
does: the ``authoring`` extra brings them, and nothing here imports them, or the
compiler, before a ``pack`` command runs. The compiler is the package
``writing_rules_compiler`` that the wheel carries beside ``writing_rules``; in a
checkout (an editable install, ``PYTHONPATH=src``) it is the checkout's own
``generator/``, loaded under that name, so an edit to the compiler counts at once.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, TextIO

from ._status import EXIT_ERROR, UsageError

if TYPE_CHECKING:
    import argparse
    from pathlib import Path
    from types import ModuleType

__all__ = ["COMPILER", "add_pack_parser", "run_pack"]

COMPILER = "writing_rules_compiler"  # the compiler's import name
# The authoring extra's distributions, by the name each is imported as.
_NEEDS = {"jinja2": "jinja2", "yaml": "PyYAML", "jsonschema": "jsonschema"}
_INSTALL = "pip install 'writing-rules[authoring]'"


def add_pack_parser(commands: Any) -> None:
    """Register ``pack`` and its four commands on the CLI's sub-command parsers."""
    from pathlib import Path  # here: every other command starts without pathlib (3 ms with urllib.parse)

    pack = commands.add_parser(
        "pack",
        help="create, build and test a team's rule pack (needs the authoring extra)",
        description="Create, build and test a rule pack: a team's own rules and vocabulary, in the format of "
        "the built-in rules and checked by the same compiler (docs/packs.md).",
        epilog=f"Exit status: 0 done, 2 problems (each printed as path:line:col: message, all at once; nothing "
        f"written) or a folder that cannot be used. Install: {_INSTALL}.",
    )
    # prog given, as argparse would write it: deriving it formats text (and reads the terminal width).
    actions = pack.add_subparsers(dest="pack_command", metavar="COMMAND", required=True, prog="writing-rules pack")
    new = actions.add_parser(
        "new",
        help="write a pack scaffold (one rule, one term) that builds green",
        description="Write a pack scaffold into DIR: pack.yaml, one rule (rules/no-simply.md) and one term "
        "(terms.yaml). It builds and tests green as it is.",
    )
    new.add_argument("folder", type=Path, metavar="DIR", help="the pack folder; must not exist or be empty")
    new.add_argument("--id", default=None, help="the pack id (default: the folder's name)")
    build = actions.add_parser(
        "build",
        help="check the pack and write its compiled module into DIR",
        description="Check everything: the schemas, every example and fix, the backtracking check and the "
        "timed run (with the verdict cache DIR/verdicts.txt); then write the compiled module "
        "DIR/_pack_data.py. Does nothing when the module is current.",
    )
    build.add_argument("folder", type=Path, metavar="DIR", help="the pack folder")
    build.add_argument("--no-timing", action="store_true", help="skip the timed backtracking run")
    build.add_argument("--retime", action="store_true", help="ignore DIR/verdicts.txt: check every pattern again")
    test = actions.add_parser(
        "test",
        help="check every example and fix (no timed run, writes nothing)",
        description="Check every example and every fix, with the static backtracking check; write nothing. "
        "The quick check for CI and a pre-commit hook.",
    )
    test.add_argument("folder", type=Path, metavar="DIR", help="the pack folder")
    vale = actions.add_parser(
        "import-vale",
        help="convert a Vale style into a pack folder",
        description="Convert a Vale style into a pack source folder, and print what was converted and skipped "
        "(with the reason).",
    )
    vale.add_argument(
        "style_dir", type=Path, metavar="STYLE_DIR", help="the Vale style (the folder of its *.yml rules)"
    )
    vale.add_argument(
        "out_dir", type=Path, metavar="OUT_DIR", help="the pack folder to write; must not exist or be empty"
    )
    vale.add_argument(
        "--language", choices=("en", "de"), default="en", help="the language of the style's texts (default: en)"
    )


def _missing_extra() -> list[str]:
    """The authoring extra's distributions that cannot be imported (looked up, not imported)."""
    import importlib.util

    missing = []
    for name, distribution in _NEEDS.items():
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):  # a broken installation, or a module set to None
            found = False
        if not found:
            missing.append(distribution)
    return missing


def _checkout_compiler() -> Path | None:
    """The ``generator/`` folder of the checkout this ``writing_rules`` runs from, if it runs from one."""
    from pathlib import Path

    package = Path(__file__).resolve().parents[1]  # .../src/writing_rules
    root = package.parents[1]
    folder = root / "generator"
    if package.parent.name == "src" and (folder / "_packs.py").is_file() and (root / "templates").is_dir():
        return folder
    return None


def load_compiler() -> ModuleType:
    """The rule compiler's package: a checkout's ``generator/``, else the installed one; raises ``UsageError``."""
    loaded = sys.modules.get(COMPILER)
    if loaded is not None:
        return loaded
    import importlib

    checkout = _checkout_compiler()
    if checkout is None:
        try:
            return importlib.import_module(COMPILER)
        except ImportError as error:
            raise UsageError(
                f"the rule compiler ({COMPILER}) is not installed with this writing-rules ({error}): reinstall "
                f"writing-rules with {_INSTALL}"
            ) from None
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        COMPILER, checkout / "__init__.py", submodule_search_locations=[str(checkout)]
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[COMPILER] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[COMPILER]
        raise
    return module


def run_pack(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """Run ``writing-rules pack COMMAND``; returns the exit status."""
    missing = _missing_extra()
    if missing:
        raise UsageError(
            f"the pack commands need the authoring extra (jinja2, PyYAML, jsonschema; missing: "
            f"{', '.join(missing)}): {_INSTALL}"
        )
    import importlib

    compiler = load_compiler()
    commands = importlib.import_module(f"{compiler.__name__}.pack")
    status: int = commands.run(args.pack_command, args, stdout, stderr, prog="writing-rules pack")
    return status if status in (0, EXIT_ERROR) else EXIT_ERROR
