"""The package's import rules (README, "What lives where").

- No module imports another subpackage's private module or private name:
  a subpackage that needs something from another gets a public name.
- A lower layer never imports a higher one.
- The package's own root modules (``writing_rules._*``: rule data, tool-call
  envelopes, value descriptions, text units) are the base every layer shares;
  they import no subpackage.

Imports inside functions and under ``TYPE_CHECKING`` count like any other
(the generated module too); a module named in a string for ``import_module``
is not seen.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "writing_rules"

# From the bottom; a subpackage may import its own layer and the ones below.
LAYERS: dict[str, int] = {
    "prose": 0,
    "documents": 0,
    "registry": 1,
    "tools": 1,
    "packs": 1,
    "lint": 2,
    "review": 2,
    "adapters": 2,
    "cli": 3,
    "lsp": 3,
    "mcp": 3,
}
ROOT = "<root>"  # the modules directly in writing_rules/: below every layer


def _imports(path: Path, root: Path) -> list[tuple[int, str, str]]:
    """``(line, module, name)`` for every import of ``writing_rules`` in ``path`` (name "" for ``import x``)."""
    package = ("writing_rules", *path.relative_to(root).parts[:-1])
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name, "") for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                module = ".".join((*base, node.module) if node.module else base)
            else:
                module = node.module or ""
            found += [(node.lineno, module, alias.name) for alias in node.names]
    return [(line, module, name) for line, module, name in found if module.split(".")[0] == "writing_rules"]


def _subpackages(root: Path) -> set[str]:
    return {path.parent.name for path in root.glob("*/__init__.py")}


@cache  # both tests read the whole package once
def _violations(root: Path = PACKAGE) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Imports of another subpackage's private names, and imports against the layer order."""
    subpackages = _subpackages(root)
    private: list[str] = []
    layering: list[str] = []
    for path in sorted(root.rglob("*.py")):
        inside = path.relative_to(root).parts
        owner = inside[0] if len(inside) > 1 else ROOT
        where = "writing_rules/" + path.relative_to(root).as_posix()
        for line, module, name in _imports(path, root):
            # The subpackage (or ROOT) the import reaches, and the path below it, name included.
            parts = module.split(".")[1:] + ([name] if name else [])
            target, below = (parts[0], parts[1:]) if parts and parts[0] in subpackages else (ROOT, parts)
            if target in (owner, ROOT):
                continue
            shown = f"{where}:{line}: {module}" + (f" import {name}" if name else "")
            if any(part.startswith("_") for part in below):
                private.append(shown)
            if path.name == "__main__.py" and owner == ROOT:
                continue  # `python -m writing_rules` runs the command line
            # A subpackage missing from LAYERS fails test_every_subpackage_has_a_layer; here it is the top.
            if owner == ROOT or LAYERS.get(owner, len(LAYERS)) < LAYERS.get(target, len(LAYERS)):
                layering.append(f"{shown} ({owner} may not import {target})")
    return tuple(private), tuple(layering)


def test_every_subpackage_has_a_layer() -> None:
    assert _subpackages(PACKAGE) <= set(LAYERS), sorted(_subpackages(PACKAGE) - set(LAYERS))


def test_no_module_imports_another_subpackages_private_names() -> None:
    private, _ = _violations()
    assert not private, "export these from the subpackage's __init__ instead:\n" + "\n".join(private)


def test_prose_imports_nothing_from_the_rest_of_the_package() -> None:
    # The rule compiler loads writing_rules.prose by file path, without the package around it.
    outside = [
        f"{path.relative_to(PACKAGE.parent).as_posix()}:{line}: {module}"
        for path in sorted((PACKAGE / "prose").rglob("*.py"))
        for line, module, _ in _imports(path, PACKAGE)
        if not module.startswith("writing_rules.prose")
    ]
    assert not outside, "\n".join(outside)


def test_a_lower_layer_never_imports_a_higher_one() -> None:
    _, layering = _violations()
    assert not layering, "\n".join(layering)


@pytest.mark.parametrize(
    ("source", "statement", "check", "flagged"),
    [
        ("review/_x.py", "from ..tools._scanner import scan_text", "private", True),
        ("review/_x.py", "from writing_rules.tools import _scanner", "private", True),
        ("review/_x.py", "from ..tools import create_writing_tool_dispatcher", "private", False),
        ("tools/_x.py", "from ..cli import main", "layering", True),
        ("_x.py", "from .tools import writing_review_tools", "layering", True),
        ("cli/_x.py", "from .._tool_call import ToolCallError", "private", False),
    ],
)
def test_the_checks_see_what_they_look_for(
    tmp_path: Path, source: str, statement: str, check: str, flagged: bool
) -> None:
    # The package's subpackages, empty, and one module holding one import.
    for package in _subpackages(PACKAGE):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
    (tmp_path / source).write_text(statement + "\n")
    private, layering = _violations(tmp_path)
    assert bool(private if check == "private" else layering) is flagged


@pytest.mark.parametrize(
    ("owner", "forbidden"),
    [("lsp", ("cli",)), ("lint", ("cli", "lsp", "mcp"))],
)
def test_the_front_ends_share_the_engine_not_each_other(owner: str, forbidden: tuple[str, ...]) -> None:
    # The language server lints through writing_rules.lint, as the command line does: it never
    # borrows the command line's scan (the same layer, so the layer check alone allows it).
    found = [
        f"{path.relative_to(PACKAGE.parent).as_posix()}:{line}: {module}"
        for path in sorted((PACKAGE / owner).rglob("*.py"))
        for line, module, _ in _imports(path, PACKAGE)
        if module.split(".")[1:2] and module.split(".")[1] in forbidden
    ]
    assert not found, "\n".join(found)
