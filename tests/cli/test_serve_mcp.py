"""``serve-mcp`` refuses to start with a clear message, before any protocol traffic."""

from __future__ import annotations

import importlib.metadata
import sys

import pytest

from writing_rules.cli import main


def _without_sdk(monkeypatch: pytest.MonkeyPatch) -> None:
    # None in sys.modules makes an import fail as if the package were not installed;
    # submodules too, since an earlier test may have imported them.
    for name in [name for name in sys.modules if name == "mcp" or name.startswith("mcp.")] + ["mcp"]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.delitem(sys.modules, "writing_rules.mcp._server", raising=False)


def test_without_the_extra_it_says_what_to_install(monkeypatch, capsys) -> None:
    _without_sdk(monkeypatch)
    assert main(["serve-mcp", "--audience", "New admins", "--goal", "Install it"]) == 2
    err = capsys.readouterr().err
    assert "install writing-rules[mcp]" in err and "Traceback" not in err


def test_an_sdk_of_another_major_version_is_named(monkeypatch, capsys) -> None:
    real = importlib.metadata.version
    monkeypatch.setattr(importlib.metadata, "version", lambda name: "1.9.0" if name == "mcp" else real(name))
    assert main(["serve-mcp"]) == 2
    err = capsys.readouterr().err
    assert "1.9.0" in err and "install writing-rules[mcp]" in err


def test_no_sdk_installed_at_all(monkeypatch, capsys) -> None:
    def missing(name: str) -> str:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", missing)
    assert main(["serve-mcp"]) == 2
    assert "install writing-rules[mcp]" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--audience", "New admins"], "--audience and --goal together"),
        (["--goal", "Install it"], "--audience and --goal together"),
        (["--audience", " ", "--goal", "Install it"], "--audience"),
        (["--documents", "no-such-folder"], "--documents"),
    ],
)
def test_bad_options_are_usage_errors(options, message, tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    _without_sdk(monkeypatch)  # the options are judged first, extra or not
    assert main(["serve-mcp", *options]) == 2
    assert message in capsys.readouterr().err


def test_serve_mcp_is_listed_in_the_help(capsys) -> None:
    assert main(["--help"]) == 0
    assert "serve-mcp" in capsys.readouterr().out


def test_document_policy_options_need_documents(monkeypatch, capsys) -> None:
    _without_sdk(monkeypatch)
    assert main(["serve-mcp", "--documents-allow-hidden"]) == 2
    assert "need --documents" in capsys.readouterr().err
