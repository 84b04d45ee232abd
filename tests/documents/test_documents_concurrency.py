"""Read-modify-write appends from many threads and processes: none is lost, none is doubled."""

from __future__ import annotations

import multiprocessing
import threading
from pathlib import Path

import pytest
from documents_stores import make_store

from writing_rules.documents import (
    DirectoryDocumentStore,
    SqliteDocumentStore,
    VersionConflictError,
    create_document_tool_dispatcher,
)

WORKERS = 6
APPENDS = 12


def append_with_retry(store, id: str, token: str) -> int:
    """Append one line with compare-and-set; return how many conflicts it took."""
    conflicts = 0
    while True:
        document = store.read(id)
        try:
            store.write(id, document.content + token + "\n", document.version)
            return conflicts
        except VersionConflictError:
            conflicts += 1


def assert_each_once(content: str, workers: int) -> None:
    lines = content.splitlines()
    expected = {f"w{worker}-{index}" for worker in range(workers) for index in range(APPENDS)}
    assert sorted(lines) == sorted(expected)


@pytest.mark.parametrize("kind", ["memory", "directory", "sqlite"])
def test_threads_appending_with_versions_lose_nothing(kind: str, tmp_path: Path) -> None:
    store = make_store(kind, tmp_path / "store")
    store.create("log.txt", "")
    barrier = threading.Barrier(WORKERS)

    def work(worker: int) -> None:
        barrier.wait()
        for index in range(APPENDS):
            append_with_retry(store, "log.txt", f"w{worker}-{index}")

    threads = [threading.Thread(target=work, args=(worker,)) for worker in range(WORKERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert_each_once(store.read("log.txt").content, WORKERS)


@pytest.mark.parametrize("kind", ["memory", "directory", "sqlite"])
def test_threads_using_write_document_without_expected_version_lose_nothing(kind: str, tmp_path: Path) -> None:
    """write_document compares and sets against the version it read, even when the model names none."""
    store = make_store(kind, tmp_path / "store")
    store.create("log.txt", "")
    dispatcher = create_document_tool_dispatcher(store)
    barrier = threading.Barrier(WORKERS)
    codes: list[str] = []

    def work(worker: int) -> None:
        barrier.wait()
        for index in range(APPENDS):
            while True:
                result = dispatcher.dispatch(
                    {
                        "name": "write_document",
                        "arguments": {
                            "id": "log.txt",
                            "operations": [{"operation": "append", "content": f"w{worker}-{index}\n"}],
                        },
                    }
                )
                if result["ok"]:
                    break
                codes.append(result["error"]["code"])

    threads = [threading.Thread(target=work, args=(worker,)) for worker in range(WORKERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert set(codes) <= {"version-conflict"}
    assert_each_once(store.read("log.txt").content, WORKERS)


def _process_worker(kind: str, location: str, worker: int) -> None:
    store = DirectoryDocumentStore(location) if kind == "directory" else SqliteDocumentStore(location)
    for index in range(APPENDS):
        append_with_retry(store, "log.txt", f"w{worker}-{index}")


@pytest.mark.parametrize("kind", ["directory", "sqlite"])
def test_processes_appending_with_versions_lose_nothing(kind: str, tmp_path: Path) -> None:
    store = make_store(kind, tmp_path / "store")
    store.create("log.txt", "")
    location = str(tmp_path / "store") if kind == "directory" else str(tmp_path / "store" / "documents.sqlite")
    context = multiprocessing.get_context("fork")
    processes = [context.Process(target=_process_worker, args=(kind, location, worker)) for worker in range(4)]
    for process in processes:
        process.start()
    for process in processes:
        process.join(60)
    assert [process.exitcode for process in processes] == [0, 0, 0, 0]
    assert_each_once(store.read("log.txt").content, 4)
