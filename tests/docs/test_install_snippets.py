"""Every install snippet in README and docs/ shows a form that works before the package is on PyPI."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

import writing_rules

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# `pip install "writing-rules…"` or `pip install 'writing-rules[lsp]'`: a form that needs PyPI.
_FROM_PYPI = re.compile(r"pip install [\"']?writing-rules(?:\[\w+\])?(?:==[\d.]+)?[\"']?(?![^\n]*git\+)")
_WORKS_TODAY = re.compile(r"git\+https://\S+@v(\d+\.\d+\.\d+)|writing_rules-(\d+\.\d+\.\d+)-py3-none-any\.whl")


def test_each_pypi_install_form_has_a_form_that_works_today_beside_it() -> None:
    for page in PAGES:
        lines = page.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines):
            if not _FROM_PYPI.search(line):
                continue
            nearby = "\n".join(lines[max(0, number - 3) : number + 4])
            assert _WORKS_TODAY.search(nearby), f"{page.name}:{number + 1}: a PyPI-only install: {line}"
            assert re.search(r"PyPI", nearby), f"{page.name}:{number + 1}: say which form needs PyPI"


def test_pinned_versions_in_the_docs_are_this_release() -> None:
    tag = f"v{writing_rules.__version__}"
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for found in _WORKS_TODAY.finditer(text):
            assert (found.group(1) or found.group(2)) == writing_rules.__version__, (page.name, found.group(0))
        for rev in re.findall(r"^\s*rev: (\S+)", text, re.MULTILINE):
            assert rev == tag, (page.name, rev)
        for uses in re.findall(r"uses: <owner>/writing-rules@([\w.]+)", text):
            assert uses == tag, (page.name, uses)


def test_the_pre_commit_example_pins_this_release() -> None:
    guide = (ROOT / "docs" / "linting.md").read_text(encoding="utf-8")
    (block,) = [body for body in re.findall(r"```yaml\n(.*?)```", guide, re.DOTALL) if "pre-commit" in body]
    (repo,) = yaml.safe_load(block)["repos"]
    assert repo["rev"] == f"v{writing_rules.__version__}"
    assert [hook["id"] for hook in repo["hooks"]] == ["writing-rules"]
