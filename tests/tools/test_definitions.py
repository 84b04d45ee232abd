"""The review tools become registry definitions with one call."""

from __future__ import annotations

import json
import re

import pytest

from writing_rules.registry import IntentRegistry, RegistryError
from writing_rules.tools import create_writing_tool_dispatcher, writing_review_tools, writing_tool_definitions


def test_every_review_tool_registers_and_resolves_to_the_envelope() -> None:
    dispatcher = create_writing_tool_dispatcher()
    registry = IntentRegistry.create(writing_tool_definitions(dispatcher))
    assert registry.ids() == tuple(tool["name"] for tool in writing_review_tools())
    envelope = registry.resolve("get_writing_rules", {"language": "de"}, "stage-1")
    assert envelope == dispatcher.dispatch({"name": "get_writing_rules", "arguments": {"language": "de"}})
    json.dumps(registry.describe(), allow_nan=False)


def test_registry_refuses_what_the_schema_refuses() -> None:
    registry = IntentRegistry.create(writing_tool_definitions(create_writing_tool_dispatcher()))
    with pytest.raises(RegistryError) as caught:
        registry.resolve("find_writing_signals", {"text": "x", "audience": "me"}, "stage-1")
    assert caught.value.code == "invalid-arguments"


def test_tool_ids_match_what_every_provider_accepts() -> None:
    for definition in writing_tool_definitions(create_writing_tool_dispatcher()):
        assert re.fullmatch(r"[a-zA-Z0-9_-]{1,64}", definition["id"])


def test_definitions_need_a_dispatcher() -> None:
    with pytest.raises(TypeError):
        writing_tool_definitions(object())  # type: ignore[arg-type]


def test_dispatcher_tool_names_match_the_generated_schemas() -> None:
    from writing_rules import _rules_data
    from writing_rules.tools._dispatcher import TOOL_NAMES

    assert TOOL_NAMES == _rules_data.TOOL_NAMES


def test_importing_the_tools_defers_the_rule_data() -> None:
    import subprocess
    import sys

    code = "import sys, writing_rules.tools; print('writing_rules._rules_data' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
