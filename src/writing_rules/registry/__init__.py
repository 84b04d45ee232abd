"""The intent and scope registry kit.

``IntentRegistry`` declares which tools (intents) an agent may use, what each
may delegate to, and validates a call's arguments against the tool's JSON
Schema before running its ``resolve``; ``ScopeRegistry`` declares knowledge
scopes and which tools they accept. Both refuse bad input with
``RegistryError``, whose ``code`` a host can put in a tool-result envelope.
"""

from __future__ import annotations

from ._errors import RegistryError
from ._intent import IntentRegistry, RegisteredIntent
from ._policy import IntentPolicy
from ._scope import RegisteredScope, ScopeRegistry

__all__ = [
    "IntentPolicy",
    "IntentRegistry",
    "RegisteredIntent",
    "RegisteredScope",
    "RegistryError",
    "ScopeRegistry",
]
