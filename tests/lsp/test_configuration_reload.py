"""The language server reads a configuration (and loads its packs) once, and again when it changes.

Before packs, every lint built a new ``ConfigResolver`` and re-read the TOML on
each keystroke; a pack of 2,000 terms takes 30 to 60 ms to load, which must
not happen per keystroke either.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from pathlib import Path

import pytest

pytest.importorskip("pygls", reason="the lsp extra (pygls) is a test requirement")

from lsprotocol import types

import writing_rules.lint._config_file as config_file
from writing_rules.lsp import create_server
from writing_rules.lsp._linting import WorkspaceConfigs, lint_document, path_of

from .conftest import Session, run

PAGE = "Do it in order to win. It is very fast.\n"


def _codes(linted: object) -> list[str]:
    return sorted(signal.rule_id for signal in linted.signals)  # type: ignore[attr-defined]


def _counting_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    reads: list[str] = []
    original = config_file.read_config

    def counting(path: str, *, required: bool) -> object:
        reads.append(path)
        return original(path, required=required)

    monkeypatch.setattr(config_file, "read_config", counting)
    return reads


def test_the_server_reads_a_configuration_once_not_per_keystroke(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / ".writing-rules.toml").write_text('disable = ["filler"]\n', encoding="utf-8")
    reads = _counting_reads(monkeypatch)
    server = create_server()
    for version in range(1, 6):  # five keystrokes in one document, one in another of the same folder
        linted, _ = server._check((tmp_path / "page.md").as_uri(), version, PAGE + "x" * version)
        assert _codes(linted) == ["nominal-style"]
    server._check((tmp_path / "other.md").as_uri(), 1, PAGE)
    assert len(reads) == 1


def test_a_broken_configuration_is_not_read_again_until_it_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".git").mkdir()
    config = tmp_path / ".writing-rules.toml"
    config.write_text("nosuchkey = 1\n", encoding="utf-8")
    reads = _counting_reads(monkeypatch)
    configs = WorkspaceConfigs([str(tmp_path)])
    uri = (tmp_path / "page.md").as_uri()
    for version in (1, 2, 3):
        linted = lint_document(uri, version, PAGE, configs=configs)
        assert linted.config_error is not None and "unknown key 'nosuchkey'" in linted.config_error
    assert len(reads) == 1
    config.write_text('disable = ["filler"]\n', encoding="utf-8")
    os.utime(config, (1, 1))  # a different modification time, whatever the file system's resolution
    assert configs.stale() == [str(config)]
    assert configs.renew(configs.stale())
    assert _codes(lint_document(uri, 4, PAGE, configs=configs)) == ["nominal-style"]
    assert configs.stale() == []


def test_renewing_forgets_only_what_a_changed_file_can_affect(tmp_path: Path) -> None:
    for folder in ("a", "b"):
        (tmp_path / folder / ".git").mkdir(parents=True)
        (tmp_path / folder / ".writing-rules.toml").write_text('disable = ["filler"]\n', encoding="utf-8")
    configs = WorkspaceConfigs([str(tmp_path / "a"), str(tmp_path / "b")])
    for folder in ("a", "b"):
        lint_document((tmp_path / folder / "page.md").as_uri(), 1, PAGE, configs=configs)
    assert configs.loads == 2
    assert not configs.renew([str(tmp_path / "a" / "page.md")])  # not a configuration file
    assert configs.renew([str(tmp_path / "a" / ".writing-rules.toml")])
    for folder in ("a", "b"):
        lint_document((tmp_path / folder / "page.md").as_uri(), 2, PAGE, configs=configs)
    assert configs.loads == 3  # a's again, b's kept
    assert configs.renew([str(tmp_path / "elsewhere" / "styles" / "acme" / "_pack_data.py")])  # a pack: all
    for folder in ("a", "b"):
        lint_document((tmp_path / folder / "page.md").as_uri(), 3, PAGE, configs=configs)
    assert configs.loads == 5


async def _published_after(client: Session, uri: str, count: int) -> list[types.Diagnostic]:
    while True:
        mine = [params for params in client.published if params.uri == uri]
        if len(mine) > count:
            return list(mine[-1].diagnostics)
        client.arrived.clear()
        await client.arrived.wait()


# Seconds to wait for what the server sends after a notification. Linting a page takes
# milliseconds; the bound only turns a notification the server ignored into a failure.
_BOUND = 60


async def _republished(client: Session, uri: str, notify: Callable[[], None]) -> list[types.Diagnostic]:
    """The diagnostics the server publishes for ``uri`` after ``notify()`` sends a notification."""
    before = len([params for params in client.published if params.uri == uri])
    notify()
    return await asyncio.wait_for(_published_after(client, uri, before), _BOUND)


def _save(client: Session, uri: str) -> Callable[[], None]:
    params = types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(uri))
    return lambda: client.client.text_document_did_save(params)


def _watched_file_event(client: Session, path: Path, change: types.FileChangeType) -> Callable[[], None]:
    params = types.DidChangeWatchedFilesParams(changes=[types.FileEvent(uri=path.as_uri(), type=change)])
    return lambda: client.client.workspace_did_change_watched_files(params)


async def _open_under_filler_disabled(client: Session, root: Path, *uris: str) -> None:
    """Start the session in ``root`` (its configuration disables filler) and open ``PAGE`` as each URI."""
    await client.initialize(root.as_uri())
    for uri in uris:
        client.open(uri, PAGE)
    for uri in uris:
        assert [d.code for d in await client.diagnostics(uri, 1)] == ["nominal-style"]


def test_a_configuration_changed_on_disk_counts_on_save_and_on_a_watched_file_event(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    config = tmp_path / ".writing-rules.toml"
    config.write_text('disable = ["filler"]\n', encoding="utf-8")
    page, other = (tmp_path / "page.md").as_uri(), (tmp_path / "other.md").as_uri()

    async def session(client: Session) -> None:
        await _open_under_filler_disabled(client, tmp_path, page, other)
        # Changed on disk: typing does not read it again ...
        config.write_text('disable = ["nominal-style"]\n', encoding="utf-8")
        os.utime(config, (1, 1))
        client.change(page, PAGE + "More.\n", 2)
        assert [d.code for d in await client.diagnostics(page, 2)] == ["nominal-style"]
        # ... saving a document does: every open document is checked with it.
        notify = _save(client, page)
        assert [d.code for d in await _republished(client, other, notify)] == ["filler"]
        # A watched-file event (the client watches what the server registered) does too.
        config.write_text("", encoding="utf-8")
        notify = _watched_file_event(client, config, types.FileChangeType.Changed)
        found = await _republished(client, other, notify)
        assert sorted(d.code for d in found) == ["filler", "nominal-style"]

    run(session)


def test_a_nearer_configuration_created_outside_the_editor_counts_on_its_watched_file_event(tmp_path: Path) -> None:
    # A .writing-rules.toml created in a subfolder (by a checkout, a script, another editor): the
    # documents below it take it as scan does, without a save; the others keep theirs.
    (tmp_path / ".git").mkdir()
    (tmp_path / ".writing-rules.toml").write_text('disable = ["filler"]\n', encoding="utf-8")
    (tmp_path / "guides").mkdir()
    near = tmp_path / "guides" / ".writing-rules.toml"
    page, top = (tmp_path / "guides" / "page.md").as_uri(), (tmp_path / "top.md").as_uri()

    async def session(client: Session) -> None:
        await _open_under_filler_disabled(client, tmp_path, page, top)
        near.write_text('disable = ["nominal-style"]\n', encoding="utf-8")
        notify = _watched_file_event(client, near, types.FileChangeType.Created)
        assert [d.code for d in await _republished(client, page, notify)] == ["filler"]
        client.change(top, PAGE + "More.\n", 2)
        assert [d.code for d in await client.diagnostics(top, 2)] == ["nominal-style"]  # not below it
        # Deleted again: the page goes back to the folder's configuration.
        near.unlink()
        notify = _watched_file_event(client, near, types.FileChangeType.Deleted)
        found = await _republished(client, page, notify)
        assert [d.code for d in found] == ["nominal-style"]

    run(session)


def test_a_nearer_configuration_created_outside_the_editor_counts_on_save_without_file_watching(
    tmp_path: Path,
) -> None:
    # A client that cannot watch files (no dynamic registration): a save is the moment a changed
    # configuration counts, and a configuration that appeared nearer the saved document is one.
    (tmp_path / ".git").mkdir()
    (tmp_path / ".writing-rules.toml").write_text('disable = ["filler"]\n', encoding="utf-8")
    (tmp_path / "guides").mkdir()
    page = (tmp_path / "guides" / "page.md").as_uri()

    async def session(client: Session) -> None:
        await _open_under_filler_disabled(client, tmp_path, page)
        (tmp_path / "guides" / "pyproject.toml").write_text(
            '[tool.writing-rules]\ndisable = ["nominal-style"]\n', encoding="utf-8"
        )
        notify = _save(client, page)
        assert [d.code for d in await _republished(client, page, notify)] == ["filler"]

    run(session)


def test_the_server_asks_to_watch_configuration_files_and_packs(tmp_path: Path) -> None:
    async def session(client: Session) -> None:
        registered: list[types.RegistrationParams] = []

        @client.client.feature(types.CLIENT_REGISTER_CAPABILITY)
        def register(params: types.RegistrationParams) -> None:
            registered.append(params)
            client.arrived.set()

        capabilities = types.ClientCapabilities(
            workspace=types.WorkspaceClientCapabilities(
                did_change_watched_files=types.DidChangeWatchedFilesClientCapabilities(dynamic_registration=True)
            )
        )
        await client.client.initialize_async(
            types.InitializeParams(capabilities=capabilities, root_uri=tmp_path.as_uri())
        )
        client.client.initialized(types.InitializedParams())
        while not registered:
            client.arrived.clear()
            await asyncio.wait_for(client.arrived.wait(), _BOUND)
        (registration,) = registered[0].registrations
        assert registration.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES
        globs = sorted(watcher["globPattern"] for watcher in registration.register_options["watchers"])
        assert globs == ["**/.writing-rules.toml", "**/_pack_data.py", "**/pack.yaml", "**/pyproject.toml"]

    run(session)


def test_a_save_notices_a_rebuilt_pack_and_a_pack_built_since_it_was_missing(tmp_path: Path) -> None:
    import shutil

    acme = Path(__file__).resolve().parents[2] / "examples" / "packs" / "acme"
    (tmp_path / ".git").mkdir()
    (tmp_path / ".writing-rules.toml").write_text('packs = ["./styles/acme"]\n', encoding="utf-8")
    uri = (tmp_path / "page.md").as_uri()
    text = "Please log in first.\n"
    configs = WorkspaceConfigs([str(tmp_path)])
    # Not there yet: the configuration cannot be used, and a save tries it again.
    missing = lint_document(uri, 1, text, configs=configs)
    assert missing.config_error is not None and "no such pack folder" in missing.config_error
    shutil.copytree(acme, tmp_path / "styles" / "acme", ignore=shutil.ignore_patterns("__pycache__"))
    assert configs.stale() == [str(tmp_path / ".writing-rules.toml")]
    configs.renew(configs.stale())
    assert _codes(lint_document(uri, 2, text, configs=configs)) == ["acme/terms"]
    assert configs.stale() == []
    # Rebuilt (its module rewritten): the next save reads the pack again.
    module = tmp_path / "styles" / "acme" / "_pack_data.py"
    os.utime(module, (1, 1))
    assert [os.path.basename(path) for path in configs.stale()] == ["_pack_data.py"]


def test_a_save_notices_a_rebuilt_pack_named_by_its_bare_folder_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``packs = ["acme"]`` loads the folder ``acme`` next to the configuration (no installed pack of
    that name): rebuilding it must count on the next save, as for ``./acme``."""
    import shutil

    acme = Path(__file__).resolve().parents[2] / "examples" / "packs" / "acme"
    (tmp_path / ".git").mkdir()
    shutil.copytree(acme, tmp_path / "acme", ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / ".writing-rules.toml").write_text('packs = ["acme"]\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # as an editor starts the server: in the workspace folder
    uri = (tmp_path / "page.md").as_uri()
    configs = WorkspaceConfigs([str(tmp_path)])
    assert _codes(lint_document(uri, 1, "Please log in first.\n", configs=configs)) == ["acme/terms"]
    assert configs.stale() == []
    os.utime(tmp_path / "acme" / "_pack_data.py", (1, 1))  # rebuilt
    assert configs.stale() == [str(tmp_path / "acme" / "_pack_data.py")]


def test_a_broken_configuration_in_a_folder_with_a_colon_is_tried_again_on_save(tmp_path: Path) -> None:
    """The error names the file as ``/path/a:b/.writing-rules.toml:1: ...`` (absolute: outside the
    working folder; on Windows every absolute path has a colon): the file is the part before the
    line number, not before the first colon."""
    workspace = tmp_path / "a:b"
    (workspace / ".git").mkdir(parents=True)
    config = workspace / ".writing-rules.toml"
    config.write_text("nosuchkey = 1\n", encoding="utf-8")
    configs = WorkspaceConfigs([str(workspace)])
    uri = (workspace / "page.md").as_uri()
    linted = lint_document(uri, 1, PAGE, configs=configs)
    assert linted.config_error is not None and linted.config_error.startswith(str(config))
    assert configs.stale() == [str(config)]  # broken: a save tries it again
    config.write_text('disable = ["filler"]\n', encoding="utf-8")
    assert configs.renew(configs.stale())
    assert _codes(lint_document(uri, 2, PAGE, configs=configs)) == ["nominal-style"]


def test_a_path_with_a_nul_character_lints_without_a_configuration(tmp_path: Path) -> None:
    # A client's URI may hold %00 in a folder's name: no file can have that path, so no
    # configuration applies; looking for a nearer one must not fail the document's lint.
    (tmp_path / ".git").mkdir()
    configs = WorkspaceConfigs([str(tmp_path)])
    path = path_of((tmp_path / "a").as_uri() + "%00b/page.md")
    assert path is not None and "\0" in path
    assert configs.config_for(path) == (None, None)
    assert configs.stale() == []
    linted = lint_document(Path(path).as_uri(), 1, PAGE, configs=configs)
    assert linted.config_error is None and {signal.rule_id for signal in linted.signals} == {"filler", "nominal-style"}
