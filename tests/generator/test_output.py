"""The generated module: deterministic, fresh, and importable without build tools."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from generator import GENERATED_MODULE, CompileResult, check, compile_sources, digest_inputs, generate

from .sources import WORD_CHOICE, write_tree

ROOT = Path(__file__).resolve().parents[2]


def load(path: Path) -> object:
    spec = importlib.util.spec_from_file_location("generated_under_test", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_same_sources_give_the_same_bytes(tmp_path: Path) -> None:
    first = write_tree(tmp_path / "a")
    second = write_tree(tmp_path / "b")  # another folder: no absolute paths leak in
    one = compile_sources(first, timed=False).text
    assert one == compile_sources(first, timed=False).text
    assert one == compile_sources(second, timed=False).text
    assert str(tmp_path) not in one


def test_write_only_when_the_bytes_change(tmp_path: Path) -> None:
    root = write_tree(tmp_path)
    output = tmp_path / "out.py"
    assert generate(root, output, timed=False).changed is True
    stamp = output.stat().st_mtime_ns
    assert generate(root, output, timed=False).changed is False
    assert output.stat().st_mtime_ns == stamp
    # Not even compiled: the digest says the module is current.
    assert generate(root, output, timed=False).compiled is False


def test_a_stale_module_is_rewritten_even_when_its_bytes_were_edited(tmp_path: Path) -> None:
    root = write_tree(tmp_path)
    output = tmp_path / "out.py"
    generate(root, output, timed=False)
    fresh = output.read_bytes()
    write_tree(root, **{"rules-src/rules/word-choice.md": WORD_CHOICE.replace("No hype.", "No hype at all.")})
    assert generate(root, output, timed=False).changed is True
    assert output.read_bytes() != fresh
    assert check(root, output) is True


def test_check_detects_a_stale_module(tmp_path: Path) -> None:
    root = write_tree(tmp_path)
    output = tmp_path / "out.py"
    assert check(root, output) is False  # missing
    generate(root, output, timed=False)
    assert check(root, output) is True
    write_tree(root, **{"rules-src/rules/word-choice.md": WORD_CHOICE.replace("No hype.", "No hype at all.")})
    assert check(root, output) is False


def test_header_says_generated_with_digest_and_how_to_regenerate(tmp_path: Path) -> None:
    root = write_tree(tmp_path)
    text = compile_sources(root, timed=False).text
    head = text.splitlines()[:5]
    assert head[0].startswith("# GENERATED FILE")
    assert any(digest_inputs(root) in line for line in head)
    assert any("python -m generator" in line for line in head)
    assert "time" not in " ".join(head).lower()


def test_generated_module_holds_the_catalogue(tmp_path: Path) -> None:
    root = write_tree(tmp_path)
    output = tmp_path / "out.py"
    generate(root, output, timed=False)
    module = load(output)
    assert module.RULE_IDS == ("plain-rule", "word-choice")  # type: ignore[attr-defined]
    assert module.PROFILES["public-docs"].rule_ids == ("plain-rule", "word-choice")  # type: ignore[attr-defined]
    table = module.SIGNAL_TABLES["de"]  # type: ignore[attr-defined]
    assert [(p.rule_id, p.signal_id) for p in table] == [("word-choice", "hype-de")]
    assert table[0].regex.search("Eine leistungsstarke Lösung")
    with pytest.raises(TypeError):
        module.RULES["x"] = None  # type: ignore[attr-defined, index]


def test_shipped_module_is_current(shipped: CompileResult) -> None:
    """Fails when rules-src/ or templates/ changed without `python -m generator`, or when the
    compiler now renders other bytes without a bump of its version (the digest would not show it)."""
    module = (ROOT / GENERATED_MODULE).read_text(encoding="utf-8")
    assert digest_inputs(ROOT) in module.splitlines()[2], "run `python -m generator`"
    assert check(ROOT), "the generated module is stale: run `python -m generator`"
    assert module == shipped.text, (
        "the compiler renders other bytes than the committed module: bump COMPILER_VERSION "
        "(generator/_sources.py) and run `python -m generator`"
    )


def test_the_digest_covers_sources_templates_and_the_compiler_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from generator import _sources

    root = write_tree(tmp_path)
    digest = digest_inputs(root)
    monkeypatch.setattr(_sources, "COMPILER_VERSION", _sources.COMPILER_VERSION + 1)
    assert digest_inputs(root) != digest
    monkeypatch.undo()
    # A file of the compiler itself is not an input: a refactor that renders the same bytes keeps it.
    assert digest_inputs(root) == digest
    write_tree(root, **{"rules-src/rules/word-choice.md": WORD_CHOICE + "\n"})
    assert digest_inputs(root) != digest


def test_installed_module_matches_the_sources() -> None:
    """The module Python imports (editable or not) carries the digest of the current sources."""
    from writing_rules import _rules_data

    assert digest_inputs(ROOT) == _rules_data.SOURCE_DIGEST, "reinstall or run `python -m generator`"


def test_runtime_imports_no_build_tools() -> None:
    code = (
        "import sys, writing_rules, writing_rules.tools, writing_rules._rules_data\n"
        "bad = sorted(m for m in ('jinja2', 'yaml', 'jsonschema', 'generator', 'writing_rules_compiler')"
        " if m in sys.modules)\n"
        "print(','.join(bad))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == ""


@pytest.mark.slow
def test_same_bytes_whatever_the_hash_seed(tmp_path: Path, shipped: CompileResult) -> None:
    """Set and dict iteration must never leak into the output (the trigger index uses sets).

    One compile in a process with another hash seed, against this session's compile.
    """
    seed = "2" if os.environ.get("PYTHONHASHSEED") == "1" else "1"
    target = tmp_path / "out.py"
    code = (
        "import sys; from pathlib import Path; from generator import compile_sources; "
        "Path(sys.argv[1]).write_text(compile_sources(Path('.'), timed=False).text, encoding='utf-8')"
    )
    subprocess.run(
        [sys.executable, "-c", code, str(target)],
        cwd=ROOT,
        env={**os.environ, "PYTHONHASHSEED": seed},
        check=True,
        capture_output=True,
    )
    assert target.read_text(encoding="utf-8") == shipped.text
