"""``writing-rules pack new|build|test|import-vale`` (docs/packs.md), run in this process.

The commands are the rule compiler's (``generator/pack.py``, the same as ``python -m
generator.pack``); here: that the command line reaches them with their output and exit
codes, that it says what to install when the ``authoring`` extra is missing, and that no
other command pays for the compiler or its dependencies. ``test_pack_installed.py``
runs them from an installed wheel, outside the checkout.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from writing_rules.cli import _commands, _pack, main

ROOT = Path(__file__).resolve().parents[2]
WRITE_GOOD = ROOT / "tests" / "generator" / "vale_styles" / "write-good"
INSTALL = "pip install 'writing-rules[authoring]'"
# The build-time modules: the compiler (under either name) and the authoring extra's.
BUILD_TIME = ("jinja2", "yaml", "jsonschema", "writing_rules_compiler", "generator")


def _seconds_out(text: str) -> str:
    """``text`` without the run times the commands print (``; 0.41 s)``)."""
    return re.sub(r"\d+\.\d\d s\)", "_ s)", text)


def test_new_test_and_build_a_scaffold(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = (tmp_path / "acme").as_posix()
    assert main(["pack", "new", folder]) == 0
    assert capsys.readouterr().out == f"wrote 3 files into {folder}; next: writing-rules pack build {folder}\n"
    assert main(["pack", "test", folder]) == 0
    assert _seconds_out(capsys.readouterr().out) == f"{folder}: 2 rule(s), every example holds (_ s)\n"
    assert main(["pack", "build", folder]) == 0
    module = f"{folder}/_pack_data.py"
    assert _seconds_out(capsys.readouterr().out) == (
        f"wrote {module} (1 pattern(s) timed, 1 of 1 term(s) checked; _ s)\n"
    )
    assert main(["pack", "build", folder]) == 0
    assert _seconds_out(capsys.readouterr().out) == f"unchanged: {module} (sources unchanged; _ s)\n"

    from writing_rules.packs import load_pack

    assert sorted(load_pack(folder).rules) == ["acme/no-simply", "acme/terms"]


def test_new_takes_an_id_and_refuses_a_folder_with_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "styles"
    assert main(["pack", "new", str(folder), "--id", "team-style"]) == 0
    assert "id: team-style\n" in (folder / "pack.yaml").read_text(encoding="utf-8")
    capsys.readouterr()
    assert main(["pack", "new", str(folder)]) == 2
    assert capsys.readouterr().err == f"pack new: {folder.as_posix()} exists and is not empty; choose a new folder\n"
    assert main(["pack", "new", str(tmp_path / "x"), "--id", "Not A Slug"]) == 2
    assert "is not a slug" in capsys.readouterr().err and not (tmp_path / "x").exists()


def test_every_problem_at_once_exit_2_and_nothing_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "acme"
    assert main(["pack", "new", str(folder)]) == 0
    rule = folder / "rules" / "no-simply.md"
    rule.write_text(
        rule.read_text(encoding="utf-8").replace('- "Then restart the server."', '- "Then simply restart the server."'),
        encoding="utf-8",
    )
    terms = folder / "terms.yaml"
    terms.write_text(
        terms.read_text(encoding="utf-8").replace("case: preserve\n", "case: preserve\n    colour: red\n"),
        encoding="utf-8",
    )
    capsys.readouterr()
    shown = folder.as_posix()
    expected = (
        f"{shown}/rules/no-simply.md:17:9: pattern matches 'simply' in this must_not_match example\n"
        f"{shown}/terms.yaml:7:5: unknown field 'colour'; allowed here: "
        "avoid, case, language, level, must_match, must_not_match, use, why\n"
    )
    assert main(["pack", "build", str(folder)]) == 2
    assert capsys.readouterr().err == expected + "2 problems; pack module left unchanged\n"
    assert main(["pack", "test", str(folder)]) == 2
    assert capsys.readouterr().err == expected + "2 problems; the pack's examples do not hold\n"
    assert sorted(path.name for path in folder.iterdir()) == ["pack.yaml", "rules", "terms.yaml"]
    assert main(["pack", "build", str(tmp_path / "none")]) == 2
    assert capsys.readouterr().err == f"{(tmp_path / 'none').as_posix()}:1:1: no such pack folder\n1 problem; " + (
        "pack module left unchanged\n"
    )


def test_a_module_that_cannot_be_written_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "acme"
    assert main(["pack", "new", str(folder)]) == 0
    (folder / "_pack_data.py").mkdir()  # something in the module's place
    capsys.readouterr()
    assert main(["pack", "build", "--no-timing", str(folder)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"pack build: cannot write {folder.as_posix()}/_pack_data.py: ") and err.count("\n") == 1


def test_import_vale_writes_a_pack_that_builds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "write-good"
    assert main(["pack", "import-vale", str(WRITE_GOOD), str(out)]) == 0
    report = capsys.readouterr().out
    assert report.startswith(f"write-good: 7 converted, 1 skipped, 0 terms -> {out.as_posix()}")
    assert "skipped write-good.Illusions (repetition)" in report
    assert (out / "pack.yaml").is_file()
    assert main(["pack", "import-vale", str(WRITE_GOOD), str(out)]) == 2  # never over an existing pack
    assert capsys.readouterr().err.startswith("error: ")
    assert main(["pack", "import-vale", str(tmp_path / "no-style"), str(tmp_path / "p"), "--language", "de"]) == 2
    assert not (tmp_path / "p").exists()


def test_the_output_is_that_of_python_m_generator_pack(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from generator.pack import main as module_main

    def both(*arguments: str) -> tuple[tuple[int, str, str], tuple[int, str, str]]:
        runs = []
        for run in (lambda: main(["pack", *arguments]), lambda: module_main(list(arguments))):
            status = run()
            captured = capsys.readouterr()
            runs.append((status, _seconds_out(captured.out), captured.err))
        return runs[0], runs[1]

    acme = str(ROOT / "examples" / "packs" / "acme")
    cli, module = both("test", acme)
    assert cli == module and cli[0] == 0
    cli, module = both("build", "--no-timing", str(tmp_path / "missing"))
    assert cli == module and cli[0] == 2
    cli, module = both("import-vale", str(tmp_path / "no-style"), str(tmp_path / "out"))
    assert cli == module and cli[0] == 2


def _options(parser: argparse.ArgumentParser) -> dict[str, list[tuple[tuple[str, ...], str]]]:
    """Each sub-command of ``parser``: its arguments' flags and destinations."""
    [commands] = [action for action in parser._actions if isinstance(action, argparse._SubParsersAction)]
    return {
        name: [(tuple(action.option_strings), action.dest) for action in sub._actions if action.dest != "help"]
        for name, sub in commands.choices.items()
    }


