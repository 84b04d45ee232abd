"""Load a script of ``benchmarks/`` as a module, for tests of its functions.

The scripts are not a package: each is loaded from its file under a name of its own, registered in
``sys.modules`` for the test only (dataclasses look their module up there), with ``sys.path``
restored afterwards (a script puts ``benchmarks/`` first).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def load_benchmark_script(monkeypatch: pytest.MonkeyPatch, file_name: str) -> ModuleType:
    monkeypatch.setattr(sys, "path", [*sys.path])
    spec = importlib.util.spec_from_file_location(f"{Path(file_name).stem}_under_test", BENCHMARKS / file_name)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)
    spec.loader.exec_module(module)
    return module
