"""Which file names a document folder and ``writing-rules edit`` serve by default, and which never.

A module of its own because the command line's help text names them on every
start, and the folder policy beside them is not needed then.
"""

from __future__ import annotations

from ..prose import FILE_TYPES

__all__ = ["DOCUMENTATION_FILES", "EXCLUDED_FILES"]

# Prose that nothing executes. ``*.mdx`` (its import/export run when the site builds) and
# ``*.html``/``*.htm`` (templates in many docs generators) are served only when the host names them.
DOCUMENTATION_FILES = tuple(f"*{extension}" for extension, kind in FILE_TYPES.items() if kind.served)

# Files a build, package manager or docs generator reads as code or configuration, whatever their
# extension; a pattern ending in "/" names a folder anywhere on the path, and everything under it;
# "folder/name" a file name anywhere under such a folder.
# A model that appended ``execute_process(...)`` to CMakeLists.txt ran code on the next cmake.
EXCLUDED_FILES = (
    "cmakelists.txt",
    "requirements*.txt",
    "constraints*.txt",
    "*requirements.txt",
    "robots.txt",
    "license*",
    "copying*",
    "codeowners",
    "_templates/",
    "templates/",
    "_ext/",
    "node_modules/",
    "vendor/",
    "site-packages/",
    # pip installs what ``-r requirements/dev.txt`` names (any index, any sdist's setup.py); an
    # editable install's metadata (entry points, which name code to run) is read from the tree.
    "requirements/*.txt",
    "constraints/*.txt",
    "*.egg-info/",
    "*.dist-info/",
)
