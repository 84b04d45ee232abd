"""The HTML report of a big tree in headless Chromium: how long it takes to open, and to move.

Builds a 750-file tree from the field corpus pages (benchmarks/field_eval/corpus,
cycled, English and German), writes its report with ``writing-rules scan
--format html``, and opens it in Debian's headless chromium (as
tests/review/test_html_browser.py does) with a measuring script added to the
page. Printed, for the big report and for a one-page report opened the same
way in the same run (the baseline):

- the report's size;
- load: milliseconds from navigation start to the end of the load event
  (parsing, style, layout and the report's own script), as the page's
  Navigation Timing records it;
- key: milliseconds per ``j`` press (next hit, with the layout it forces), mean
  of 30 presses;
- file: milliseconds to open another file from the index (big report only);
- the whole browser run's wall time, best of ``--runs``.

    python benchmarks/bench_html_report.py [--files 750] [--runs 3]

Figures depend on the machine and its load: compare the ratios to the one-page
baseline, measured in the same run, and reports of one tree before and after a
change.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "benchmarks" / "field_eval" / "corpus"
sys.path.insert(0, str(ROOT / "benchmarks"))
from _field_pages import held_out_pages  # noqa: E402  (benchmarks/ is this script's folder)

MEASURE = """
window.addEventListener("load", function () {
  setTimeout(function () {
    var root = document.documentElement;
    var timing = performance.getEntriesByType("navigation")[0];
    root.setAttribute("data-load-ms", String(timing.loadEventEnd || performance.now()));
    var presses = 30, started = performance.now();
    for (var i = 0; i < presses; i += 1) {
      document.dispatchEvent(new KeyboardEvent("keydown", {key: "j", bubbles: true}));
      document.body.getBoundingClientRect();
    }
    root.setAttribute("data-key-ms", String((performance.now() - started) / presses));
    var links = document.querySelectorAll("nav.files a");
    if (links.length > 1) {
      started = performance.now();
      links[links.length - 1].click();
      document.body.getBoundingClientRect();
      root.setAttribute("data-file-ms", String(performance.now() - started));
    }
    root.setAttribute("data-marks", String(document.querySelectorAll("mark").length));
    root.setAttribute("data-done", "1");
  }, 0);
});
"""


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        sys.exit("chromium is not installed (Debian: apt-get install -y chromium)")
    return found


def with_measure(page: str) -> str:
    digest = base64.b64encode(hashlib.sha256(MEASURE.encode()).digest()).decode()
    page, count = re.subn(r"script-src ('sha256-[^']+'(?: 'sha256-[^']+')*)", rf"script-src \1 'sha256-{digest}'", page)
    assert count == 1, "the report's Content-Security-Policy has no script-src"
    return page.replace("</body>", f"<script>{MEASURE}</script>\n</body>")


def build_tree(folder: Path, files: int) -> None:
    held = held_out_pages(CORPUS)
    pages = sorted(path for path in CORPUS.rglob("*") if path.suffix in (".md", ".txt") and path not in held)
    for number in range(files):
        source = pages[number % len(pages)]
        target = folder / f"part-{number // 50:02d}" / f"{number:04d}-{source.stem}{source.suffix}"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)


def report(paths: list[str], output: Path, cwd: Path) -> None:
    command = [sys.executable, "-m", "writing_rules", "scan", "--format", "html", "--no-cache", "--no-fail"]
    done = subprocess.run([*command, "--quiet", "--output", str(output), *paths], cwd=cwd, capture_output=True)
    if done.returncode != 0:
        sys.exit(done.stderr.decode("utf-8", "replace")[-2000:])


def open_in_browser(page: Path, profile: Path) -> tuple[float, dict[str, float]]:
    command = [
        chromium(),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--hide-scrollbars",
        f"--user-data-dir={profile}",
        "--window-size=1200,900",
        "--dump-dom",
        page.as_uri(),
    ]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, timeout=600, check=False)
    wall = time.perf_counter() - started
    head = done.stdout[:4000].decode("utf-8", "replace")
    figures = {name: float(value) for name, value in re.findall(r'data-([a-z-]+-ms|marks)="([\d.]+)"', head)}
    if 'data-done="1"' not in head:
        sys.exit("the measuring script did not finish: " + done.stderr.decode("utf-8", "replace")[-2000:])
    return wall, figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=750)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        work = Path(temporary)
        build_tree(work / "tree", args.files)
        report(["tree"], work / "big.html", work)
        one = sorted((work / "tree").rglob("*.md"))[0]
        report([str(one.relative_to(work))], work / "one.html", work)
        results: dict[str, tuple[float, dict[str, float]]] = {}
        for name in ("one", "big"):
            html = (work / f"{name}.html").read_text(encoding="utf-8")
            (work / f"{name}-measured.html").write_text(with_measure(html), encoding="utf-8")
        for _ in range(args.runs):  # in turns, so a busy spell lands on both
            for name in ("one", "big"):
                shutil.rmtree(work / "profile", ignore_errors=True)
                wall, figures = open_in_browser(work / f"{name}-measured.html", work / "profile")
                best = results.get(name)
                if best is None or figures["load-ms"] < best[1]["load-ms"]:
                    results[name] = (min(wall, best[0]) if best else wall, figures)
                elif best is not None:
                    results[name] = (min(wall, best[0]), best[1])
        size = os.path.getsize(work / "big.html")
        print(f"tree: {args.files} files; report {size / 2**20:.1f} MiB; best of {args.runs} runs")
        for name in ("one", "big"):
            wall, figures = results[name]
            extra = f", open another file {figures['file-ms']:.1f} ms" if "file-ms" in figures else ""
            print(
                f"{name:>4}: load {figures['load-ms']:.0f} ms, key {figures['key-ms']:.2f} ms/press{extra}, "
                f"{figures['marks']:.0f} marks in the DOM, browser run {wall:.2f} s"
            )
        one_load, big_load = results["one"][1]["load-ms"], results["big"][1]["load-ms"]
        one_key, big_key = results["one"][1]["key-ms"], results["big"][1]["key-ms"]
        print(f"big / one: load {big_load / one_load:.1f}x, key {big_key / max(one_key, 0.01):.1f}x")


if __name__ == "__main__":
    main()
