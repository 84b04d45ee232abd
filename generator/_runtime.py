"""Loading a dependency-free piece of the runtime from the source tree, by file path.

The compiler checks rule examples and fixes with the very code the tool runs
(the prose reader, the fix rule). Those pieces import nothing else from the
package, and the build must not depend on an installed copy, so they are
loaded from ``src/writing_rules`` under a private module name (installed from
the wheel, from the installed ``writing_rules``: ``_paths.runtime_package``).
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType

from ._paths import runtime_package

__all__ = ["load_runtime"]


def load_runtime(relative: str) -> ModuleType:
    """The module at ``src/writing_rules/<relative>`` (a ``.py`` file or a package folder), loaded once."""
    name = "_writing_rules_for_compiler_" + relative.replace("/", "_").removesuffix(".py")
    module = sys.modules.get(name)
    if module is not None:
        return module
    path = runtime_package() / relative
    if path.is_dir():
        spec = importlib.util.spec_from_file_location(
            name, path / "__init__.py", submodule_search_locations=[str(path)]
        )
    else:
        spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
