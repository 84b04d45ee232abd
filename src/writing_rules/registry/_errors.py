"""The one error type of the registry kit."""

from __future__ import annotations

from .._errors import WritingRulesError

__all__ = ["RegistryError"]


class RegistryError(WritingRulesError):
    """A registry refused a definition, a lookup, or a call.

    ``code`` is one of ``invalid-definition``, ``duplicate-id``, ``sealed``,
    ``unknown-tool``, ``unknown-scope``, ``invalid-arguments`` and
    ``resolve-failed``, so a host can turn it into a tool-result envelope.
    ``field`` names the definition field (or, for ``invalid-arguments``, the
    JSON Pointer of the bad argument); ``tool_id`` / ``scope_id`` name the
    tool or scope concerned when there is one.
    """

    def __init__(
        self,
        code: str,
        message: str,
        *,
        field: str | None = None,
        tool_id: str | None = None,
        scope_id: str | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field
        self.tool_id = tool_id
        self.scope_id = scope_id

    def __reduce__(self) -> tuple[object, ...]:
        # Keyword-only attributes would be lost by the default pickling.
        return (
            _rebuild,
            (self.code, self.message, self.field, self.tool_id, self.scope_id),
        )


def _rebuild(code: str, message: str, field: str | None, tool_id: str | None, scope_id: str | None) -> RegistryError:
    return RegistryError(code, message, field=field, tool_id=tool_id, scope_id=scope_id)
