"""Property tests: the engine against a plain reference, and junk never escapes as another error."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from writing_rules.documents import DocumentEditError, _diff, apply_operations, edit
from writing_rules.documents._diff import unified_diff

# A small alphabet makes anchors match often, and repeat, and overlap.
_ALPHABET = st.sampled_from(["a", "b", "ab", "\n", "\r\n", " ", "é"])
_DOCS = st.lists(_ALPHABET, max_size=25).map("".join)
_SNIPPETS = st.lists(_ALPHABET, min_size=1, max_size=3).map("".join)
_TEXTS = st.lists(_ALPHABET, max_size=4).map("".join)


class RefError(Exception):
    def __init__(self, index: int, code: str) -> None:
        self.index = index
        self.code = code


def _crlf(document: str) -> bool:
    crlf = document.count("\r\n")
    return crlf > 0 and document.count("\n") == crlf and document.count("\r") == crlf


def _fix(text: str, document: str) -> str:
    return re.sub(r"(?<!\r)\n", "\r\n", text) if _crlf(document) else text


def reference(document: str, operations: list[dict]) -> str:
    """Exact matching, written the plain way: split on the anchor."""
    for index, operation in enumerate(operations):
        kind = operation["operation"]
        text = _fix(operation.get("content", operation.get("newBlock", "")), document)
        if kind == "update":
            document = text
            continue
        if kind == "append":
            document += text
            continue
        if kind == "prepend":
            document = text + document
            continue
        anchor = operation.get("anchor", operation.get("oldBlock"))
        parts = document.split(anchor)
        total = len(parts) - 1
        if total == 0:
            raise RefError(index, "not-found")
        occurrence = int(operation.get("occurrence", -1 if kind == "replaceAll" else 1))
        if occurrence == -1:
            document = ("" if kind == "deleteBlock" else text).join(parts)
            continue
        if occurrence > total:
            raise RefError(index, "occurrence-out-of-range")
        before, after = anchor.join(parts[:occurrence]), anchor.join(parts[occurrence:])
        middle = {
            "replaceBlock": text,
            "insertAfter": anchor + text,
            "insertBefore": text + anchor,
            "deleteBlock": "",
        }[kind]
        document = before + middle + after
    return document


@st.composite
def valid_operation(draw: st.DrawFn) -> dict:
    kind = draw(
        st.sampled_from(
            [
                "update",
                "append",
                "prepend",
                "replaceBlock",
                "insertAfter",
                "insertBefore",
                "deleteBlock",
                "replaceAll",
            ]
        )
    )
    operation: dict = {"operation": kind}
    if kind in ("update", "append", "prepend"):
        operation["content"] = draw(_TEXTS)
        return operation
    if kind == "replaceBlock":
        operation["oldBlock"] = draw(_SNIPPETS)
        operation["newBlock"] = draw(_TEXTS)
    else:
        operation["anchor"] = draw(_SNIPPETS)
        if kind != "deleteBlock":
            operation["content"] = draw(_TEXTS)
    if kind == "replaceAll":
        if draw(st.booleans()):
            operation["occurrence"] = draw(st.sampled_from([-1, -1.0]))
        if draw(st.booleans()):
            operation["fuzzyMatch"] = False
    else:
        choices = [1, 2, 3, 2.0] + ([-1] if kind == "deleteBlock" else [])
        if draw(st.booleans()):
            operation["occurrence"] = draw(st.sampled_from(choices))
        if draw(st.booleans()):
            operation["fuzzyMatch"] = False
    return operation


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(_DOCS, st.lists(valid_operation(), min_size=1, max_size=5))
def test_valid_operations_match_the_reference(document: str, operations: list[dict]) -> None:
    try:
        expected = reference(document, operations)
    except RefError as failure:
        try:
            apply_operations(document, operations)
        except DocumentEditError as error:
            assert (error.index, error.code) == (failure.index, failure.code)
        else:
            raise AssertionError("the engine applied what the reference refused")
    else:
        assert apply_operations(document, operations) == expected


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)


@st.composite
def broken_operation(draw: st.DrawFn) -> dict:
    operation = dict(draw(valid_operation()))
    kind = operation["operation"]
    breakage = draw(st.sampled_from(["extra", "missing", "type", "occurrence", "kind", "empty", "fuzzy", "bool"]))
    if breakage == "extra":
        operation[draw(st.sampled_from(["foo", "Content", "anchors", "old_block", "id"]))] = draw(_JSON)
    elif breakage == "missing":
        required = [key for key in operation if key not in ("occurrence", "fuzzyMatch")]
        del operation[draw(st.sampled_from(required))]
    elif breakage == "type":
        key = draw(st.sampled_from([key for key in operation if key != "operation"]))
        operation[key] = draw(_JSON.filter(lambda value: not isinstance(value, (str, bool, int, float))))
    elif breakage == "occurrence":
        operation["occurrence"] = draw(st.sampled_from([0, -2, 1.5, float("nan"), "1", None, -1]))
        if operation["occurrence"] == -1 and kind in ("deleteBlock", "replaceAll"):
            operation["occurrence"] = 0
    elif breakage == "kind":
        operation["operation"] = draw(st.sampled_from(["replace", "UPDATE", "", None, 3]))
    elif breakage == "empty":
        if "oldBlock" in operation:
            operation["oldBlock"] = ""
        elif "anchor" in operation:
            operation["anchor"] = ""
        else:
            operation["content"] = 5
    elif breakage == "fuzzy":
        operation["fuzzyMatch"] = draw(st.sampled_from(["true", 1, 0, None]))
    else:
        operation["occurrence"] = True
    if kind == "replaceAll" and breakage == "fuzzy" and draw(st.booleans()):
        operation["fuzzyMatch"] = True
    return operation


@settings(max_examples=300)
@given(
    _DOCS,
    st.lists(valid_operation(), max_size=3),
    broken_operation(),
    st.lists(valid_operation(), max_size=3),
)
def test_a_malformed_operation_is_refused_before_anything_runs(
    document: str, head: list[dict], broken: dict, tail: list[dict]
) -> None:
    try:
        apply_operations(document, [*head, broken, *tail])
    except DocumentEditError as error:
        assert error.code == "invalid-operation"
        assert error.index == len(head)
        assert error.message
    else:
        raise AssertionError(f"accepted {broken!r}")


@settings(max_examples=300)
@given(_DOCS, _JSON)
def test_junk_operation_lists_raise_only_document_edit_error(document: str, junk: object) -> None:
    try:
        result = edit(document, junk)
    except DocumentEditError as error:
        assert error.code in ("invalid-operation", "not-found", "occurrence-out-of-range", "ambiguous")
    else:
        assert isinstance(result.content, str)


_LINES = st.lists(st.sampled_from(["alpha", "beta", "gamma", "x y", "ü"]), min_size=1, max_size=8)
_PAD = st.sampled_from(["", " ", "\t", "  ", "\u00a0", "\u3000"])


@settings(max_examples=300)
@given(
    _LINES,
    st.data(),
    st.sampled_from(["\n", "\r\n"]),
    st.booleans(),
)
def test_fuzzy_whole_lines_replace_the_original_lines(lines: list[str], data: st.DataObject, newline: str, nfd: bool):
    """Whole-line fuzzy quotes replace exactly the original lines, padding and break included."""
    import unicodedata

    padded = [data.draw(_PAD) + line + data.draw(_PAD) for line in lines]
    stored = [unicodedata.normalize("NFD", line) if nfd else line for line in padded]
    document = "".join(line + newline for line in stored)
    start = data.draw(st.integers(0, len(lines) - 1))
    stop = data.draw(st.integers(start + 1, len(lines)))
    quote = "".join(line.strip() + "\n" for line in lines[start:stop])
    stripped = [line.strip() for line in lines]
    # Where the quoted run of lines first appears in the stripped document.
    first = next(index for index in range(len(lines)) if stripped[index : index + stop - start] == stripped[start:stop])
    result = apply_operations(
        document,
        [{"operation": "replaceBlock", "oldBlock": quote, "newBlock": "NEW\n", "fuzzyMatch": True}],
    )
    kept = [line + newline for line in stored]
    assert result == "".join(kept[:first]) + "NEW" + newline + "".join(kept[first + stop - start :])


def _apply_patch(before: str, patch: str) -> str:
    """Apply a unified diff the way `patch` would, checking every context and removed line."""
    old = re.findall(r"[^\n]*\n|[^\n]+", before)
    lines = re.findall(r"[^\n]*\n", patch)
    assert lines[0].startswith("--- ") and lines[1].startswith("+++ ")
    # Diff lines as (tag, text), with "\ No newline" folded into the line before.
    body: list[list[str]] = []
    for line in lines[2:]:
        if line.startswith("\\"):
            body[-1][1] = body[-1][1][:-1]
        else:
            body.append([line[0], line[1:]])
    out: list[str] = []
    position = 0
    index = 0
    while index < len(body):
        tag, text = body[index]
        header = re.fullmatch(r"@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@\n", text)
        assert tag == "@" and header, text
        start, count = int(header.group(1)), int(header.group(2) or 1)
        start = start if count == 0 else start - 1
        out.extend(old[position:start])
        position = start
        index += 1
        seen_old = seen_new = 0
        while index < len(body) and body[index][0] != "@":
            tag, text = body[index]
            if tag in " -":
                assert old[position] == text
                position += 1
                seen_old += 1
            if tag in " +":
                out.append(text)
                seen_new += 1
            index += 1
        assert seen_old == count
        assert seen_new == int(header.group(4) or 1)
    out.extend(old[position:])
    return "".join(out)


@settings(max_examples=300)
@given(st.lists(st.sampled_from(["a\n", "b\n", "c\n", "d", "\n"]), max_size=30), st.data())
def test_the_diff_is_a_patch_that_turns_before_into_after(lines: list[str], data: st.DataObject) -> None:
    before = "".join(lines)
    after_lines = list(lines)
    for _ in range(data.draw(st.integers(0, 3))):
        position = data.draw(st.integers(0, len(after_lines)))
        if after_lines and data.draw(st.booleans()):
            del after_lines[min(position, len(after_lines) - 1)]
        else:
            after_lines.insert(position, data.draw(st.sampled_from(["x\n", "y\n", "z"])))
    after = "".join(after_lines)
    patch = unified_diff(before, after, name="d")
    if before == after:
        assert patch == ""
    else:
        assert _apply_patch(before, patch) == after


@settings(max_examples=300)
@given(st.lists(st.sampled_from(["a\n", "b\n", "c\n", "d", "\n"]), max_size=30), st.data())
def test_the_one_hunk_diff_of_a_huge_change_is_a_patch_too(lines: list[str], data: st.DataObject) -> None:
    # The linear form a change of over 100,000 lines takes, forced on small texts.
    before = "".join(lines)
    after = "".join(data.draw(st.lists(st.sampled_from(["a\n", "b\n", "x\n", "z", "\n"]), max_size=30)))
    limit = _diff._MAX_DIFF_LINES
    _diff._MAX_DIFF_LINES = -1
    try:
        patch = unified_diff(before, after, name="d")
    finally:
        _diff._MAX_DIFF_LINES = limit
    if before == after:
        assert patch == ""
    else:
        assert _apply_patch(before, patch) == after
