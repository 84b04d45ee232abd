"""``serve-mcp`` over a real stdio connection, driven as a hostile client would: raw JSON-RPC lines."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

import writing_rules

try:
    import mcp  # noqa: F401  (the server needs it)
except ImportError:
    # CI installs the extra: there a missing SDK is a failure, not a skip.
    if os.environ.get("CI", "").lower() == "true":
        raise
    pytest.skip("needs the mcp extra: pip install 'writing-rules[mcp]'", allow_module_level=True)

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}},
}


class Connection:
    """One server process; ``send`` writes a line, ``receive`` reads one message or None after a timeout."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process
        self._last_id = 100

    def next_id(self) -> int:
        """A request id not used before on this connection (the tests' own ids are below 100)."""
        self._last_id += 1
        return self._last_id

    def send(self, message: object) -> None:
        line = message if isinstance(message, str) else json.dumps(message)
        assert self.process.stdin is not None
        self.process.stdin.write(line.encode("utf-8", "surrogatepass") + b"\n")
        self.process.stdin.flush()

    def receive(self, timeout: float = 10.0) -> Any:
        assert self.process.stdout is not None
        ready, _, _ = select.select([self.process.stdout], [], [], timeout)
        if not ready:
            return None
        line = self.process.stdout.readline()
        return json.loads(line) if line else None

    def call(self, id: int, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        self.send(
            {"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": name, "arguments": arguments}}
        )
        reply = self.receive()
        assert reply is not None and reply["id"] == id
        return reply["result"]["structuredContent"]


def _make_checkout(folder: Path) -> Path:
    (folder / ".git").mkdir()
    (folder / ".git" / "config").write_text("[core]\n")
    (folder / ".env").write_text("TOKEN=secret\n")
    (folder / "guide.md").write_text("# Guide\n")
    return folder


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    return _make_checkout(tmp_path)


@contextmanager
def _serve(checkout: Path) -> Iterator[Connection]:
    source_root = str(Path(writing_rules.__file__).resolve().parent.parent)
    process = subprocess.Popen(
        [sys.executable, "-m", "writing_rules", "serve-mcp", "--documents", str(checkout)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": source_root},
    )
    connection = Connection(process)
    try:
        connection.send(INITIALIZE)
        assert connection.receive(30)["id"] == 0
        connection.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        yield connection
    finally:
        assert process.stdin is not None
        process.stdin.close()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture
def connection(checkout: Path) -> Iterator[Connection]:
    """A server of its own, for a test that changes or inspects its checkout."""
    with _serve(checkout) as connection:
        yield connection


@pytest.fixture(scope="module")
def one_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Connection]:
    """One server for the malformed-message tests: each takes a bad line, then a good call.

    A server start costs about a second of CPU (the SDK's imports); one connection also shows
    that every bad line in turn leaves the same session answering.
    """
    with _serve(_make_checkout(tmp_path_factory.mktemp("checkout"))) as connection:
        yield connection


def test_the_git_config_attack_is_refused_over_stdio(connection: Connection, checkout: Path) -> None:
    attack = [{"operation": "append", "content": '[core]\n\tfsmonitor = "touch PWNED; false"\n'}]
    result = connection.call(1, "write_document", {"id": ".git/config", "operations": attack})
    assert result["error"]["code"] == "invalid-arguments"
    assert (checkout / ".git" / "config").read_text() == "[core]\n"
    secret = connection.call(2, "read_document", {"id": ".env"})
    assert secret["error"]["code"] == "invalid-arguments" and "secret" not in json.dumps(secret)
    assert connection.call(3, "read_document", {"id": "guide.md"})["data"]["content"] == "# Guide\n"


@pytest.mark.parametrize(
    ("line", "code", "id"),
    [
        ("{not json", -32700, None),
        ('{"jsonrpc": "2.0", "id": 5, "method": "tools/list"', -32700, None),
        ("[1, 2]", -32600, None),
        ("42", -32600, None),
        ('{"jsonrpc": "2.0", "id": {"x": 1}, "method": "tools/list"}', -32600, None),
        ('{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": [1, 2]}', -32602, 7),
        ('{"jsonrpc": "1.0", "id": 8, "method": "tools/list"}', -32600, 8),
        ('{"id": 9}', -32600, 9),
        ('{"jsonrpc": "2.0", "id": "ten", "method": 5}', -32600, "ten"),
        ("[" * 100_000, -32700, None),
    ],
    ids=[
        *("garbage", "cut", "batch", "number", "object-id"),
        *("params-array", "version", "no-method", "method-type", "deep"),
    ],
)
def test_malformed_messages_get_a_json_rpc_error(one_server: Connection, line: str, code: int, id: object) -> None:
    connection = one_server
    connection.send(line)
    reply = connection.receive()
    assert reply is not None, "no answer: a client would hang until its own timeout"
    assert reply["jsonrpc"] == "2.0" and reply["id"] == id
    assert reply["error"]["code"] == code
    # The connection still works afterwards (a request id of its own on the shared connection).
    assert connection.call(connection.next_id(), "read_document", {"id": "guide.md"})["data"]["content"] == "# Guide\n"


def test_a_line_that_is_not_utf8_is_a_parse_error(one_server: Connection) -> None:
    connection = one_server
    assert connection.process.stdin is not None
    connection.process.stdin.write(b'{"jsonrpc": "2.0", "id": 1, "method": "\xff"}\n')
    connection.process.stdin.flush()
    reply = connection.receive()
    assert reply is not None and reply["error"]["code"] in (-32700, -32600, -32601)
    assert connection.call(connection.next_id(), "read_document", {"id": "guide.md"})["data"]["content"] == "# Guide\n"


def test_build_and_template_files_are_refused_over_stdio(connection: Connection, checkout: Path) -> None:
    """Issue 25, finding 1: appending execute_process to CMakeLists.txt ran code on the next cmake."""
    for name in ("CMakeLists.txt", "requirements.txt", "page.mdx", "_templates/x.html"):
        (checkout / name).parent.mkdir(exist_ok=True)
        (checkout / name).write_text("original\n")
    attack = [{"operation": "append", "content": "execute_process(COMMAND touch PWNED)\n"}]
    for index, name in enumerate(("CMakeLists.txt", "requirements.txt", "page.mdx", "_templates/x.html"), 1):
        result = connection.call(index, "write_document", {"id": name, "operations": attack})
        assert result["error"]["code"] == "invalid-arguments"
        assert (checkout / name).read_text() == "original\n"
