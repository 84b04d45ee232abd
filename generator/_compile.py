"""The compiler's entry points: check sources, render, write only when changed.

Two shortcuts keep a rule author's loop short, and neither imports jinja2 or
jsonschema:

- ``check`` compares the digest of the inputs with the one the committed
  module records (no compile): the digest covers every input of the output
  bytes (``digest_inputs``);
- ``generate`` does nothing when that digest matches and the verdict cache
  holds every pattern's key: the module is current and every pattern has
  passed the backtracking checks as it is now. Otherwise it compiles, and the
  timed run measures only the patterns the cache does not vouch for.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ._errors import RuleSourceError, SourceProblems
from ._paths import GENERATED_MODULE, recorded_digest
from ._sources import TEMPLATES, digest_inputs, read_sources
from ._timing import INPUT_LENGTH
from ._verdicts import (
    VERDICTS_FILE,
    read_cache,
    read_verdicts,
    render_verdicts,
    signal_examples,
    trusted_keys,
    verdict_key,
)

if TYPE_CHECKING:
    from ._validate import Catalogue

__all__ = ["GENERATED_MODULE", "CompileResult", "GenerateResult", "check", "compile_sources", "generate"]


@dataclass(frozen=True)
class CompileResult:
    catalogue: Catalogue
    digest: str
    text: str
    # The verdict cache's new content after a timed run that passed (None without one).
    verdicts: str | None = None
    timed_count: int = 0  # patterns the timed run measured; the cache vouched for the rest


@dataclass(frozen=True)
class GenerateResult:
    """What ``generate`` did: wrote the module, the cache, and how many patterns it timed."""

    changed: bool
    verdicts_changed: bool = False
    compiled: bool = True  # False: the digest and the cache said there was nothing to do
    timed_count: int = 0

    def __bool__(self) -> bool:
        return self.changed


def compile_sources(
    root: Path, *, timed: bool = True, retime: bool = False, input_length: int = INPUT_LENGTH
) -> CompileResult:
    """Validate ``root``'s sources and render the module; raise ``SourceProblems`` if invalid.

    The backtracking checks skip every pattern whose key ``rules-src/verdicts.txt`` lists
    (unless ``retime``); ``input_length`` is the timed run's longest input (tests shorten it).
    """
    # jinja2 and jsonschema load only when something is compiled.
    from ._render import render_module
    from ._validate import Verdicts, build_catalogue

    root = Path(root)
    problems: list[RuleSourceError] = []
    tree = read_sources(root, problems)
    previous = read_cache(root)
    verdicts = Verdicts(trusted=frozenset() if retime else trusted_keys(previous), length=input_length)
    catalogue = build_catalogue(tree, problems, timed=timed, verdicts=verdicts)
    if problems or catalogue is None:
        raise SourceProblems(problems)
    digest = digest_inputs(root)
    cache = render_verdicts(verdicts.passed, previous) if verdicts.passed is not None else None
    return CompileResult(catalogue, digest, render_module(catalogue, digest, TEMPLATES), cache, verdicts.timed_count)


def generate(
    root: Path,
    output: Path | None = None,
    *,
    timed: bool = True,
    retime: bool = False,
    input_length: int = INPUT_LENGTH,
) -> GenerateResult:
    """Regenerate the module; the result is truthy when its bytes changed.

    Writes atomically and only when the content differs, so repeated builds
    (``python -m build`` runs the hook twice) leave the file untouched. A timed
    run also rewrites ``rules-src/verdicts.txt`` (only when its bytes change).
    """
    root = Path(root)
    target = Path(output) if output is not None else root / GENERATED_MODULE
    if not retime and check(root, output) and (not timed or _all_cached(root, input_length)):
        return GenerateResult(changed=False, compiled=False)
    result = compile_sources(root, timed=timed, retime=retime, input_length=input_length)
    changed = _write_if_changed(target, result.text.encode("utf-8"))
    verdicts_changed = False
    if result.verdicts is not None:
        verdicts_changed = _write_if_changed(root / VERDICTS_FILE, result.verdicts.encode("utf-8"))
    return GenerateResult(changed=changed, verdicts_changed=verdicts_changed, timed_count=result.timed_count)


def check(root: Path, output: Path | None = None) -> bool:
    """True when the generated module records the digest of the current inputs (no compile).

    The digest covers the sources, the templates and the compiler's version, which is
    all the module's bytes depend on; the test suite renders the module and compares
    the bytes, so a compiler change that forgot to bump the version is caught there.
    """
    root = Path(root)
    target = Path(output) if output is not None else root / GENERATED_MODULE
    return recorded_digest(target) == digest_inputs(root)


def _all_cached(root: Path, input_length: int, python: str | None = None) -> bool:
    """True when the verdict cache vouches for every pattern of the sources as they are now.

    On ``python`` (``implementation-major.minor``; by default the running Python). Reads the
    sources without validating them: anything unexpected means "compile".
    """
    trusted = read_verdicts(root, python)
    if not trusted:
        return False
    problems: list[RuleSourceError] = []
    tree = read_sources(root, problems)
    if problems:
        return False
    for rule_file in tree.rules:
        front: Any = rule_file.front.value
        signals = front.get("signals") if isinstance(front, dict) else None
        for item in signals if isinstance(signals, list) else ():
            if not isinstance(item, dict) or "pattern" not in item:
                continue
            try:
                examples = signal_examples(item["must_match"], item["must_not_match"])
                key = verdict_key(item["pattern"], examples, input_length)
            except (KeyError, TypeError):
                return False
            if key not in trusted:
                return False
    return True


def _write_if_changed(target: Path, data: bytes) -> bool:
    if target.exists() and target.read_bytes() == data:
        return False
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.stem}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.replace(temporary, target)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise
    return True