def test_the_command_line_and_the_module_accept_the_same_arguments() -> None:
    from generator.pack import add_commands

    module = argparse.ArgumentParser()
    add_commands(module.add_subparsers(dest="command"))
    [pack] = [parser for parser in _commands.build_parser("pack")._subparsers._group_actions[0].choices.values()]
    assert _options(pack) == _options(module)
    assert list(_options(pack)) == ["new", "build", "test", "import-vale"]


def test_help_explains_each_command_and_needs_no_compiler(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pack", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())  # as one line: the help wraps at the terminal's width
    assert all(name in out for name in ("new", "build", "test", "import-vale", INSTALL))
    assert main(["pack", "build", "--help"]) == 0
    out = capsys.readouterr().out
    assert "--no-timing" in out and "--retime" in out and "verdicts.txt" in out
    assert main(["pack"]) == 2  # a command is required
    assert "writing-rules pack" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["new", "build", "test", "import-vale"])
def test_without_the_authoring_extra_one_line_says_what_to_install(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "jinja2", None)  # as if not installed: find_spec gives None, import fails
    folders = [str(tmp_path / "in"), str(tmp_path / "out")] if command == "import-vale" else [str(tmp_path / "in")]
    assert main(["pack", command, *folders]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        "writing-rules pack: error: the pack commands need the authoring extra (jinja2, PyYAML, jsonschema; "
        f"missing: jinja2): {INSTALL}\n"
    )
    assert list(tmp_path.iterdir()) == []


def test_without_the_compiler_exit_2_with_what_to_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A writing_rules that runs from no checkout and whose wheel lacks the compiler.
    monkeypatch.setattr(_pack, "_checkout_compiler", lambda: None)
    monkeypatch.setitem(sys.modules, _pack.COMPILER, None)
    assert main(["pack", "test", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("writing-rules pack: error: the rule compiler (writing_rules_compiler) is not installed")
    assert err.endswith(f"reinstall writing-rules with {INSTALL}\n") and err.count("\n") == 1


def _loaded_by(code: str) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", code + "\nimport sys\nprint('MODULES', *sorted(sys.modules))\n"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
        check=True,
    )
    last = done.stdout.strip().splitlines()[-1].split()
    assert last[0] == "MODULES"
    return set(last[1:])


def test_no_command_but_pack_loads_the_compiler_or_the_authoring_extra() -> None:
    page = str(ROOT / "examples" / "getting-started.md")
    code = (
        "import io, contextlib, writing_rules, writing_rules.tools, writing_rules.packs\n"
        "from writing_rules.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):\n"
        f"    main(['scan', '--no-fail', '--no-cache', {page!r}])\n"
        "    main(['rules', '--detail', 'full']); main(['tools']); main(['--help'])\n"
        "    main(['prompt', '--profile', 'public-docs', '--audience', 'a', '--goal', 'g'])\n"
        f"    for name in {sorted(_commands._COMMANDS)!r}:\n"
        "        main([name, '--help'])\n"  # every command's parser, pack's included
        "    main(['pack', 'build', '--help'])\n"
    )
    loaded = _loaded_by(code)
    assert "writing_rules.cli._pack" in loaded and "writing_rules.tools._scanner" in loaded  # they did run
    assert sorted(name for name in BUILD_TIME if name in loaded) == []


def test_a_pack_command_loads_the_compiler_and_its_needs(tmp_path: Path) -> None:
    # What the test above keeps out is what `pack` loads: it cannot pass by naming unused modules.
    folder = str(tmp_path / "acme")
    code = (
        "import io, contextlib\nfrom writing_rules.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    assert main(['pack', 'new', {folder!r}]) == 0\n"
        f"    assert main(['pack', 'build', '--no-timing', {folder!r}]) == 0\n"
    )
    loaded = _loaded_by(code)
    assert sorted(name for name in BUILD_TIME if name not in loaded) == ["generator"]
    assert "writing_rules_compiler._packs" in loaded  # the checkout's generator/, under the compiler's name
