"""What a directory store serves a model by default (issue 25, finding 1).

Prose documents that nothing executes are served; ``*.mdx`` and ``*.html`` only
when the host names them; files that a build, package manager or docs generator
reads as code or configuration never, whatever their extension. A model that
appended ``execute_process(COMMAND touch PWNED)`` to ``CMakeLists.txt`` ran code
on the next ``cmake``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from writing_rules.documents import (
    DOCUMENTATION_FILES,
    EXCLUDED_FILES,
    DirectoryDocumentStore,
    DocumentNotFoundError,
    InvalidDocumentArgumentsError,
    create_document_tool_dispatcher,
)

ATTACK = "\nexecute_process(COMMAND touch PWNED)\n"

# Files a build, package manager or docs generator reads as code or configuration.
EXECUTED = [
    "CMakeLists.txt",
    "src/CMakeLists.txt",
    "cmakelists.TXT",
    "requirements.txt",
    "requirements-dev.txt",
    "docs/requirements.txt",
    "dev-requirements.txt",
    "constraints.txt",
    "robots.txt",
    "LICENSE.md",
    "LICENSE.txt",
    "COPYING.txt",
    "CODEOWNERS",
    "docs/_templates/x.html",
    "docs/_templates/layout.md",
    "templates/page.md",
    "docs/_ext/notes.txt",
    "node_modules/pkg/README.md",
    "vendor/lib/README.md",
    "lib/site-packages/pkg/README.md",
    # pip reads a requirements folder's files (``-r requirements/dev.txt``: any index, any sdist's
    # setup.py), and an editable install's metadata is read from the tree (entry points name code).
    "requirements/dev.txt",
    "requirements/base.txt",
    "constraints/pins.txt",
    "src/pkg.egg-info/entry_points.txt",
    "src/pkg.egg-info/requires.txt",
    "pkg.dist-info/entry_points.txt",
]
# Served only when the host names them: an .mdx file's import/export runs when the site builds.
NAMED_ONLY = ["docs/page.mdx", "docs/page.html", "docs/page.htm"]


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    for id in [*EXECUTED, *NAMED_ONLY, "docs/guide.md", "docs/notes.txt", "docs/page.rst", "docs/a.adoc"]:
        (root / id).parent.mkdir(parents=True, exist_ok=True)
        (root / id).write_text("original\n")
    return root


def _write(dispatcher: object, id: str) -> dict:
    operations = [{"operation": "append", "content": ATTACK}]
    return dispatcher.dispatch({"name": "write_document", "arguments": {"id": id, "operations": operations}})  # type: ignore[attr-defined]


@pytest.mark.parametrize("id", [*EXECUTED, *NAMED_ONLY])
def test_a_model_cannot_write_or_read_build_dependency_template_or_mdx_files_by_default(
    checkout: Path, id: str
) -> None:
    dispatcher = create_document_tool_dispatcher(DirectoryDocumentStore(checkout))
    for result in (_write(dispatcher, id), dispatcher.dispatch({"name": "read_document", "arguments": {"id": id}})):
        assert result["ok"] is False
        assert result["error"]["code"] == "invalid-arguments"
        assert id in result["error"]["message"]
    assert (checkout / id).read_text() == "original\n"


@pytest.mark.parametrize("id", ["docs/guide.md", "docs/notes.txt", "docs/page.rst", "docs/a.adoc"])
def test_prose_documents_are_served_by_default(checkout: Path, id: str) -> None:
    dispatcher = create_document_tool_dispatcher(DirectoryDocumentStore(checkout))
    assert _write(dispatcher, id)["ok"] is True
    assert (checkout / id).read_text() == "original\n" + ATTACK


def test_default_documentation_files_are_prose_only() -> None:
    assert DOCUMENTATION_FILES == ("*.md", "*.markdown", "*.rst", "*.adoc", "*.txt")


def test_the_host_names_mdx_and_html_on_purpose(checkout: Path) -> None:
    store = DirectoryDocumentStore(checkout, include=(*DOCUMENTATION_FILES, "*.mdx", "*.html"))
    store.write("docs/page.mdx", "new\n")
    store.write("docs/page.html", "new\n")
    assert (checkout / "docs" / "page.mdx").read_text() == "new\n"
    with pytest.raises(InvalidDocumentArgumentsError, match=r"\*\.htm\b"):
        store.read("docs/page.htm")  # named .html, not .htm


@pytest.mark.parametrize("id", ["CMakeLists.txt", "requirements.txt", "docs/_templates/x.html"])
def test_naming_an_excluded_file_in_include_does_not_serve_it(checkout: Path, id: str) -> None:
    store = DirectoryDocumentStore(checkout, include=("*",))
    with pytest.raises(InvalidDocumentArgumentsError, match="code or configuration"):
        store.write(id, ATTACK)
    assert (checkout / id).read_text() == "original\n"


def test_the_host_lifts_the_exclusions_only_explicitly(checkout: Path) -> None:
    store = DirectoryDocumentStore(checkout, include=("*",), exclude=())
    store.write("CMakeLists.txt", "new\n")
    assert (checkout / "CMakeLists.txt").read_text() == "new\n"
    narrower = DirectoryDocumentStore(checkout, exclude=(*EXCLUDED_FILES, "guide.md", "drafts/"))
    with pytest.raises(InvalidDocumentArgumentsError, match=r"guide\.md"):
        narrower.read("docs/guide.md")
    (checkout / "drafts").mkdir()
    (checkout / "drafts" / "x.md").write_text("x")
    with pytest.raises(InvalidDocumentArgumentsError):
        narrower.read("drafts/x.md")
    assert narrower.read("docs/notes.txt").content == "original\n"


def test_a_symlink_from_a_served_name_to_an_excluded_file_is_refused(checkout: Path) -> None:
    (checkout / "docs" / "build.md").symlink_to(checkout / "CMakeLists.txt")
    (checkout / "docs" / "tpl").symlink_to(checkout / "docs" / "_templates")
    store = DirectoryDocumentStore(checkout)
    with pytest.raises(InvalidDocumentArgumentsError, match="code or configuration"):
        store.write("docs/build.md", ATTACK)
    (checkout / "docs" / "_templates" / "inner.md").write_text("x")
    with pytest.raises(InvalidDocumentArgumentsError):
        store.read("docs/tpl/inner.md")
    assert (checkout / "CMakeLists.txt").read_text() == "original\n"


def test_prose_in_a_requirements_folder_is_served_but_its_pip_files_are_not(tmp_path: Path) -> None:
    # pip reads requirements/*.txt; a product's requirement documents (requirements/login.md) are prose.
    for id in ("docs/requirements/login.md", "requirements/dev.txt", "docs/requirements/sub/x.txt"):
        (tmp_path / id).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / id).write_text("original\n")
    store = DirectoryDocumentStore(tmp_path)
    assert store.read("docs/requirements/login.md").content == "original\n"
    for id in ("requirements/dev.txt", "docs/requirements/sub/x.txt"):
        with pytest.raises(InvalidDocumentArgumentsError, match="requirements"):
            store.read(id)
    # A host's own pattern of that form: a file name under a folder name.
    narrower = DirectoryDocumentStore(tmp_path, exclude=(*EXCLUDED_FILES, "docs/*.md"))
    with pytest.raises(InvalidDocumentArgumentsError):
        narrower.read("docs/requirements/login.md")


def test_create_follows_the_exclusions(checkout: Path) -> None:
    store = DirectoryDocumentStore(checkout)
    for id in ("new/CMakeLists.txt", "new/_templates/page.md", "new/page.mdx"):
        with pytest.raises(InvalidDocumentArgumentsError):
            store.create(id, "x")
    assert not (checkout / "new").exists()


@pytest.mark.parametrize(
    ("options", "error"),
    [
        ({"exclude": "CMakeLists.txt"}, TypeError),
        ({"exclude": ("",)}, TypeError),
        ({"exclude": (3,)}, TypeError),
        ({"exclude": ("a/b/c",)}, ValueError),
        ({"exclude": ("a/b/",)}, ValueError),
        ({"exclude": ("/b",)}, ValueError),
        ({"exclude": ("a//",)}, ValueError),
        ({"exclude": ("a/",)}, None),
        ({"exclude": ("a/*.txt",)}, None),
        ({"exclude": ("/",)}, ValueError),
    ],
)
def test_exclude_is_checked_when_the_store_is_made(tmp_path: Path, options: dict, error: type | None) -> None:
    if error is None:
        DirectoryDocumentStore(tmp_path, **options)
        return
    with pytest.raises(error):
        DirectoryDocumentStore(tmp_path, **options)


_NAME = st.sampled_from(
    ["docs", "_templates", "Templates", "vendor", "CMakeLists.txt", "requirements-x.txt", "a.md", "b.mdx", "c.TXT"]
)


@pytest.fixture(scope="module")
def empty_store(tmp_path_factory: pytest.TempPathFactory) -> DirectoryDocumentStore:
    return DirectoryDocumentStore(tmp_path_factory.mktemp("empty"))


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(parts=st.lists(_NAME, min_size=1, max_size=4))
def test_the_policy_judges_the_id_before_the_file_system(empty_store: DirectoryDocumentStore, parts: list[str]) -> None:
    lowered = [part.lower() for part in parts]
    served = (
        lowered[-1].endswith((".md", ".txt"))
        and lowered[-1] not in {"cmakelists.txt", "requirements-x.txt"}
        and not set(lowered[:-1]) & {"_templates", "templates", "vendor"}
    )
    with pytest.raises(DocumentNotFoundError if served else InvalidDocumentArgumentsError):
        empty_store.read("/".join(parts))
