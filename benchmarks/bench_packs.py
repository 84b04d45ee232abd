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
this process. Wall times depend on the machine and its load (printed at the end).
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
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
    options = parser.parse_args()
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
    print(f"(load average {os.getloadavg()[0]:.1f}, {os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
