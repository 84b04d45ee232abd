"""Read-modify-write appends from many threads and processes: none is lost, none is doubled."""

from __future__ import annotations

import multiprocessing
import threading
from typing import Any

import pytest
from documents_stores import SHARED_KINDS, STORE_KINDS, StoreFactory, open_store

from writing_rules.documents import VersionConflictError, create_document_tool_dispatcher

WORKERS = 6
APPENDS = 12
# The lost-update test of the issue: 4 processes, each with its own store (and connection), 25 appends each.
PROCESSES = 4
PROCESS_APPENDS = 25


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


def assert_each_once(content: str, workers: int, appends: int = APPENDS) -> None:
    lines = content.splitlines()
    expected = {f"w{worker}-{index}" for worker in range(workers) for index in range(appends)}
    assert len(lines) == workers * appends
    assert sorted(lines) == sorted(expected)
    for worker in range(workers):  # each writer's appends arrive in its own order
        own = [line for line in lines if line.startswith(f"w{worker}-")]
        assert own == [f"w{worker}-{index}" for index in range(appends)]


@pytest.mark.parametrize("kind", STORE_KINDS)
def test_threads_appending_with_versions_lose_nothing(kind: str, store_factory: StoreFactory) -> None:
    store = store_factory.open(kind)
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


@pytest.mark.parametrize("kind", STORE_KINDS)
def test_threads_using_write_document_without_expected_version_lose_nothing(
    kind: str, store_factory: StoreFactory
) -> None:
    """write_document compares and sets against the version it read, even when the model names none."""
    store = store_factory.open(kind)
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


def _process_worker(kind: str, location: str, worker: int, conflicts: Any) -> None:
    store = open_store(kind, location)
    retries = 0
    for index in range(PROCESS_APPENDS):
        retries += append_with_retry(store, "log.txt", f"w{worker}-{index}")
    conflicts[worker] = retries


@pytest.mark.parametrize("kind", SHARED_KINDS)
def test_processes_appending_with_versions_lose_nothing(kind: str, store_factory: StoreFactory) -> None:
    """4 processes x 25 read-modify-write appends, retrying on version-conflict: all 100 arrive, once each."""
    store = store_factory.open(kind)
    store.create("log.txt", "")
    context = multiprocessing.get_context("fork")
    conflicts = context.Array("i", PROCESSES)
    processes = [
        context.Process(target=_process_worker, args=(kind, store_factory.location(kind), worker, conflicts))
        for worker in range(PROCESSES)
    ]
    for process in processes:
        process.start()
    for process in processes:
        process.join(120)
    assert [process.exitcode for process in processes] == [0] * PROCESSES
    assert_each_once(store.read("log.txt").content, PROCESSES, PROCESS_APPENDS)
    if kind != "directory":  # a database keeps one version per append, and no other
        assert len(store.history("log.txt")) == PROCESSES * PROCESS_APPENDS + 1
