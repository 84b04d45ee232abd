"""Building a big rule pack, timed: a generated vocabulary of 2,000 terms (run from the project root).

    python benchmarks/bench_packs.py [--terms 2000]

Writes a pack into a temporary folder (the scaffold of ``pack new``: one rule
with a timed pattern, plus ``--terms`` vocabulary entries made of invented
words, deterministic), then runs ``python -m generator.pack build`` on it as a
team would, each in a fresh process:

- cold: no module, no verdict cache (the rule's pattern timed, every term checked);
- no change: right after (digest and cache say there is nothing to do);
- one term edit: one more ``avoid`` word in one entry (one term checked again);
- ``pack test``: every example of every term and rule, no cache, no timed run;

and prints wall seconds against the targets of issue 27 (cold <= 30 s, one
edit <= 3 s), the size of the module, and the time to load it
(``writing_rules.packs.load_pack``) against the acme example pack's, both in
this process. Then the scan with that pack (issue 27, point 7):

- a 250,000-character English text (the labelled sentences, with one of the
  pack's words in every fifth paragraph) scanned with the built-in rules and
  with the pack's merged catalogue, in turns in this process (CPU time): the
  ratio, for the scanner core and for the whole ``find_writing_signals``
  dispatch (target: the pack adds <= 25 %);
- a one-page scan as a whole process: a fresh ``python`` that creates a
  dispatcher (with ``config={"packs": [the pack]}``, or without) and dispatches
  ``find_writing_signals`` once; best wall time and best CPU time (user and
  system, which other work on a shared machine does not inflate as much) of
  each, in turns, and the difference (target: <= 15 ms); once as a bare
  process, once having imported first what ``writing-rules scan`` imports
  before it scans (``json``, ``hashlib``, the command line, the lint engine),
  so the pack's own cost shows; once as the command itself, ``writing-rules scan
  --no-cache page.md`` in a folder whose configuration has ``packs = [the pack]``
  or not; then the steps the pack adds, each timed in a fresh process (import,
  load, merge, first scan).

``--pack DIR`` measures an already built pack (no builds). ``--against SRC``
times the one-page scan processes with another source tree too (its ``src``
folder, put first on ``PYTHONPATH``; e.g. ``git worktree add /tmp/base main``),
in the same rounds, so a change's before and after figures share the machine's
conditions. Wall times depend on the machine and its load (printed at the end).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
from _timing import best  # noqa: E402

_SYLLABLES = ("ka", "lo", "mi", "ne", "tor", "sa", "vu", "ri", "zen", "pa", "dro", "fi", "gle", "hu", "bex", "quo")


def _word(rng: random.Random) -> str:
    return "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 4)))


def write_pack(folder: Path, count: int) -> None:
    sys.path.insert(0, str(ROOT))
    from generator._packs import new_pack

    new_pack(folder, "big")
    rng = random.Random(27)
    seen: set[str] = set()
    lines = ["terms:"]
    for number in range(count):
        while True:
            use, *avoid = (_word(rng) for _ in range(3))
            if not {use, *avoid} & seen and len({use, *avoid}) == 3:
                break
        seen.update((use, *avoid))
        if number % 5 == 0:
            avoid[0] += " " + _word(rng)  # some phrases of two words
        case = ("preserve", "insensitive", "sensitive")[number % 3]
        if case == "sensitive":
            use = use.capitalize()
        lines += [f"  - use: {use}", f"    avoid: [{', '.join(avoid)}]", "    language: en", f"    case: {case}"]
    (folder / "terms.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def build(folder: Path) -> float:
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "generator.pack", "build", str(folder)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"pack build failed:\n{done.stdout}{done.stderr}")
    print(f"    {done.stdout.strip()}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--terms", type=int, default=2000)
    parser.add_argument("--pack", type=Path, help="measure the scan with this built pack (no builds)")
    parser.add_argument("--against", type=Path, help="another tree's src folder, timed in the same rounds")
    parser.add_argument("--rounds", type=int, default=15, help="rounds of the one-page scan processes")
    options = parser.parse_args()
    against = None if options.against is None else options.against.resolve()
    if options.pack is not None:
        scan_figures(options.pack.resolve(), against, options.rounds)
        print(f"(load average {os.getloadavg()[0]:.1f}, {os.cpu_count()} cores)")
        return
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary) / "big"
        write_pack(folder, options.terms)
        print(f"pack of {options.terms} terms + 1 rule")
        cold = build(folder)
        print(f"  cold build: {cold:.2f} s (target <= 30 s)")
        unchanged = build(folder)
        print(f"  no change: {unchanged:.2f} s")
        terms = folder / "terms.yaml"
        text = terms.read_text(encoding="utf-8")
        marker = "    avoid: ["
        at = text.index(marker, len(text) // 2) + len(marker)
        terms.write_text(text[:at] + "zzqword, " + text[at:], encoding="utf-8")
        edit = build(folder)
        print(f"  one term edited: {edit:.2f} s (target <= 3 s)")
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "generator.pack", "test", str(folder)], cwd=ROOT, capture_output=True, check=False
        )
        if done.returncode != 0:
            sys.exit("pack test failed")
        print(f"  pack test (every example, no timed run, the CI check): {time.perf_counter() - start:.2f} s")
        module = folder / "_pack_data.py"
        print(f"  module: {module.stat().st_size / 1e6:.2f} MB")

        from writing_rules.packs import load_pack

        big = best(lambda: load_pack(folder), repeat=3)
        small = best(lambda: load_pack(ROOT / "examples" / "packs" / "acme"), repeat=7)
        print(f"  load_pack: {big * 1e3:.1f} ms ({big / small:.0f}x the acme example's {small * 1e3:.2f} ms)")
        scan_figures(folder, against, options.rounds)
    print(f"(load average {os.getloadavg()[0]:.1f}, {os.cpu_count()} cores)")


def _pack_words(folder: Path, count: int) -> list[str]:
    """``count`` of the pack's ``avoid`` words, spread over its vocabulary."""
    import yaml

    terms = yaml.safe_load((folder / "terms.yaml").read_text(encoding="utf-8"))["terms"]
    words = [term["avoid"][0] for term in terms if term["avoid"]]
    return words[:: max(1, len(words) // count)][:count]


def with_pack_words(text: str, words: list[str]) -> str:
    """``text`` with a sentence naming one of ``words`` after every fifth paragraph."""
    paragraphs = text.split("\n\n")
    for number in range(0, len(paragraphs), 5):
        paragraphs[number] += f" Then run the {words[(number // 5) % len(words)]} step."
    return "\n\n".join(paragraphs)


_PROCESS = """
import sys
if sys.argv[1] == "cli":  # what `writing-rules scan` has imported by the time it scans (python -X importtime)
    import hashlib, json, writing_rules.cli._commands, writing_rules.lint
from writing_rules.tools import create_writing_tool_dispatcher
config = {"min-level": "suggestion"}
if len(sys.argv) > 3:
    config["packs"] = [sys.argv[3]]
dispatcher = create_writing_tool_dispatcher(config=config)
with open(sys.argv[2], encoding="utf-8") as stream:
    text = stream.read()
result = dispatcher.dispatch({"name": "find_writing_signals", "arguments": {"text": text}})
assert result["ok"], result
print(result["data"]["totalSignals"])
"""


def scan_figures(folder: Path, against: Path | None = None, rounds: int = 15) -> None:
    """The figures of issue 27, point 7: a 250k scan in this process, a one-page scan as a process."""
    sys.path.insert(0, str(ROOT / "src"))
    from _texts import labelled_text
    from _timing import best_interleaved

    from writing_rules.packs import catalog_for, load_pack
    from writing_rules.prose import read_prose
    from writing_rules.tools import create_writing_tool_dispatcher
    from writing_rules.tools._scanner import find_spans

    words = _pack_words(folder, 50)
    catalog = catalog_for([load_pack(folder)])
    text = with_pack_words(labelled_text("en"), words)[:250_000]
    prose = read_prose(text, "markdown").text
    builtin_ids = tuple(rule_id for rule_id in catalog.RULE_IDS if "/" not in rule_id)
    builtin_ids = tuple(r for r in builtin_ids if catalog.RULES[r].has_signals)
    pack_ids = tuple(rule_id for rule_id in catalog.RULE_IDS if catalog.RULES[rule_id].has_signals)
    plain = create_writing_tool_dispatcher(config={"min-level": "suggestion"})
    packed = create_writing_tool_dispatcher(config={"min-level": "suggestion", "packs": [catalog.packs[0]]})
    call = {"name": "find_writing_signals", "arguments": {"text": text, "maxSignals": 500}}
    found = len(find_spans(prose, "en", pack_ids, catalog=catalog)) - len(find_spans(prose, "en", builtin_ids))
    times = best_interleaved(
        {
            "core": lambda: find_spans(prose, "en", builtin_ids),
            "core+pack": lambda: find_spans(prose, "en", pack_ids, catalog=catalog),
            "dispatch": lambda: plain.dispatch(call),
            "dispatch+pack": lambda: packed.dispatch(call),
        },
        7,
        time.process_time,
    )
    print(f"scan of 250,000 characters ({found} hits of the pack), CPU time in this process:")
    for name in ("core", "dispatch"):
        ratio = times[f"{name}+pack"] / times[name]
        print(
            f"  {name:8}: {times[name] * 1e3:6.1f} ms, with the pack {times[name + '+pack'] * 1e3:6.1f} ms "
            f"(+{(ratio - 1) * 100:.0f} %; target <= 25 %)"
        )
    page_text = with_pack_words(labelled_text("en", 3_000), words)
    # As installed: with bytecode (this environment may turn writing it off; the first run writes it).
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory() as temporary:
        page = Path(temporary) / "page.md"
        page.write_text(page_text, encoding="utf-8")

        trees = {"": env}
        if against is not None:
            trees = {
                "": env,
                " (against)": {
                    **env,
                    "PYTHONPATH": os.pathsep.join(filter(None, [str(against), env.get("PYTHONPATH")])),
                },
            }

        # The command itself, in a folder whose configuration names the pack or not.
        command = Path(sys.executable).with_name("writing-rules")
        scan = [str(command)] if command.is_file() else [sys.executable, "-m", "writing_rules"]
        scan += ["scan", "--no-cache", "page.md"]
        folders = {"plain": Path(temporary) / "plain", "pack": Path(temporary) / "packed"}
        for name, where in folders.items():
            where.mkdir()
            (where / "page.md").write_text(page_text, encoding="utf-8")
            packs = f"packs = [{json.dumps(str(folder))}]\n" if name == "pack" else ""
            (where / ".writing-rules.toml").write_text(f'{packs}min-level = "suggestion"\n', encoding="utf-8")

        def process(args: list[str], tree: str, cwd: Path = ROOT) -> Callable[[], object]:
            def run() -> None:
                done = subprocess.run(args, cwd=cwd, env=trees[tree], check=False, capture_output=True)
                if done.returncode not in (0, 1):  # (1: the scan found signals)
                    sys.exit(f"{' '.join(args)} failed:\n{done.stderr.decode()}")

            return run

        # "dispatcher": a process that only dispatches; "cli": one that has imported what the command
        # line imports before it scans (the pack then adds only what is its own); "scan":
        # `writing-rules scan --no-cache page.md`, with and without `packs = [the pack]`.
        for start in ("dispatcher", "cli", "scan"):
            if start == "scan":
                runs = {f"{name}{tree}": (scan, tree, folders[name]) for tree in trees for name in folders}
            else:
                runs = {
                    f"{name}{tree}": (args, tree, ROOT)
                    for tree in trees
                    for name, args in (
                        ("plain", [sys.executable, "-c", _PROCESS, start, str(page)]),
                        ("pack", [sys.executable, "-c", _PROCESS, start, str(page), str(folder)]),
                    )
                }
            for run in runs.values():
                process(*run)()
            wall = best_interleaved({name: process(*run) for name, run in runs.items()}, rounds)
            cpu = best_interleaved({name: process(*run) for name, run in runs.items()}, rounds, _children_cpu)
            for tree in trees:
                for label, times in (("wall", wall), ("CPU", cpu)):
                    plain, packed = times[f"plain{tree}"], times[f"pack{tree}"]
                    print(
                        f"one-page scan as a process ({start}){tree}, {label}: {plain * 1e3:.0f} ms, with the pack "
                        f"{packed * 1e3:.0f} ms (+{(packed - plain) * 1e3:.1f} ms; target <= 15 ms)"
                    )
        args = [sys.executable, "-c", _STEPS, str(page), str(folder)]
        done = subprocess.run(args, cwd=ROOT, env=env, check=True, capture_output=True, text=True)
    print("  in a fresh process, CPU time of each step (one run):")
    print(done.stdout, end="")


def _children_cpu() -> float:
    """CPU seconds of this process's finished children: a child's own time, whatever else runs."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


_STEPS = """
import sys, time
clock = time.process_time
from writing_rules.tools import create_writing_tool_dispatcher
text = open(sys.argv[1], encoding="utf-8").read()
call = {"name": "find_writing_signals", "arguments": {"text": text}}
create_writing_tool_dispatcher(config={"min-level": "suggestion"}).dispatch(call)
start = clock()
create_writing_tool_dispatcher(config={"min-level": "suggestion"}).dispatch(call)
marks = [("the page again, built-in rules", clock())]
import writing_rules.packs as packs
marks.append(("import writing_rules.packs", clock()))
pack = packs.load_pack(sys.argv[2])
marks.append(("load_pack", clock()))
catalog = packs.catalog_for([pack])
catalog.SIGNAL_INDEX["en"]
marks.append(("catalog_for, English index merged", clock()))
create_writing_tool_dispatcher(config={"min-level": "suggestion", "packs": [pack]}).dispatch(call)
marks.append(("the page with the pack", clock()))
last = start
for name, at in marks:
    print(f"    {name}: {(at - last) * 1e3:.1f} ms")
    last = at
"""


if __name__ == "__main__":
    main()
