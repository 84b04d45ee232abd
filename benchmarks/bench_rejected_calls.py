"""A rejected call, dispatched whole, against ``jsonschema``'s ``is_valid`` on the same arguments.

    python benchmarks/bench_rejected_calls.py [--rounds N]

Issue 12's target: a whole ``dispatch`` of a call with a schema problem is at
least 20x faster than ``jsonschema`` saying "invalid" for its arguments. The
four mistakes are those of ``bench_scanner.py`` (an unexpected field, a language
in the wrong case, a number out of range, an unknown rule id); the generated
validator alone is shown beside them.

Times are CPU time of this process (``time.process_time``), the fastest of
seven runs of 2,000 loops, and the three measurements alternate within each of
``--rounds`` rounds: on a shared machine the ratio of CPU times holds where
wall times swing with the load. The median round is printed with the range.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import jsonschema
from _texts import REJECTED_CALLS  # benchmarks/ is this script's folder

from writing_rules import _rules_data as data
from writing_rules.tools import create_writing_tool_dispatcher, writing_review_tools

LOOPS = 2000
TOOL = "find_writing_signals"
REJECTED = REJECTED_CALLS


def cpu_best(function: Callable[[Any], object], inputs: list[Any], repeat: int = 7) -> float:
    """Fastest of ``repeat`` runs of ``LOOPS`` passes over ``inputs``, in CPU seconds per pass."""
    times = []
    for _ in range(repeat):
        start = time.process_time()
        for _ in range(LOOPS):
            for item in inputs:
                function(item)  # dropped at once: keeping thousands alive would time the collector
        times.append(time.process_time() - start)
    return min(times) / LOOPS


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    options = parser.parse_args()
    schema = next(t for t in writing_review_tools() if t["name"] == TOOL)["inputSchema"]
    reference = jsonschema.Draft202012Validator(schema)
    validator = data.VALIDATORS[TOOL]
    dispatcher = create_writing_tool_dispatcher()
    calls = [{"name": TOOL, "arguments": arguments} for arguments in REJECTED]
    for arguments, call in zip(REJECTED, calls, strict=True):
        assert not reference.is_valid(arguments) and validator(arguments)
        assert dispatcher.dispatch(call)["ok"] is False
    rows: dict[str, list[float]] = {"jsonschema": [], "validator": [], "dispatch": []}
    for _ in range(options.rounds):
        rows["jsonschema"].append(cpu_best(reference.is_valid, REJECTED))
        rows["validator"].append(cpu_best(validator, REJECTED))
        rows["dispatch"].append(cpu_best(dispatcher.dispatch, calls))
    print(f"{len(REJECTED)} rejected {TOOL} calls, CPU time per pass, median of {options.rounds} rounds (range)")
    theirs = statistics.median(rows["jsonschema"])
    print(f"{'jsonschema is_valid':44} {theirs * 1e6:7.2f}us")
    for name, label, target in (
        ("validator", "generated validator", ">= 30x faster"),
        ("dispatch", "whole dispatch (envelope incl.)", ">= 20x faster"),
    ):
        ratios = [j / o for j, o in zip(rows["jsonschema"], rows[name], strict=True)]
        ours = statistics.median(rows[name])
        print(
            f"{label:44} {ours * 1e6:7.2f}us {statistics.median(ratios):6.1f}x "
            f"({min(ratios):.1f}-{max(ratios):.1f})  {target}"
        )


if __name__ == "__main__":
    main()
