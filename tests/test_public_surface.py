"""The public surface of each subpackage, listed so that a change to it is deliberate.

Each lazily exported name is declared in a subpackage's ``__init__`` in its map
(name -> home module, what ``lazy_exports`` loads), in ``__all__`` and, for type
checkers, in the ``TYPE_CHECKING`` imports: the three must agree.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "writing_rules"

SURFACE = {
    "adapters": [
        "AdapterError",
        "anthropic_tool_result",
        "anthropic_tools",
        "mcp_call_result",
        "mcp_tools",
        "openai_strict_arguments",
        "openai_tools",
    ],
    "cli": ["main"],
    "packs": [
        "Catalog",
        "ENTRY_POINT_GROUP",
        "MODULE_NAME",
        "PACK_FORMAT",
        "Pack",
        "PackError",
        "catalog_for",
        "load_pack",
        "load_packs",
    ],
    "documents": [
        "DOCUMENTATION_FILES",
        "DirectoryDocumentStore",
        "Document",
        "DocumentEditError",
        "DocumentExistsError",
        "DocumentNotFoundError",
        "DocumentStore",
        "DocumentStoreError",
        "DocumentToolDispatcher",
        "DocumentUnreadableError",
        "DocumentWriteError",
        "EXCLUDED_FILES",
        "EditResult",
        "InvalidDocumentArgumentsError",
        "MAX_OPERATIONS",
        "MemoryDocumentStore",
        "PostgresDocumentStore",
        "SqliteDocumentStore",
        "StoreUnavailableError",
        "VersionConflictError",
        "VersionNotFoundError",
        "apply_operations",
        "create_document_tool_dispatcher",
        "document_tool_definitions",
        "edit",
        "occurrence_at",
    ],
    "lint": [
        "BASELINE_VERSION",
        "Baseline",
        "BaselineError",
        "CACHE_DIR_ENV",
        "CONFIG_FILE",
        "ChangedLines",
        "ConfigError",
        "ConfigResolver",
        "DEFAULT_MIN_LEVEL",
        "DiffError",
        "Directive",
        "DirectiveProblem",
        "FileSettings",
        "LEVELS",
        "LintConfig",
        "LintResult",
        "LintedText",
        "MARKUPS",
        "MapPieces",
        "PIECE_UNITS",
        "ResultCache",
        "Suppressions",
        "apply_suppressions",
        "changed_lines",
        "combine_packs",
        "comment_spans",
        "detect_language",
        "filter_signals",
        "fingerprint",
        "format_directive",
        "level_at_least",
        "lint_text",
        "load_config",
        "load_pack_references",
        "markup_for",
        "read_directives",
        "rule_level",
        "sentence_span",
        "signal_level",
        "user_cache_dir",
        "write_baseline",
    ],
    "lsp": ["MAX_DOCUMENT_CHARACTERS", "WritingRulesServer", "create_server", "serve"],
    "mcp": ["McpToolRouter", "McpUnavailableError", "load_stdio_server"],
    "prose": [
        "CODE_PLACEHOLDER",
        "FILE_TYPES",
        "FileType",
        "MARKUPS",
        "MAX_BONUS",
        "ProseError",
        "ProseView",
        "Sentence",
        "Structure",
        "TextMap",
        "iter_sentences",
        "long_sentences",
        "markup_for_path",
        "over_limits",
        "read_prose",
        "sentences",
        "structure",
    ],
    "registry": [
        "IntentPolicy",
        "IntentRegistry",
        "RegisteredIntent",
        "RegisteredScope",
        "RegistryError",
        "ScopeRegistry",
    ],
    "review": [
        "ReportDocument",
        "ReviewParse",
        "findings_to_operations",
        "parse_review_response",
        "render_html",
        "render_report",
    ],
    "tools": [
        "ModelComparisonContext",
        "ReviewContext",
        "Signal",
        "SignalFix",
        "SignalPolicy",
        "SignalPolicyError",
        "TextIndex",
        "WritingToolDispatcher",
        "create_writing_tool_dispatcher",
        "response_schema",
        "rule_selection_problem",
        "scan_signals",
        "scan_text",
        "writing_review_tools",
        "writing_tool_definitions",
    ],
}


def test_every_subpackage_is_listed() -> None:
    assert sorted(path.parent.name for path in PACKAGE.glob("*/__init__.py")) == sorted(SURFACE)


@pytest.mark.parametrize("name", sorted(SURFACE))
def test_the_public_surface_is_the_listed_one_and_every_name_loads(name: str) -> None:
    package = importlib.import_module(f"writing_rules.{name}")
    assert sorted(package.__all__) == SURFACE[name]
    for public in package.__all__:
        assert getattr(package, public) is not None


def _declarations(tree: ast.Module) -> tuple[dict[str, str] | None, dict[str, str]]:
    """The lazy map (name -> module) and the TYPE_CHECKING imports (name -> module) of an ``__init__``."""
    homes: dict[str, str] | None = None
    checked: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict) and node.keys and all(isinstance(key, ast.Constant) for key in node.keys):
            values = [value.value for value in node.values if isinstance(value, ast.Constant)]
            if len(values) == len(node.keys) and all(isinstance(v, str) and v.startswith(".") for v in values):
                homes = {key.value: value for key, value in zip(node.keys, values, strict=True)}  # type: ignore[union-attr]
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for statement in node.body:
                if isinstance(statement, ast.ImportFrom):
                    module = "." * statement.level + (statement.module or "")
                    checked.update({alias.name: module for alias in statement.names})
    return homes, checked


@pytest.mark.parametrize("name", sorted(SURFACE))
def test_the_lazy_map_all_and_the_type_checking_imports_agree(name: str) -> None:
    tree = ast.parse((PACKAGE / name / "__init__.py").read_text(encoding="utf-8"))
    homes, checked = _declarations(tree)
    if homes is None:
        return  # no lazy exports: __all__ names what the module imports
    package = importlib.import_module(f"writing_rules.{name}")
    eager = {public for public in package.__all__ if public in vars(package) and public not in homes}
    assert set(homes) | eager == set(package.__all__)
    if checked:
        assert {public: checked.get(public) for public in homes} == homes
