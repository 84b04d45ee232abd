"""Fixtures for the document tests; the factories live in documents_stores.py (a unique module name)."""

from __future__ import annotations

from documents_stores import store

__all__ = ["store"]
