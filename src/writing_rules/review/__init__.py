"""From a reviewing model's reply to located findings, edits and an HTML report.

- ``parse_review_response`` checks a reply against the composer's response
  schema and locates each finding's quote in the document.
- ``findings_to_operations`` turns located findings into ``replaceBlock``
  operations for ``write_document``.
- ``render_html`` draws a self-contained report of signals or findings;
  ``render_report`` draws one page for several ``ReportDocument`` objects.
"""

from __future__ import annotations

from ._html import ReportDocument, render_html, render_report
from ._operations import findings_to_operations
from ._parse import ReviewParse, parse_review_response

__all__ = [
    "ReportDocument",
    "ReviewParse",
    "findings_to_operations",
    "parse_review_response",
    "render_html",
    "render_report",
]
