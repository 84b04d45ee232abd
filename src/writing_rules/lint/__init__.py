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

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs only
    # One import per module, as in the map below; `X as X` re-exports X for mypy.
    # isort: off
    from .._levels import (
        DEFAULT_MIN_LEVEL as DEFAULT_MIN_LEVEL,
        LEVELS as LEVELS,
        level_at_least as level_at_least,
        rule_level as rule_level,
        signal_level as signal_level,
    )
    from ._baseline import (
        Baseline as Baseline,
        BaselineError as BaselineError,
        write_baseline as write_baseline,
    )
    from ._cache import CACHE_DIR_ENV as CACHE_DIR_ENV, user_cache_dir as user_cache_dir
    from ._config import (
        CONFIG_FILE as CONFIG_FILE,
        MARKUPS as MARKUPS,
        ConfigError as ConfigError,
        ConfigResolver as ConfigResolver,
        FileSettings as FileSettings,
        load_config as load_config,
    )
    from ._config_file import LintConfig as LintConfig
    from ._diff import ChangedLines as ChangedLines, DiffError as DiffError, changed_lines as changed_lines
    from ._directive_types import Directive as Directive, DirectiveProblem as DirectiveProblem
    from ._directives import Suppressions as Suppressions
    from ._engine import PIECE_UNITS as PIECE_UNITS, LintResult as LintResult, lint_text as lint_text
    from ._lint import LintedText as LintedText, markup_for as markup_for
    from ._packs import combine_packs as combine_packs, load_pack_references as load_pack_references
    from ._pieces import MapPieces as MapPieces
    from ._sentences import fingerprint as fingerprint, sentence_span as sentence_span
    # isort: on

__all__, __getattr__, __dir__ = lazy_exports(
    globals(),
    {
        ".._levels": ("DEFAULT_MIN_LEVEL", "LEVELS", "level_at_least", "rule_level", "signal_level"),
        "._baseline": ("Baseline", "BaselineError", "write_baseline"),
        "._cache": ("CACHE_DIR_ENV", "user_cache_dir"),
        "._config": (
            "CONFIG_FILE",
            "MARKUPS",
            "ConfigError",
            "ConfigResolver",
            "FileSettings",
            "load_config",
        ),
        "._config_file": ("LintConfig",),
        "._diff": ("ChangedLines", "DiffError", "changed_lines"),
        "._directive_types": ("Directive", "DirectiveProblem"),
        "._directives": ("Suppressions",),
        "._engine": ("PIECE_UNITS", "LintResult", "lint_text"),
        "._lint": ("LintedText", "markup_for"),
        "._packs": ("combine_packs", "load_pack_references"),
        "._pieces": ("MapPieces",),
        "._sentences": ("fingerprint", "sentence_span"),
    },
)
