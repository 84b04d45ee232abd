"""The page a diagnostic links to: the rule's own text, as a reviewer sees it."""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import stat
import tempfile
from pathlib import Path

from .._catalog import rule_source

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .._catalog import Catalog

__all__ = ["rule_page_text", "rule_page_uri"]


def rule_page_text(rule_id: str, language: str, *, catalog: Catalog | None = None) -> str:
    """The rule as Markdown: title, summary, instruction, when it applies, examples.

    A pack's rule (``catalog``) that has no text in ``language`` is shown in its own language.
    """
    rule = rule_source(catalog).RULES[rule_id]
    if language not in rule.texts:
        language = next(iter(rule.texts))
    text = rule.texts[language]
    heading = {"en": ("Applies when", "Examples"), "de": ("Gilt wann", "Beispiele")}[language]
    lines = [f"# {text.title} (`{rule_id}`)", "", text.summary, "", text.instruction, "", f"## {heading[0]}", ""]
    lines += [text.applies_when, "", f"## {heading[1]}", ""]
    for example in text.examples:
        lines += [f"- {example.before}", f"  → {example.after}"]
    return "\n".join(lines) + "\n"


def rule_page_uri(rule_id: str, language: str, base_url: str | None = None, *, catalog: Catalog | None = None) -> str:
    """A link to the rule's text.

    ``base_url`` (the client's ``ruleUrl`` setting, with ``{id}`` and
    ``{language}``) points at the team's own pages. Without it the text is
    written once per rule-data version (the built-in data's, or the catalogue's
    with the packs in force) into a folder only this user can enter
    (``_private_folder``), so the link works offline and always matches the
    rules in use. A pack's rule id (``acme/sign-in``, ``write-good.Passive``)
    names a file ``acme--sign-in.md``.
    """
    if base_url:
        return base_url.replace("{id}", rule_id).replace("{language}", language)
    digest = rule_source(catalog).digest
    folder = _private_folder() / digest[:12] / language
    name = rule_id.replace("/", "--").replace("\\", "--")
    page = folder / f"{name}.md"
    # No link target is better than no diagnostics: a pack's rule id may make a name too long
    # for the file system, or hold a NUL (ValueError).
    with contextlib.suppress(OSError, ValueError):
        if not page.exists():
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".tmp")
            with os.fdopen(handle, "w", encoding="utf-8") as stream:
                stream.write(rule_page_text(rule_id, language, catalog=catalog))
            os.replace(temporary, page)
    return page.as_uri()


# The folder found for each (runtime folder, temporary folder, user), checked once per process:
# a link re-checks it with one ``lstat`` (still there, still ours and closed), not the whole search.
_found: dict[tuple[str, str, int], Path] = {}

# A folder of this process's own, per temporary folder, when the per-user one cannot be
# trusted (made once, by mkdtemp), with the process that made it: removed when it exits.
_fallback: dict[str, tuple[Path, int]] = {}


def _private_folder() -> Path:
    """The folder the pages go in: this user's, closed to everyone else.

    ``$XDG_RUNTIME_DIR/writing-rules`` when that runtime folder is the user's and
    closed to others, else ``writing-rules-<uid>`` in the temporary folder. The
    shared temporary folder lets anyone create that name first, as a symlink or as
    a folder of theirs, to plant the pages an editor opens or read those written:
    a folder there is used only if it is a real folder (no symlink), owned by this
    user and closed to group and others (mode 0700, as it is created); otherwise
    the pages go to a fresh folder of this process's own (``tempfile.mkdtemp``),
    removed when the process exits.

    The search runs once per process (diagnostics link a page each); later calls
    only check that the folder found is still there and still private, and search
    again (recreating it) when it is not, say after a clean-up of the temporary folder.
    """
    if not hasattr(os, "getuid"):  # Windows: the temporary folder is the user's own
        return Path(tempfile.gettempdir()) / "writing-rules"
    key = (os.environ.get("XDG_RUNTIME_DIR", ""), tempfile.gettempdir(), os.getuid())
    folder = _found.get(key)
    if folder is None or not _is_private(folder):
        folder = _found[key] = _search(key[0], key[1])
    return folder


def _search(runtime: str, shared: str) -> Path:
    """The checks behind ``_private_folder``: the first trusted candidate, else a fallback."""
    candidates = []
    if runtime and os.path.isabs(runtime) and _is_private(Path(runtime)):
        candidates.append(Path(runtime) / "writing-rules")
    candidates.append(Path(shared) / f"writing-rules-{os.getuid()}")
    for folder in candidates:
        with contextlib.suppress(OSError, ValueError):
            with contextlib.suppress(FileExistsError):
                os.mkdir(folder, 0o700)
            if _is_private(folder):
                return folder
    own = _fallback.get(shared)
    if own is None or own[1] != os.getpid() or not _is_private(own[0]):
        own = _fallback[shared] = (Path(tempfile.mkdtemp(prefix="writing-rules-", dir=shared)), os.getpid())
    return own[0]


def _remove_fallbacks() -> None:
    """Remove the fallback folders this process made (at exit): never one it did not make,
    nor one a forked child inherited the record of, nor one no longer private (replaced)."""
    for shared, (folder, pid) in list(_fallback.items()):
        if pid != os.getpid():
            continue
        del _fallback[shared]
        for key in [key for key, found in _found.items() if found == folder]:
            del _found[key]
        if _is_private(folder):
            shutil.rmtree(folder, ignore_errors=True)


def _is_private(folder: Path) -> bool:
    """A real folder (not a symlink), this user's, that no one else can enter or write to."""
    try:
        info = folder.lstat()
    except (OSError, ValueError):
        return False
    return stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid() and stat.S_IMODE(info.st_mode) & 0o077 == 0


atexit.register(_remove_fallbacks)
