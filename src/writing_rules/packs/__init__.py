"""Team rule packs at run time: loading a compiled pack (``docs/packs.md``).

``load_pack`` reads one pack (a folder, or an installed distribution's entry
point in the group ``writing_rules.packs``); ``load_packs`` reads several and
checks their rule ids against the built-in catalogue and each other. A pack
comes back as a ``Pack`` whose tables have the shapes of the built-in ones, or
not at all (``PackError``). ``catalog_for`` merges loaded packs into the
built-in catalogue: the ``Catalog`` a scan and the review tools read (their
keyword ``catalog``). Pure standard library; never imports the compiler.
"""

from __future__ import annotations

from .._catalog import Catalog
from ._catalog import catalog_for
from ._digest import MODULE_NAME, PACK_FORMAT
from ._loader import ENTRY_POINT_GROUP, Pack, PackError, load_pack, load_packs

__all__ = [
    "ENTRY_POINT_GROUP",
    "MODULE_NAME",
    "PACK_FORMAT",
    "Catalog",
    "Pack",
    "PackError",
    "catalog_for",
    "load_pack",
    "load_packs",
]
