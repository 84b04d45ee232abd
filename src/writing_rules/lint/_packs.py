"""The packs a configuration names, loaded once, and how settings that carry them travel to workers.

A configuration's ``packs`` (folders relative to the configuration file, or
installed entry-point names) and the command line's ``--pack`` (relative to the
working folder) are loaded here, when the configuration is resolved, never per
file. A ``Pack`` holds read-only mappings, which ``pickle`` refuses, and a large
vocabulary is megabytes: settings sent to ``scan --jobs`` workers carry each
pack's reference and identity (its digest and its module's checksum) instead,
and each worker loads a pack once (``packs_from_state``), checking it is the
same build the parent loaded.

Loaded only when a pack is named: a configuration without ``packs`` never
imports the loader.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..packs import Pack

__all__ = ["combine_packs", "load_pack_references", "pack_state", "packs_from_state", "shown_reference"]

# (pack id, identity) -> (reference, base folder or None): how this process loaded each pack.
_ORIGINS: dict[tuple[str, str], tuple[str, str | None]] = {}
# (reference, base, identity) -> pack: what a worker process has loaded already.
_LOADED: dict[tuple[str, str | None, str], Pack] = {}


def _is_folder(reference: str) -> bool:
    """A reference written as a path (what the loader reads as a folder, never as an entry point)."""
    return "/" in reference or "\\" in reference or reference.startswith(".")


def shown_reference(reference: str, base: str) -> str:
    """A folder reference as the user can type it from the working folder; a name as it is.

    ``./styles/acme`` in ``docs/.writing-rules.toml`` is shown (and its build hint
    written) as ``docs/styles/acme`` when the working folder is the repository's root.
    """
    if not _is_folder(reference) or os.path.isabs(reference) or os.path.abspath(base) == os.getcwd():
        return reference  # a name, an absolute path, or already relative to the working folder
    absolute = os.path.normpath(os.path.join(base, reference))
    relative = os.path.relpath(absolute)
    return absolute if relative.startswith("..") else relative.replace(os.sep, "/")


def load_pack_references(references: Sequence[str], base: str) -> tuple[Pack, ...]:
    """The packs ``references`` name (folders relative to ``base``), checked together; ``PackError``.

    A folder is named, in messages and in the build hint, as the user can type it from the
    working folder; a bare name is tried as an installed pack, then as a folder below ``base``.
    """
    from ..packs import load_pack

    packs = []
    for reference in references:
        shown = shown_reference(reference, base)
        folder = _is_folder(shown)
        pack = load_pack(shown, base=None if folder else base)
        where = None if folder else base
        _ORIGINS[(pack.id, pack.identity)] = (pack.source, where)
        _LOADED[(pack.source, where, pack.identity)] = pack  # a forked worker finds it here
        packs.append(pack)
    return _checked(combine_packs((), packs, same_counts_once=False))


def _checked(packs: tuple[Pack, ...]) -> tuple[Pack, ...]:
    """``packs``, once their catalogue is built: what it refuses (a profile this version lacks) is
    refused now, when the configuration is read, not at the first file."""
    if packs:
        from ..packs import catalog_for

        catalog_for(packs)
    return packs


def combine_packs(first: Iterable[Pack], second: Iterable[Pack], *, same_counts_once: bool = True) -> tuple[Pack, ...]:
    """Two lists of loaded packs as one (the configuration's, then ``--pack``'s); ``PackError`` on a clash.

    A rule id may be neither a built-in rule's nor another pack's. With ``same_counts_once``
    the same build of a pack named in both lists counts once.
    """
    from .._lazy_rules import rule_data as data
    from ..packs import PackError

    combined = list(first)
    owners = {rule_id: pack for pack in combined for rule_id in pack.rules}
    by_id = {pack.id: pack for pack in combined}
    for pack in second:
        known = by_id.get(pack.id)
        if known is not None:
            if same_counts_once and known.identity == pack.identity:
                continue
            raise PackError(pack.source, f"pack id {pack.id!r} is loaded twice (also from {known.source})")
        for rule_id in pack.rules:
            if rule_id in data.RULES:
                raise PackError(pack.source, f"rule id {rule_id!r} is a built-in rule's; rename the rule in the pack")
            if rule_id in owners:
                raise PackError(
                    pack.source,
                    f"rule id {rule_id!r} is also a rule of pack {owners[rule_id].source}; rename one of them",
                )
            owners[rule_id] = pack
        combined.append(pack)
        by_id[pack.id] = pack
    return _checked(tuple(combined))


def pack_state(packs: Iterable[Pack]) -> tuple[tuple[str, str | None, str], ...]:
    """What a worker needs to load the same packs: (reference, base, identity) each (``Pack.identity``:
    the sources' digest and the module's checksum)."""
    state = []
    for pack in packs:
        reference, base = _ORIGINS.get((pack.id, pack.identity), (pack.source, None))
        state.append((reference, base, pack.identity))
    return tuple(state)


def packs_from_state(state: Iterable[tuple[str, str | None, str]]) -> tuple[Pack, ...]:
    """The packs ``pack_state`` describes, each loaded once per process; ``PackError`` when one changed."""
    from ..packs import PackError, load_pack

    packs = []
    for reference, base, identity in state:
        key = (reference, base, identity)
        pack = _LOADED.get(key)
        if pack is None:
            pack = load_pack(reference, base=base)
            if pack.identity != identity:
                raise PackError(reference, "the pack was rebuilt while the scan ran; run the scan again")
            _LOADED[key] = pack
            _ORIGINS.setdefault((pack.id, pack.identity), (reference, base))
        packs.append(pack)
    return tuple(packs)
