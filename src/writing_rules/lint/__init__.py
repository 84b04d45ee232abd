"""The lint engine every front end calls, and what it uses: configuration, inline
suppression, baselines, changed lines and the result cache.

```python
from writing_rules.lint import ConfigResolver, FileSettings, lint_text

config = ConfigResolver().config_for("docs/guide.md")        # nearest .writing-rules.toml / pyproject.toml
settings = config.settings_for("docs/guide.md") if config else FileSettings()
result = lint_text(text, "docs/guide.md", settings.overlay(min_level="suggestion"))
```

Every error a user can cause is a ``ValueError`` subclass with a message that
says what to change: ``ConfigError`` (with file and line), ``BaselineError``
and ``DiffError``. Directive mistakes are returned as ``DirectiveProblem``.
The names load on first use, so importing this package costs almost nothing.
"""

from __future__ import annotations

from .._lazy_exports import lazy_exports

__all__ = [
    "BASELINE_VERSION",
    "CACHE_DIR_ENV",
    "CONFIG_FILE",
    "DEFAULT_MIN_LEVEL",
    "LEVELS",
    "MARKUPS",
    "PIECE_UNITS",
    "Baseline",
    "BaselineError",
    "ChangedLines",
    "ConfigError",
    "ConfigResolver",
    "DiffError",
    "Directive",
    "DirectiveProblem",
    "FileSettings",
    "LintConfig",
    "LintResult",
    "LintedText",
    "MapPieces",
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
]

_HOMES = {
    "BASELINE_VERSION": "._baseline",
    "Baseline": "._baseline",
    "BaselineError": "._baseline",
    "write_baseline": "._baseline",
    "ResultCache": "._cache",
    "CACHE_DIR_ENV": "._cache",
    "user_cache_dir": "._cache",
    "CONFIG_FILE": "._config",
    "MARKUPS": "._config",
    "ConfigError": "._config",
    "ConfigResolver": "._config",
    "FileSettings": "._config",
    "LintConfig": "._config_file",
    "filter_signals": "._config",
    "load_config": "._config",
    "ChangedLines": "._diff",
    "DiffError": "._diff",
    "changed_lines": "._diff",
    "Directive": "._directive_types",
    "DirectiveProblem": "._directive_types",
    "Suppressions": "._directives",
    "apply_suppressions": "._directives",
    "comment_spans": "._directives",
    "format_directive": "._directives",
    "read_directives": "._directives",
    "DEFAULT_MIN_LEVEL": ".._levels",
    "LEVELS": ".._levels",
    "level_at_least": ".._levels",
    "rule_level": ".._levels",
    "signal_level": ".._levels",
    "LintedText": "._lint",
    "LintResult": "._engine",
    "PIECE_UNITS": "._engine",
    "lint_text": "._engine",
    "MapPieces": "._pieces",
    "combine_packs": "._packs",
    "load_pack_references": "._packs",
    "detect_language": "._language",
    "markup_for": "._lint",
    "fingerprint": "._sentences",
    "sentence_span": "._sentences",
}

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs only
    from .._levels import DEFAULT_MIN_LEVEL, LEVELS, level_at_least, rule_level, signal_level
    from ._baseline import BASELINE_VERSION, Baseline, BaselineError, write_baseline
    from ._cache import CACHE_DIR_ENV, ResultCache, user_cache_dir
    from ._config import (
        CONFIG_FILE,
        MARKUPS,
        ConfigError,
        ConfigResolver,
        FileSettings,
        filter_signals,
        load_config,
    )
    from ._config_file import LintConfig
    from ._diff import ChangedLines, DiffError, changed_lines
    from ._directive_types import Directive, DirectiveProblem
    from ._directives import (
        Suppressions,
        apply_suppressions,
        comment_spans,
        format_directive,
        read_directives,
    )
    from ._engine import PIECE_UNITS, LintResult, lint_text
    from ._language import detect_language
    from ._lint import LintedText, markup_for
    from ._packs import combine_packs, load_pack_references
    from ._pieces import MapPieces
    from ._sentences import fingerprint, sentence_span


__getattr__, __dir__ = lazy_exports(globals(), _HOMES)
