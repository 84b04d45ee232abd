"""The public surface of each subpackage, listed so that a change to it is deliberate.

A lazily exported name is declared in a subpackage's ``__init__`` in its map (home
module -> names, what ``lazy_exports`` loads and what ``__all__`` is made of) and,
for type checkers, re-exported under ``if TYPE_CHECKING:``: the two must agree.
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
    "cli": ["console_main", "main"],
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
        "occurrences_at",
    ],
    "lint": [
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
        "Suppressions",
        "changed_lines",
        "combine_packs",
        "fingerprint",
        "level_at_least",
        "lint_text",
        "load_config",
        "load_pack_references",
        "markup_for",
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
        "signals_data",
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
    """The lazy map (name -> module) and the TYPE_CHECKING re-exports (name -> module) of an ``__init__``."""
    homes: dict[str, str] | None = None
    checked: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict) and node.keys and all(isinstance(key, ast.Constant) for key in node.keys):
            modules = [key.value for key in node.keys if isinstance(key, ast.Constant)]
            if all(isinstance(module, str) and module.startswith(".") for module in modules) and all(
                isinstance(value, ast.Tuple) for value in node.values
            ):
                homes = {
                    name.value: module
                    for module, names in zip(modules, node.values, strict=True)
                    for name in names.elts  # type: ignore[attr-defined]
                    if isinstance(name, ast.Constant)
                }
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for statement in node.body:
                if isinstance(statement, ast.ImportFrom):
                    module = "." * statement.level + (statement.module or "")
                    # `X as X` is the explicit re-export mypy strict asks for; `X as Y` would export Y.
                    checked.update({alias.asname or "": module for alias in statement.names})
                    assert all(alias.asname == alias.name for alias in statement.names), ast.unparse(statement)
    return homes, checked


@pytest.mark.parametrize("name", sorted(SURFACE))
def test_the_lazy_map_all_and_the_type_checking_imports_agree(name: str) -> None:
    tree = ast.parse((PACKAGE / name / "__init__.py").read_text(encoding="utf-8"))
    homes, checked = _declarations(tree)
    if homes is None:
        assert not checked, "TYPE_CHECKING re-exports without a lazy map"
        return  # no lazy exports: __all__ names what the module imports
    package = importlib.import_module(f"writing_rules.{name}")
    assert sorted(package.__all__) == sorted(homes)
    assert dir(package) == sorted(homes)
    assert checked == homes


def test_the_rule_compilers_lazy_map_and_type_checking_imports_agree() -> None:
    init = PACKAGE.parents[1] / "generator" / "__init__.py"
    homes, checked = _declarations(ast.parse(init.read_text(encoding="utf-8")))
    generator = importlib.import_module("generator")
    assert homes is not None and checked == homes
    assert generator.__all__ == sorted(homes)
