"""The field evaluation's split (benchmarks/field_quality.py): held-out pages are never scanned.

The lists that hold pages out (``heldout.txt``, ``heldout-next.txt``) name pages by their path
under ``corpus/<lang>``. A name that is not a page of the corpus (a typo, a language prefix, a
byte order mark) holds nothing out, and the page it meant would be scanned as a development page.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.benchmark_script import load_benchmark_script


@pytest.fixture
def field_quality(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    module = load_benchmark_script(monkeypatch, "field_quality.py")
    field = tmp_path / "field_eval"
    for language in ("en", "de"):
        for page in ("guide/01-start.md", "guide/02-install.md", "other/03-use.mdx"):
            path = field / "corpus" / language / page
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("# A page\n\nSome text.\n", encoding="utf-8")
    monkeypatch.setattr(module, "FIELD", field)
    monkeypatch.setattr(module, "CORPUS", field / "corpus")
    return module


def _write_list(module: ModuleType, name: str, text: str, encoding: str = "utf-8") -> None:
    (module.FIELD / name).write_text(text, encoding=encoding)


@pytest.mark.parametrize("name", ["heldout.txt", "heldout-next.txt"])
def test_the_pages_a_list_holds_out_are_in_no_scanned_part(field_quality: ModuleType, name: str) -> None:
    _write_list(field_quality, name, "guide/02-install.md\nother/03-use.mdx\n")
    scanned = {page for part in ("dev", "annotated") for page in field_quality.pages(part)}
    assert scanned == {"guide/01-start.md"}
    expected = ["guide/02-install.md", "other/03-use.mdx"] if name == "heldout.txt" else []
    assert field_quality.pages("heldout") == expected


@pytest.mark.parametrize("name", ["heldout.txt", "heldout-next.txt"])
@pytest.mark.parametrize("listed", ["guide/02-instal.md", "en/guide/02-install.md", "./guide/02-install.md"])
def test_a_list_naming_no_page_of_the_corpus_is_refused(field_quality: ModuleType, name: str, listed: str) -> None:
    _write_list(field_quality, name, f"guide/01-start.md\n{listed}\n")
    for part in ("dev", "heldout", "annotated"):
        with pytest.raises(field_quality.FieldDataError, match=f"{name}.*{listed}"):
            field_quality.pages(part)


def test_a_list_saved_with_a_byte_order_mark_still_holds_its_first_page_out(field_quality: ModuleType) -> None:
    _write_list(field_quality, "heldout.txt", "guide/02-install.md\n", encoding="utf-8-sig")
    assert "guide/02-install.md" not in field_quality.pages("dev")
    assert field_quality.pages("heldout") == ["guide/02-install.md"]


def test_a_relative_src_measures_that_checkout_not_the_installed_package(
    field_quality: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The CLI runs in corpus/<lang>: a relative --src (``--src src`` in another checkout) put on
    # PYTHONPATH as it was named found nothing there, and the installed package was measured.
    checkout = tmp_path / "checkout"
    (checkout / "src" / "writing_rules").mkdir(parents=True)
    (checkout / "src" / "writing_rules" / "__init__.py").write_text("", encoding="utf-8")
    runs: list[dict[str, Any]] = []

    def run(command: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
        runs.append(kwargs)
        return subprocess.CompletedProcess(command, 0, "[]", "")

    monkeypatch.setattr(field_quality.subprocess, "run", run)
    monkeypatch.chdir(checkout)
    assert field_quality.scan("en", ["guide/01-start.md"], "warning", Path("src")) == []
    (kwargs,) = runs
    searched = kwargs["env"]["PYTHONPATH"].split(os.pathsep)[0]
    assert (Path(kwargs["cwd"]) / searched).resolve() == (checkout / "src").resolve()


def test_a_src_without_the_package_is_refused(field_quality: ModuleType, tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as exit_info:
        field_quality.main(["--src", str(tmp_path)])
    assert exit_info.value.code == 2
