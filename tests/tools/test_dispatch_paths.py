"""A rejected call gets the same envelope whichever path of ``dispatch`` answers it.

``dispatch`` answers a plain ``{"name", "arguments"}`` call with a schema problem
in a few steps; a call with an id, and every problem that needs more words, goes
the general way. Both must give the envelope the contract's order gives: every
problem (the validator's and the checks beyond the schema), the lowest rank
reported, the scanner's explanation for a rule without signals.
"""

from __future__ import annotations

import asyncio
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from writing_rules import _rules_data as data
from writing_rules._tool_call import ToolCallError, error_envelope
from writing_rules.tools import create_writing_tool_dispatcher, writing_review_tools

TOOLS = [descriptor["name"] for descriptor in writing_review_tools()]
SIGNALS = TOOLS[2]
DISPATCHERS = [
    create_writing_tool_dispatcher(),
    create_writing_tool_dispatcher(
        review_context={"audience": "developers", "goal": "set up the tool"},
        model_comparison_context={"available_model_ids": ["m1"], "cohort_ids": ["c1"]},
    ),
]

rule_ids = st.sampled_from([*data.RULE_IDS, "tone", "Word-Choice", "\ud800"])
junk = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=5), st.lists(st.integers(), max_size=2))


def mostly(valid: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Mostly valid values, so that calls reach the later checks (selection, length) too."""
    return st.integers(0, 5).flatmap(lambda n: junk if n == 0 else valid)


by_name = {
    "text": mostly(st.sampled_from(["Simply click it.", "\ud800 x", "x" * 250_001, "\U0001f600" * 125_001])),
    "language": mostly(st.sampled_from(["en", "de", "EN", "fr", "\ud800"])),
    "profile": mostly(st.sampled_from([*data.PROFILES, "nope"])),
    "ruleIds": mostly(st.lists(rule_ids, max_size=4)),
    "maxSignals": mostly(st.integers(0, 501)),
    "maxFindings": mostly(st.integers(0, 101)),
    "detail": mostly(st.sampled_from(["brief", "full", "everything"])),
    "role": mostly(st.sampled_from(["reviewer", "writer", "boss"])),
    "cohortId": mostly(st.sampled_from(["c1", "c2"])),
}
odd_keys = st.sampled_from(["audience", "\ud800x", "k" * 300, "a/b~c", "Text"])


@st.composite
def arguments(draw: st.DrawFn) -> dict[str, Any]:
    chosen = draw(st.lists(st.sampled_from(sorted(by_name)), unique=True, max_size=4))
    if draw(st.integers(0, 5)):
        chosen.append("text")  # required by the scanner, so its later checks are reached
    result = {name: draw(by_name[name]) for name in chosen}
    if draw(st.integers(0, 5)) == 0:
        result[draw(odd_keys)] = draw(junk)
    return result


def reference(dispatcher: Any, tool: str, arguments: dict[str, Any]) -> dict[str, Any] | None:
    """The failure envelope by the contract's order, or None when the call is accepted."""
    problems = data.VALIDATORS[tool](arguments)
    if not problems or problems[0][0] >= data.ERROR_RANKS["selection"][0]:
        problems.extend(dispatcher._runtime_problems(tool, dict(arguments), problems))
    if not problems:
        return None
    _, code, field, message = min(problems, key=lambda problem: problem[0])
    return error_envelope(tool, ToolCallError(code, message, field=field))


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(which=st.integers(0, 1), tool=st.sampled_from(TOOLS), arguments=arguments())
@example(0, SIGNALS, {"text": "x", "ruleIds": ["word-choice", "reader-goal"]})  # explained: no signals
@example(0, SIGNALS, {"text": "x", "ruleIds": ["tone", "evidence"]})  # the first culprit is unknown
@example(0, SIGNALS, {"text": "x", "profile": "agent-report", "ruleIds": ["reader-goal"]})
@example(0, SIGNALS, {"text": "x", "ruleIds": ["word-choice", "tone"]})
@example(0, SIGNALS, {"text": "x", "ruleIds": ["filler", "hedging", "filler", "tone"]})  # the repeat comes first
@example(0, SIGNALS, {"text": "x", "ruleIds": ["filler", "tone", "filler"]})  # the unknown id comes first
@example(0, SIGNALS, {"text": "x", "ruleIds": ["filler", "hedging", "evidence", "filler"]})  # explained
@example(0, TOOLS[0], {"ruleIds": ["filler", "hedging", "filler", "tone"]})
@example(0, SIGNALS, {"text": "x" * 250_001, "ruleIds": ["tone"]})  # selection before length
@example(0, SIGNALS, {"text": "x", "\ud800": 1})  # a field that must be cleaned
@example(0, SIGNALS, {"text": "x", "k" * 300: 1})  # a field that must be cut
@example(0, SIGNALS, {"text": "x", "audience": "developers"})
@example(0, SIGNALS, {"text": "x", "language": "EN"})
@example(0, SIGNALS, {"text": "x", "maxSignals": 0})
@example(1, TOOLS[3], {"language": "en", "profile": "public-docs", "role": "reviewer", "cohortId": "c2"})
def test_every_path_rejects_a_call_as_the_contract_orders(which: int, tool: str, arguments: dict[str, Any]) -> None:
    dispatcher = DISPATCHERS[which]
    if tool == TOOLS[1] and which == 0:
        return  # host-context-missing comes before the arguments (test_dispatcher.py)
    expected = reference(dispatcher, tool, arguments)
    if expected is None:
        return  # an accepted call runs the tool: the tool tests cover it
    plain = dispatcher.dispatch({"name": tool, "arguments": arguments})
    with_id = dispatcher.dispatch({"name": tool, "arguments": arguments, "id": 3})
    awaited = asyncio.run(dispatcher.dispatch_async({"arguments": arguments, "name": tool}))
    assert plain == expected
    assert with_id == {**expected, "id": 3}
    assert awaited == expected
