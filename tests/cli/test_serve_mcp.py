"""``serve-mcp`` refuses to start with a clear message, before any protocol traffic."""

from __future__ import annotations

import importlib.metadata
import sys
from pathlib import Path

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


# -- issue 25, finding 1: what serve-mcp --documents lets a model write -----------------------------------


def _served_router(monkeypatch: pytest.MonkeyPatch, options: list[str]) -> object:
    """The router serve-mcp would serve, caught instead of served over stdio."""
    pytest.importorskip("anyio")
    import writing_rules.mcp

    served: list[object] = []

    async def serve(router: object) -> None:
        served.append(router)

    monkeypatch.setattr(writing_rules.mcp, "load_stdio_server", lambda: serve)
    assert main(["serve-mcp", *options]) == 0
    return served[0]


@pytest.fixture
def site(tmp_path: Path) -> Path:
    for name in ("CMakeLists.txt", "requirements.txt", "docs/page.mdx", "docs/_templates/x.html", "docs/guide.md"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("original\n")
    return tmp_path


def _append(router: object, id: str) -> dict:
    operations = [{"operation": "append", "content": "execute_process(COMMAND touch PWNED)\n"}]
    return router.envelope("write_document", {"id": id, "operations": operations})  # type: ignore[attr-defined]


@pytest.mark.parametrize("id", ["CMakeLists.txt", "requirements.txt", "docs/page.mdx", "docs/_templates/x.html"])
def test_serve_mcp_refuses_a_models_write_to_code_by_default(monkeypatch, site: Path, id: str) -> None:
    router = _served_router(monkeypatch, ["--no-config", "--documents", str(site)])
    result = _append(router, id)
    assert result["ok"] is False and result["error"]["code"] == "invalid-arguments"
    assert (site / id).read_text() == "original\n"
    assert _append(router, "docs/guide.md")["ok"] is True


def test_serve_mcp_serves_mdx_only_when_the_host_names_it(monkeypatch, site: Path) -> None:
    options = ["--no-config", "--documents", str(site), "--documents-include", "*.mdx"]
    router = _served_router(monkeypatch, [*options, "--documents-include", "CMakeLists.txt"])
    assert _append(router, "docs/page.mdx")["ok"] is True
    assert _append(router, "CMakeLists.txt")["error"]["code"] == "invalid-arguments"
    assert (site / "CMakeLists.txt").read_text() == "original\n"
