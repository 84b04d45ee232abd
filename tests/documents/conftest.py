"""Fixtures for the document tests; the factories live in documents_stores.py (a unique module name)."""

from __future__ import annotations

from documents_stores import database_store, store, store_factory

__all__ = ["database_store", "store", "store_factory"]
