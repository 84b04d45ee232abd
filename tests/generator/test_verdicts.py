"""The verdict cache: a regenerate re-times only what changed, and no cache line can let a slow pattern pass."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from generator import GENERATED_MODULE, SourceProblems, compile_sources, generate
from generator._verdicts import PYTHON, VERDICTS_FILE, read_verdicts, signal_examples, verdict_key

from .sources import WORD_CHOICE, write_tree

# Short inputs keep the timed run cheap here; the key covers the length, so these
# verdicts never stand for the real run's.
LENGTH = 6_000
LINEAR = "(?i)\\b(?:powerful|seamless(?:ly)?)\\b"
# Quadratic, and invisible to the static check: \w+ then a literal \w also matches.
QUADRATIC = "(?i)\\w+ful\\b"
SLOW_RULE = WORD_CHOICE.replace(f"'{LINEAR}'", f"'{QUADRATIC}'")
RULE = "rules-src/rules/word-choice.md"


def key_of(pattern: str, must_match: str = "A powerful API.", must_not_match: str = "The power supply.") -> str:
    return verdict_key(pattern, signal_examples([must_match], [must_not_match]), LENGTH)


def cache_lines(root: Path) -> list[str]:
    return (root / VERDICTS_FILE).read_text(encoding="utf-8").splitlines()


def refused(problems: SourceProblems) -> list[str]:
    return [str(problem) for problem in problems.problems if "backtracks catastrophically" in str(problem)]


def test_a_timed_run_records_every_pattern_sorted_and_a_second_run_has_nothing_to_do(tmp_path: Path) -> None:
    root = write_tree(tmp_path)
    first = generate(root, timed=True, input_length=LENGTH)
    assert first.changed and first.timed_count == 2 and first.verdicts_changed
    entries = [line for line in cache_lines(root) if not line.startswith("#")]
    assert [line.split()[0] for line in entries] == ["word-choice/hype-de", "word-choice/hype-en"]
    assert entries == sorted(entries) and all(line.endswith(f" ok {PYTHON}") for line in entries)
    assert key_of(LINEAR) in read_verdicts(root)
    again = generate(root, timed=True, input_length=LENGTH)
    assert not again.changed and not again.compiled


def test_an_edit_retimes_only_the_edited_pattern_and_drops_its_old_line(tmp_path: Path) -> None:
    root = write_tree(tmp_path)
    generate(root, timed=True, input_length=LENGTH)
    edited = WORD_CHOICE.replace("seamless(?:ly)?", "seamless(?:ly)?|mighty")
    write_tree(root, **{RULE: edited})
    result = generate(root, timed=True, input_length=LENGTH)
    assert result.changed and result.timed_count == 1
    assert key_of(LINEAR) not in read_verdicts(root)
    assert key_of(LINEAR.replace("seamless(?:ly)?", "seamless(?:ly)?|mighty")) in read_verdicts(root)
    assert len([line for line in cache_lines(root) if not line.startswith("#")]) == 2


def test_retime_ignores_the_cache(tmp_path: Path) -> None:
    root = write_tree(tmp_path)
    generate(root, timed=True, input_length=LENGTH)
    assert generate(root, timed=True, retime=True, input_length=LENGTH).timed_count == 2


def test_hand_edited_and_stale_lines_are_misses(tmp_path: Path) -> None:
    root = write_tree(tmp_path)
    generate(root, timed=True, input_length=LENGTH)
    path = root / VERDICTS_FILE
    lines = path.read_text(encoding="utf-8").splitlines()
    # One key with a changed digit, one line in another shape: both patterns are timed again.
    broken = [
        line.replace(line.split()[1], ("0" if line.split()[1][0] != "0" else "1") + line.split()[1][1:])
        if "hype-en" in line
        else line.replace(" ok", " OK")
        for line in lines
    ]
    path.write_text("\n".join(broken) + "\n", encoding="utf-8")
    (root / GENERATED_MODULE).unlink()
    result = generate(root, timed=True, input_length=LENGTH)
    assert result.timed_count == 2
    assert path.read_text(encoding="utf-8").splitlines() == lines


def test_a_forged_ok_for_another_key_does_not_let_a_quadratic_pattern_pass(tmp_path: Path) -> None:
    root = write_tree(tmp_path, **{RULE: SLOW_RULE})
    forged = [
        f"word-choice/hype-en {key_of(LINEAR)} ok {PYTHON}",  # the linear pattern it replaced
        f"word-choice/hype-en {verdict_key(QUADRATIC, signal_examples(['A powerful API.'], []), LENGTH)} ok {PYTHON}",
        f"word-choice/hype-en {verdict_key(QUADRATIC, signal_examples(['A powerful API.'], ['The power supply.']), 250_000)} ok {PYTHON}",  # noqa: E501
        f"word-choice/hype-en {'0' * 64} ok {PYTHON}",
        f"word-choice/hype-en {key_of(QUADRATIC)} ok",  # the format before 0.5.0: no Python, no trust
        f"word-choice/hype-en {key_of(QUADRATIC)} ok other-3.11",  # another Python's verdict
    ]
    (root / VERDICTS_FILE).write_text("\n".join(forged) + "\n", encoding="utf-8")
    with pytest.raises(SourceProblems) as caught:
        compile_sources(root, timed=True, input_length=LENGTH)
    (message,) = refused(caught.value)
    assert message.startswith(f"{RULE}:")
    # Nothing is written for sources that fail: the forged lines stay as they were.
    assert len((root / VERDICTS_FILE).read_text(encoding="utf-8").splitlines()) == len(forged)


def test_a_line_under_the_right_key_is_trusted_like_the_sources_and_retime_checks_again(tmp_path: Path) -> None:
    """The cache is repository input: whoever writes the right key could as well edit the pattern.

    Such a line is taken at its word (documented), and ``--retime`` checks everything again.
    """
    root = write_tree(tmp_path, **{RULE: SLOW_RULE})
    (root / VERDICTS_FILE).write_text(f"word-choice/hype-en {key_of(QUADRATIC)} ok {PYTHON}\n", encoding="utf-8")
    with pytest.raises(SourceProblems) as caught:  # the scanner's index refuses \w+ at the start anyway
        compile_sources(root, timed=True, input_length=LENGTH)
    assert not refused(caught.value)
    with pytest.raises(SourceProblems) as caught:
        compile_sources(root, timed=True, retime=True, input_length=LENGTH)
    assert len(refused(caught.value)) == 1


def test_the_key_covers_what_decides_the_verdict() -> None:
    examples = signal_examples(["A [[powerful]] API."], ["The power supply."])
    assert examples == ("A powerful API.", "The power supply.")
    base = verdict_key(LINEAR, examples, LENGTH)
    assert verdict_key(LINEAR, examples, LENGTH) == base
    assert verdict_key(LINEAR + " ", examples, LENGTH) != base
    assert verdict_key(LINEAR, examples[:1], LENGTH) != base
    assert verdict_key(LINEAR, examples, LENGTH + 1) != base


def test_the_key_changes_with_the_checker_version(monkeypatch: pytest.MonkeyPatch) -> None:
    from generator import _verdicts

    base = key_of(LINEAR)
    monkeypatch.setattr(_verdicts, "CHECKER_VERSION", _verdicts.CHECKER_VERSION + 1)
    assert key_of(LINEAR) != base


# The Python CI runs (.ci/run's `python3`: Debian 12's 3.11, as on the project machine). The
# committed cache must vouch for every pattern on it, or CI's test of the shipped catalogue
# times the patterns it lacks (all of them: minutes).
CI_PYTHON = "cpython-3.11"


def test_the_shipped_cache_vouches_for_every_shipped_pattern_on_ci_s_python() -> None:
    """`python -m generator` after a pattern edit records its verdict; commit the cache with it."""
    from generator._compile import _all_cached

    root = Path(__file__).resolve().parents[2]
    assert _all_cached(root, 250_000, CI_PYTHON), (
        f"run `python -m generator` on {CI_PYTHON} (CI's Python) and commit {VERDICTS_FILE.as_posix()}"
    )


def test_the_command_line_checks_digests_and_times_only_what_changed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from generator.__main__ import main

    root = write_tree(tmp_path)
    output = tmp_path / "out.py"
    arguments = ["--root", str(root), "--output", str(output)]
    assert main([*arguments, "--check"]) == 1  # no module yet
    assert main([*arguments, "--no-timing"]) == 0
    assert "without the timed run" in capsys.readouterr().out
    assert main([*arguments, "--check"]) == 0
    assert not (root / VERDICTS_FILE).exists()  # --no-timing writes no verdicts
    write_tree(root, **{RULE: WORD_CHOICE.replace("No hype.", "No hype at all.")})
    assert main([*arguments, "--check"]) == 1
    assert "is stale" in capsys.readouterr().err


_KEY = st.text("0123456789abcdef", min_size=64, max_size=64)
_LINE = st.one_of(
    st.builds(
        lambda label, key, python: f"{label} {key} ok {python}",
        st.text("abc-/é ", max_size=12),
        _KEY,
        st.sampled_from([PYTHON, "cpython-3.10", "pypy-3.11", "cpython", "3.11", ""]),
    ),
    st.text(max_size=90),
)


@given(st.lists(_LINE, max_size=8), st.binary(max_size=40))
def test_any_cache_file_reads_as_the_keys_of_its_exact_lines(lines: list[str], junk: bytes) -> None:
    """The cache is read, never trusted blindly: any text (or bytes) gives only keys of well-formed lines
    recorded for the running Python."""
    import re
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / VERDICTS_FILE).parent.mkdir(parents=True)
        text = "\n".join(lines)
        (root / VERDICTS_FILE).write_text(text, encoding="utf-8")
        wanted = {
            found.group(1)
            for line in text.splitlines()
            if (found := re.fullmatch(r"\S+ ([0-9a-f]{64}) ok (\S+)", line)) and found.group(2) == PYTHON
        }
        assert read_verdicts(root) == wanted
        (root / VERDICTS_FILE).write_bytes(junk)
        assert all(len(key) == 64 for key in read_verdicts(root))


def test_a_verdict_stands_only_for_the_python_that_made_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another Python (another ``re`` engine) times every pattern again and keeps the first one's lines."""
    from generator import _verdicts

    root = write_tree(tmp_path)
    generate(root, timed=True, input_length=LENGTH)
    first = cache_lines(root)
    monkeypatch.setattr(_verdicts, "PYTHON", "cpython-3.99", raising=False)
    assert key_of(LINEAR) not in read_verdicts(root)
    (root / GENERATED_MODULE).unlink()
    result = generate(root, timed=True, input_length=LENGTH)
    assert result.timed_count == 2
    assert key_of(LINEAR) in read_verdicts(root)
    both = [line for line in cache_lines(root) if not line.startswith("#")]
    assert len(both) == 4 and both == sorted(both)
    assert {line.split()[-1] for line in both} == {"cpython-3.99", PYTHON}
    # Back on the first Python: nothing to time, and its lines were kept as they were.
    monkeypatch.undo()
    again = generate(root, timed=True, input_length=LENGTH)
    assert again.timed_count == 0
    assert set(first) <= set(cache_lines(root))
