"""Trustworthy tools for LLM agents that review and edit documentation (en/de).

The package is split by concern:

- ``writing_rules.tools``: the four read-only review tools and their dispatcher.
- ``writing_rules.registry``: the intent and scope registry kit.
- ``writing_rules.documents``: block-based, quote-anchored document editing.

Rule data comes from the generated module ``writing_rules._rules_data``,
compiled from ``rules-src/`` by ``python -m generator``.
"""

from __future__ import annotations

__all__ = ["WritingRulesError", "__version__"]

from ._errors import WritingRulesError

__version__ = "0.8.0"
