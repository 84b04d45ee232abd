"""Whole-process speed of ``writing-rules scan`` against ``proselint check`` on 250,000 characters.

    python benchmarks/bench_cli_vs_proselint.py [--runs 5]

The first run makes ``benchmarks/.env/`` (gitignored) and installs proselint
there, so its dependencies never touch the project's environment. The input is
a Markdown file of 250,000 characters built from ``examples/getting-started.md``
with varied names, numbers and sentences, so neither tool sees one paragraph
repeated verbatim. Each tool runs once to warm the file cache, then ``--runs``
times; the medians and their ratio are printed. Target: writing-rules at least
8x faster.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
import venv
from pathlib import Path

from _texts import GUIDE_SENTENCES, PRODUCTS  # benchmarks/ is this script's folder

ROOT = Path(__file__).resolve().parents[1]
ENV = ROOT / "benchmarks" / ".env"
SIZE = 250_000
TARGET_RATIO = 8.0


_SOURCES = ["stripe", "github", "shopify", "twilio", "slack", "paddle"]


def build_document(size: int = SIZE, seed: int = 7) -> str:
    """Realistic guide text of exactly ``size`` characters (deterministic)."""
    base = (ROOT / "examples" / "getting-started.md").read_text(encoding="utf-8")
    rng = random.Random(seed)
    parts: list[str] = []
    length, section = 0, 0
    while length < size:
        section += 1
        product = rng.choice(PRODUCTS)
        text = base.replace("Relay", product).replace("relay", product.lower())
        text = text.replace("stripe", rng.choice(_SOURCES)).replace("ten minutes", f"{rng.randint(5, 30)} minutes")
        text = text.replace("# Getting started", f"# Part {section}: getting started", 1)
        extra = " ".join(
            rng.choice(GUIDE_SENTENCES).format(p=product, n=rng.randint(2, 500)) for _ in range(rng.randint(3, 8))
        )
        chunk = f"{text}\n## Notes for part {section}\n\n{extra}\n\n"
        parts.append(chunk)
        length += len(chunk)
    return "".join(parts)[:size]


def ensure_proselint() -> Path:
    """The proselint executable in ``benchmarks/.env``, installed there on first use."""
    executable = ENV / ("Scripts" if sys.platform == "win32" else "bin") / "proselint"
    if not executable.exists():
        print(f"creating {ENV.relative_to(ROOT)} with proselint ...", file=sys.stderr)
        venv.create(ENV, with_pip=True)
        pip = executable.with_name("pip")
        subprocess.run([str(pip), "install", "--quiet", "proselint"], check=True)
    return executable


def time_command(command: list[str], runs: int) -> tuple[float, str]:
    """Median wall time of ``runs`` whole-process runs after one warm-up; and the last output."""
    completed = subprocess.run(command, capture_output=True, text=True, check=False)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        completed = subprocess.run(command, capture_output=True, text=True, check=False)
        times.append(time.perf_counter() - start)
    if completed.returncode not in (0, 1):  # both exit 1 when they find something
        raise SystemExit(f"{command[0]} failed ({completed.returncode}): {completed.stderr[-2000:]}")
    return statistics.median(times), completed.stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs per tool (default 5)")
    args = parser.parse_args()
    proselint = ensure_proselint()
    version = subprocess.run([str(proselint), "version"], capture_output=True, text=True).stdout.strip()
    with tempfile.TemporaryDirectory() as folder:
        document = Path(folder) / "guide.md"
        document.write_text(build_document(), encoding="utf-8")
        ours, ours_out = time_command(
            [sys.executable, "-m", "writing_rules", "scan", str(document), "--no-fail"], args.runs
        )
        theirs, theirs_out = time_command([str(proselint), "check", str(document)], args.runs)
    ratio = theirs / ours
    print(f"document: {SIZE:,} characters of Markdown, {args.runs} timed runs each (median)")
    print(f"writing-rules scan --no-fail: {ours:.3f} s, {len(ours_out.splitlines())} signals")
    print(f"proselint check ({version or 'proselint'}): {theirs:.3f} s, {len(theirs_out.splitlines())} lines")
    verdict = "met" if ratio >= TARGET_RATIO else "missed"
    print(f"ratio proselint / writing-rules: {ratio:.2f} (target >= {TARGET_RATIO:.0f}: {verdict})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
