"""Where the compiler's inputs are, where the generated module lives, and the source digest it records.

The compiler runs from two layouts:

- **A checkout** (``python -m generator``, the build hook, ``writing-rules pack`` in an
  editable install): ``generator/`` beside ``templates/``, ``rules-src/`` and
  ``src/writing_rules``.
- **Installed from the wheel** as ``writing_rules_compiler`` (the ``authoring`` extra,
  for ``writing-rules pack``): the package carries the files the pack compiler reads
  (``templates/pack_data.py.j2``, ``rules-src/catalog.yaml``; pyproject.toml's
  ``force-include``), and the runtime is the installed ``writing_rules``.

``COMPILER_ROOT`` is the folder that holds ``templates/`` and ``rules-src/`` in either.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

__all__ = ["COMPILER_ROOT", "GENERATED_MODULE", "INSTALLED", "recorded_digest", "runtime_package"]

GENERATED_MODULE = Path("src") / "writing_rules" / "_rules_data.py"

_HERE = Path(__file__).resolve().parent
# Only the wheel puts the templates inside the compiler's package.
INSTALLED = (_HERE / "templates").is_dir()
COMPILER_ROOT = _HERE if INSTALLED else _HERE.parent

_DIGEST_LINE = re.compile(r"^# Source digest \(SHA-256[^)]*\): ([0-9a-f]{64})$", re.MULTILINE)


def runtime_package() -> Path:
    """The folder of the ``writing_rules`` package whose code the compiler checks examples with.

    A checkout's own ``src/writing_rules`` (the build must not depend on an installed
    copy); installed, the ``writing_rules`` that Python imports (found, not imported).
    """
    if not INSTALLED:
        return COMPILER_ROOT / "src" / "writing_rules"
    spec = importlib.util.find_spec("writing_rules")
    locations = list(spec.submodule_search_locations or ()) if spec is not None else []
    return Path(locations[0]) if locations else _HERE.parent / "writing_rules"


def recorded_digest(module: Path) -> str | None:
    """The source digest in a generated module's header; None when absent or unreadable."""
    try:
        with open(module, encoding="utf-8") as stream:
            head = stream.read(2048)
    except OSError:
        return None
    found = _DIGEST_LINE.search(head)
    return found.group(1) if found else None
