"""The compiler's entry points: check sources, render, write only when changed."""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ._errors import RuleSourceError, SourceProblems
from ._paths import GENERATED_MODULE
from ._render import render_module
from ._sources import TEMPLATES, digest_inputs, read_sources
from ._validate import Catalogue, build_catalogue

__all__ = ["GENERATED_MODULE", "CompileResult", "check", "compile_sources", "generate"]


@dataclass(frozen=True)
class CompileResult:
    catalogue: Catalogue
    digest: str
    text: str


def compile_sources(root: Path, *, timed: bool = True) -> CompileResult:
    """Validate ``root``'s sources and render the module; raise ``SourceProblems`` if invalid."""
    root = Path(root)
    problems: list[RuleSourceError] = []
    tree = read_sources(root, problems)
    catalogue = build_catalogue(tree, problems, timed=timed)
    if problems or catalogue is None:
        raise SourceProblems(problems)
    digest = digest_inputs(root)
    return CompileResult(catalogue, digest, render_module(catalogue, digest, TEMPLATES))


def generate(root: Path, output: Path | None = None, *, timed: bool = True) -> bool:
    """Regenerate the module; return True when its bytes changed.

    Writes atomically and only when the content differs, so repeated builds
    (``python -m build`` runs the hook twice) leave the file untouched.
    """
    root = Path(root)
    target = Path(output) if output is not None else root / GENERATED_MODULE
    data = compile_sources(root, timed=timed).text.encode("utf-8")
    if target.exists() and target.read_bytes() == data:
        return False
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=".rules_data.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.replace(temporary, target)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise
    return True


def check(root: Path, output: Path | None = None) -> bool:
    """True when the generated module is exactly what the sources produce now."""
    root = Path(root)
    target = Path(output) if output is not None else root / GENERATED_MODULE
    # The timed backtracking run cannot change the output, so a freshness check skips it.
    expected = compile_sources(root, timed=False).text.encode("utf-8")
    return target.exists() and target.read_bytes() == expected
