"""``scan --fix`` and ``scan --fix --dry-run`` on real files."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from writing_rules.cli import _fix, main
from writing_rules.documents import DocumentEditError, edit
from writing_rules.tools import Signal, SignalFix

EN = "In order to start, the tool is very fast.\nWe made use of the cache. It is powerful.\n"
EN_FIXED = "To start, the tool is fast.\nWe used the cache. It is powerful.\n"
DE = "Die Daten werden zur Verfügung gestellt. Der Schritt ist sehr wichtig.\n"
DE_FIXED = "Die Daten werden bereitgestellt. Der Schritt ist wichtig.\n"


def _scan_one_place(locate: Any, fix: SignalFix, seen: list[str] | None = None, limit: int = 10_000) -> Any:
    """A scan that reports one signal with ``fix`` at ``locate(text)`` (nothing at -1): what fix_file reads.

    ``limit`` scans end the test instead of letting a run that never settles hang it.
    """
    from types import SimpleNamespace

    calls = [] if seen is None else seen

    def scan(text: str, language: str | None) -> Any:
        calls.append(text)
        assert len(calls) <= limit, "--fix does not settle"
        found = locate(text)
        signal = Signal("x", "y", "warning", "go", found, found + 2, found, found + 2, 1, 1, 0, fix)
        return SimpleNamespace(language="en", lint=SimpleNamespace(signals=() if found < 0 else (signal,)))

    return scan


def test_fix_writes_the_fixed_text_and_reports_what_remains(tmp_path: Path, capsys) -> None:
    page = tmp_path / "page.md"
    page.write_text(EN, encoding="utf-8")
    assert main(["scan", "--fix", "--language", "en", str(page)]) == 1  # "powerful" remains
    assert page.read_text(encoding="utf-8") == EN_FIXED
    captured = capsys.readouterr()
    assert "powerful" in captured.out and "In order to" not in captured.out
    assert f"{page}: fixed 3, 1 signal remains" in captured.err
    assert "writing-rules: fixed 3; 1 signal remains" in captured.err


def test_fix_exits_0_when_nothing_remains(tmp_path: Path, capsys) -> None:
    page = tmp_path / "seite.md"
    page.write_text("Der Schritt ist äußerst wichtig.\n", encoding="utf-8")
    assert main(["scan", "--fix", "--language", "de", str(page)]) == 0
    assert page.read_text(encoding="utf-8") == "Der Schritt ist wichtig.\n"
    assert "fixed 1; 0 signals remain" in capsys.readouterr().err


def test_dry_run_prints_a_diff_and_writes_nothing(tmp_path: Path, capsys) -> None:
    page = tmp_path / "seite.md"
    page.write_text(DE, encoding="utf-8")
    before = page.read_bytes()
    status = main(["scan", "--fix", "--dry-run", "--language", "de", "--min-level", "suggestion", str(page)])
    assert page.read_bytes() == before
    out = capsys.readouterr().out
    name = str(page).replace("\\", "/")
    assert out == (f"--- a/{name}\n+++ b/{name}\n@@ -1 +1 @@\n-{DE}+{DE_FIXED}")
    assert status == 1  # "werden ... bereitgestellt" is still a passive (a suggestion) after the fix


def test_the_dry_run_diff_applies_with_git_apply(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("page.md").write_text(EN, encoding="utf-8")
    main(["scan", "--fix", "--dry-run", "--language", "en", "page.md"])
    diff = capsys.readouterr().out
    done = subprocess.run(["git", "apply", "-"], input=diff, text=True, capture_output=True)
    assert done.returncode == 0, done.stderr
    assert Path("page.md").read_text(encoding="utf-8") == EN_FIXED


@pytest.mark.parametrize(("bom", "newline"), [(b"\xef\xbb\xbf", "\n"), (b"\xef\xbb\xbf", "\r\n"), (b"", "\r\n")])
def test_the_dry_run_diff_applies_to_bom_and_crlf_files(
    tmp_path: Path, capsys, monkeypatch, bom: bytes, newline: str
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("page.md").write_bytes(bom + EN.replace("\n", newline).encode("utf-8"))
    main(["scan", "--fix", "--dry-run", "--language", "en", "page.md"])
    diff = capsys.readouterr().out
    done = subprocess.run(["git", "apply", "-"], input=diff.encode("utf-8"), capture_output=True)
    assert done.returncode == 0, done.stderr
    assert Path("page.md").read_bytes() == bom + EN_FIXED.replace("\n", newline).encode("utf-8")


def test_crlf_and_bom_are_kept(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_bytes(b"\xef\xbb\xbf" + EN.replace("\n", "\r\n").encode("utf-8"))
    main(["scan", "--fix", "--language", "en", str(page)])
    assert page.read_bytes() == b"\xef\xbb\xbf" + EN_FIXED.replace("\n", "\r\n").encode("utf-8")


def test_a_file_without_fixes_is_not_rewritten(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("It is powerful.\n", encoding="utf-8")
    before = page.stat().st_mtime_ns, page.stat().st_ino
    assert main(["scan", "--fix", "--language", "en", str(page)]) == 1
    assert (page.stat().st_mtime_ns, page.stat().st_ino) == before


def test_a_file_changed_during_the_run_is_not_overwritten(tmp_path: Path, capsys, monkeypatch) -> None:
    page = tmp_path / "page.md"
    page.write_text(EN, encoding="utf-8")
    real_splice = _fix._spliced

    def edit_then_someone_saves(text, places):  # another program writes the file meanwhile
        page.write_text("Someone else's text.\n", encoding="utf-8")
        return real_splice(text, places)

    monkeypatch.setattr(_fix, "_spliced", edit_then_someone_saves)
    assert main(["scan", "--fix", "--language", "en", str(page)]) == 2
    assert page.read_text(encoding="utf-8") == "Someone else's text.\n"
    assert "changed" in capsys.readouterr().err


def test_a_fix_that_no_longer_matches_is_refused_and_nothing_changes(tmp_path: Path) -> None:
    text = "Restart the service in order to apply the settings.\n"
    signal = Signal(
        "nominal-style", "x", "warning", "in order to", 20, 31, 20, 31, 1, 21, 0, SignalFix("to", "in order to")
    )
    operations = _fix.fix_operations(text, [signal])
    assert edit(text, operations).content == "Restart the service to apply the settings.\n"
    changed = "Restart the service so that it applies the settings.\n"
    with pytest.raises(DocumentEditError) as refused:
        edit(changed, operations)
    assert refused.value.code == "not-found"


def test_fix_operations_name_the_right_occurrence() -> None:
    text = "very very fast and very good"
    signals = [
        Signal(
            "filler",
            "x",
            "warning",
            "very",
            start,
            start + 4,
            start,
            start + 4,
            1,
            start + 1,
            0,
            SignalFix("", "very "),
        )
        for start in (0, 19)
    ]
    assert edit(text, _fix.fix_operations(text, signals)).content == "very fast and good"


def test_fix_refuses_standard_input_and_dry_run_without_fix(capsys) -> None:
    assert main(["scan", "--fix", "-"]) == 2
    assert "standard input" in capsys.readouterr().err
    assert main(["scan", "--dry-run", "README.md"]) == 2
    assert "--dry-run applies to --fix only" in capsys.readouterr().err


def test_fix_reports_an_unreadable_file(tmp_path: Path, capsys) -> None:
    page = tmp_path / "bad.md"
    page.write_bytes(b"caf\xe9 in order to\n")
    assert main(["scan", "--fix", "--language", "en", str(page)]) == 2
    assert page.read_bytes() == b"caf\xe9 in order to\n"
    assert "not UTF-8" in capsys.readouterr().err


def test_fix_leaves_suppressed_and_disabled_signals_alone(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "<!-- writing-rules-disable-next-line nominal-style -->\n"
        "Restart it in order to apply the settings.\n\n"
        "Restart it in order to apply the settings. It is very fast.\n",
        encoding="utf-8",
    )
    (tmp_path / ".writing-rules.toml").write_text('disable = ["filler"]\n', encoding="utf-8")
    main(["scan", "--fix", "--language", "en", str(page)])
    assert page.read_text(encoding="utf-8") == (
        "<!-- writing-rules-disable-next-line nominal-style -->\n"
        "Restart it in order to apply the settings.\n\n"
        "Restart it to apply the settings. It is very fast.\n"
    )


def test_one_run_fixes_every_place_of_repeated_text_whose_fixes_do_not_overlap(tmp_path: Path, capsys) -> None:
    # The scanner pairs each phrase's "stellen" with the next one's "zur Verfügung": that hit has
    # no fix and hides the next phrase's fix until the phrase before it is fixed. The fixes do not
    # overlap in the text as written, so one run fixes them all, however many rounds it takes.
    page = tmp_path / "seite.md"
    page.write_text(" ".join(["zur Verfügung stellen"] * 25) + "\n", encoding="utf-8")
    assert main(["scan", "--fix", "--language", "de", str(page)]) == 0
    assert page.read_text(encoding="utf-8") == " ".join(["bereitstellen"] * 25) + "\n"
    assert "fixed 25; 0 signals remain" in capsys.readouterr().err


def test_fixes_of_text_a_fix_wrote_stop_after_max_rounds(tmp_path: Path) -> None:
    # A (pack) fix whose replacement is fixable again would never settle: rounds that fix text an
    # earlier fix wrote are bounded; rounds that fix only the text as written are not.
    page = tmp_path / "page.md"
    page.write_text("go a b\n", encoding="utf-8")
    scan = _scan_one_place(lambda text: text.find("go"), SignalFix("go!", "go"))

    fixed = _fix.fix_file(str(page), scan, dry_run=True, root=str(tmp_path))
    # The first round fixes the text as written; each later one the text the round before wrote.
    assert fixed.fixed == _fix.MAX_ROUNDS + 1
    assert fixed.diff.count("!") == _fix.MAX_ROUNDS + 1


def test_a_fix_that_writes_its_own_text_again_cannot_grow_the_file_without_bound(tmp_path: Path) -> None:
    # A hand-written pack fix "go" -> "gogo" on every place doubles the text with each counted
    # round (1,024 times in ten): the run stops before the file outgrows MAX_GROWTH times its length.
    page = tmp_path / "page.md"
    original = "go " * 20_000
    page.write_text(original, encoding="utf-8")
    bound = 4 * len(original) + 65_536  # docs/fixes.md: at most four times as long, plus 64 KiB

    def scan(text: str, language: str | None) -> Any:
        assert len(text) <= bound, "--fix grew the file without bound"
        signals = tuple(
            Signal("x", "y", "warning", "go", m.start(), m.end(), m.start(), m.end(), 1, 1, 0, SignalFix("gogo", "go"))
            for m in re.finditer("go", text)
        )
        return SimpleNamespace(language="en", lint=SimpleNamespace(signals=signals))

    fixed = _fix.fix_file(str(page), scan, dry_run=False, root=str(tmp_path))
    assert fixed.error is not None and "the file is unchanged" in fixed.error
    assert page.read_text(encoding="utf-8") == original


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.lists(st.tuples(st.integers(0, 40), st.integers(1, 4), st.text("xy", max_size=3)), max_size=4), max_size=5
    )
)
def test_the_spans_fixes_wrote_follow_the_text_through_every_round(rounds: list[list[tuple[int, int, str]]]) -> None:
    # Each character carries whether a fix wrote it; the spans must cover every such character,
    # and a place that meets one must be seen to touch it.
    text = [(character, False) for character in "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH"]
    written: list[tuple[int, int]] = []
    for wanted in rounds:
        places: list[tuple[int, int, str]] = []
        for start, length, replacement in sorted(wanted):
            end = min(start + length, len(text))
            if start < end and (not places or start >= places[-1][1]):
                places.append((start, end, replacement))
        truth = {index for index, (_, by_fix) in enumerate(text) if by_fix}
        meets = any(any(start - 1 <= index <= end for index in truth) for start, end, _ in places)
        assert _fix._touches(written, places) or not meets
        for start, end, replacement in reversed(places):
            text[start:end] = [(character, True) for character in replacement]
        written = _fix._written_after(written, places)
        assert written == sorted(written)
        assert all(written[k][1] < written[k + 1][0] for k in range(len(written) - 1))
        for index, (_, by_fix) in enumerate(text):
            assert not by_fix or any(low <= index < high for low, high in written), (index, written)


def test_a_replacement_with_line_breaks_in_a_crlf_file_still_stops(tmp_path: Path) -> None:
    # The engine writes a replacement's line breaks as the file's CRLF, so the text a fix wrote is
    # longer than the replacement: the rounds must still see that they fix text a fix wrote.
    page = tmp_path / "page.md"
    page.write_bytes(b"x\r\ngo a\r\n")
    calls: list[str] = []
    # A (pack) pattern such as (?<=\r\n)go; a run that does not settle would scan for ever.
    after_crlf = lambda text: text.rfind("\r\ngo") + 2 if "\r\ngo" in text else -1  # noqa: E731
    scan = _scan_one_place(after_crlf, SignalFix("\n\n\n\ngo", "go"), calls, limit=100)

    fixed = _fix.fix_file(str(page), scan, dry_run=True, root=str(tmp_path))
    assert fixed.error is None
    assert fixed.fixed == _fix.MAX_ROUNDS + 1


def test_rounds_that_fix_text_as_written_are_bounded_too(tmp_path: Path) -> None:
    # Each round scans the whole text again: a text whose places show one per round (each hidden
    # by the hit before it) must not cost a scan per place, or a large hostile file takes hours.
    page = tmp_path / "page.md"
    page.write_text(" ".join(["go"] * 1000) + "\n", encoding="utf-8")
    scans: list[str] = []
    scan = _scan_one_place(lambda text: text.find("go "), SignalFix("went", "go"), scans)  # only the first place shows

    fixed = _fix.fix_file(str(page), scan, dry_run=True, root=str(tmp_path))
    assert fixed.error is None
    assert len(scans) == _fix.MAX_RUN_ROUNDS + 1  # the scan as read, then one after each round
    assert fixed.fixed == _fix.MAX_RUN_ROUNDS


def test_a_round_costs_work_in_proportion_to_its_places_not_their_square(tmp_path: Path, monkeypatch) -> None:
    # Each fix was named by its occurrence number, counted from the start of the text for each
    # place, and the engine counted them again for each operation: a file of 8,000 fixable
    # sentences took 15 s to fix, 100,000 (1.7 MB) most of an hour, and a checkout is what
    # `scan --fix` runs on in CI. A round now counts each quote's occurrences once, and splices
    # the text itself when it knows the result (the engine only for a CRLF file's line breaks).
    places = 2_000
    text = "It is very fast. " * places
    signals = [
        Signal("filler", "very", "warning", "very", 6 + 17 * k, 10 + 17 * k, 6, 10, 1, 7, 0, SignalFix("", "very "))
        for k in range(places)
    ]
    finds = []
    real_find = str.find

    class Text(str):
        def find(self, *args: Any) -> int:  # type: ignore[override]
            finds.append(1)
            return real_find(self, *args)

    operations = _fix.fix_operations(Text(text), signals)
    assert [operation["occurrence"] for operation in operations] == list(range(places, 0, -1))
    assert 0 < len(finds) <= 2 * places + 2  # (0: the places are still found with str.find)

    engine: list[int] = []
    real_edit = _fix.edit
    monkeypatch.setattr(_fix, "edit", lambda *args, **options: engine.append(1) or real_edit(*args, **options))
    page = tmp_path / "page.md"
    page.write_text(text, encoding="utf-8")
    scan = lambda text, language: SimpleNamespace(  # noqa: E731
        language="en", lint=SimpleNamespace(signals=tuple(signals) if "very" in text else ())
    )
    fixed = _fix.fix_file(str(page), scan, dry_run=False, root=str(tmp_path))
    assert (fixed.error, fixed.fixed) == (None, places)
    assert page.read_text(encoding="utf-8") == "It is fast. " * places
    assert engine == []
