"""The four review tools' descriptors and the plan for their generated validators.

The schemas are built from the catalogue (profile and rule-id enums), so a new
rule or profile reaches the published schemas with the next build. Each
property also says which error code a violation gets, following the order in
``review-tools.md``: unexpected field, unsupported language, missing/mistyped/
out-of-range argument, invalid selection, text too long.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ._validate import Catalogue

__all__ = ["RANKS", "ToolPlan", "tool_plans"]

MAX_TEXT_UNITS = 250_000

# Lower rank wins when a call has several problems (docs/review-tools.md, "Error codes").
# Emitted into the module as ERROR_RANKS: the runtime's own checks rank from there.
RANKS = {
    "unexpected": (3, "invalid-arguments"),
    "language": (4, "unsupported-language"),
    "argument": (5, "invalid-arguments"),
    "selection": (6, "invalid-selection"),
    "length": (7, "text-too-long"),
}


@dataclass(frozen=True)
class PropertyPlan:
    """One argument: its schema and how the generated validator reports violations."""

    name: str
    schema: dict[str, Any]
    required: bool
    kind: str  # "string", "integer", "string-array"
    what: str  # a short noun phrase for messages
    type_rank: str = "argument"
    value_rank: str = "argument"  # enum / minItems / uniqueItems
    length_rank: str = "argument"  # maxLength

    # Keyword values the validator template reads (None when absent).
    @property
    def enum(self) -> list[Any] | None:
        return self.schema.get("enum")

    @property
    def item_enum(self) -> list[Any] | None:
        enum: list[Any] | None = self.schema.get("items", {}).get("enum")
        return enum

    @property
    def max_length(self) -> int | None:
        return self.schema.get("maxLength")

    @property
    def minimum(self) -> int | None:
        return self.schema.get("minimum")

    @property
    def maximum(self) -> int | None:
        return self.schema.get("maximum")

    @property
    def min_items(self) -> int | None:
        return self.schema.get("minItems")


@dataclass(frozen=True)
class ToolPlan:
    name: str
    function: str
    description: str
    properties: tuple[PropertyPlan, ...]
    schema: dict[str, Any] = field(default_factory=dict)

    @property
    def descriptor(self) -> dict[str, Any]:
        return {"name": self.name, "description": self.description, "inputSchema": self.schema}

    @property
    def defaults(self) -> dict[str, Any]:
        return {p.name: p.schema["default"] for p in self.properties if "default" in p.schema}


def _language(required: bool) -> PropertyPlan:
    schema: dict[str, Any] = {
        "type": "string",
        "enum": ["en", "de"],
        "description": "Language of the texts and of the scan: 'en' (English) or 'de' (German)."
        + ("" if required else " Default: 'en'."),
    }
    if not required:
        schema["default"] = "en"
    return PropertyPlan(
        "language", schema, required, "string", "a language code", type_rank="language", value_rank="language"
    )


def _profile(catalogue: Catalogue, required: bool, purpose: str) -> PropertyPlan:
    ids = [profile.id for profile in catalogue.profiles]
    schema = {"type": "string", "enum": ids, "description": purpose}
    return PropertyPlan("profile", schema, required, "string", "a profile id", value_rank="selection")


def _rule_ids(allowed: list[str], purpose: str) -> PropertyPlan:
    schema = {
        "type": "array",
        "items": {"type": "string", "enum": allowed},
        "minItems": 1,
        "uniqueItems": True,
        "description": purpose,
    }
    return PropertyPlan("ruleIds", schema, False, "string-array", "a list of rule ids", value_rank="selection")


def _integer(name: str, low: int, high: int, default: int, purpose: str) -> PropertyPlan:
    schema = {"type": "integer", "minimum": low, "maximum": high, "default": default, "description": purpose}
    return PropertyPlan(name, schema, False, "integer", f"an integer from {low} to {high}")


def _object_schema(properties: tuple[PropertyPlan, ...]) -> dict[str, Any]:
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {p.name: p.schema for p in properties},
        "additionalProperties": False,
    }
    required = [p.name for p in properties if p.required]
    if required:
        schema["required"] = required
    return schema


def _plan(name: str, description: str, properties: tuple[PropertyPlan, ...]) -> ToolPlan:
    return ToolPlan(
        name=name,
        function="validate_" + name,
        description=" ".join(description.split()),
        properties=properties,
        schema=_object_schema(properties),
    )


def tool_plans(catalogue: Catalogue) -> tuple[ToolPlan, ...]:
    """The four tools, in the order ``writing_review_tools()`` lists them."""
    all_ids = [rule.id for rule in catalogue.rules]
    signal_ids = [rule.id for rule in catalogue.rules if rule.signals]
    profile_list = ", ".join(profile.id for profile in catalogue.profiles)
    return (
        _plan(
            "get_writing_rules",
            f"""Look up the writing rules of the catalogue: ids, titles and summaries, or with
            detail 'full' the bilingual instruction, when each rule applies and before/after
            examples. Narrow the list with ruleIds or a profile ({profile_list}).""",
            (
                _rule_ids(
                    all_ids,
                    "Rules to return, in any order; the result follows the catalogue order. "
                    "With a profile, every id must belong to it. Default: the profile's rules, or all rules.",
                ),
                _profile(catalogue, False, "Only rules of this profile."),
                _language(False),
                PropertyPlan(
                    "detail",
                    {
                        "type": "string",
                        "enum": ["summary", "full"],
                        "default": "summary",
                        "description": "'summary' (default): id, title, summary; 'full': also the bilingual "
                        "instruction, conditions and examples.",
                    },
                    False,
                    "string",
                    "'summary' or 'full'",
                ),
            ),
        ),
        _plan(
            "compose_writing_review_prompt",
            """Compose the review prompt for a document of a profile: the host's audience and goal,
            each selected rule's instruction, conditions and examples, a guard that the document is
            untrusted material, and the JSON response schema (at most maxFindings findings).
            Send the prompt and the document to a reviewing model; this tool does not call a model.""",
            (
                _profile(catalogue, True, "The kind of document under review; selects the rules."),
                _language(False),
                _integer(
                    "maxFindings",
                    1,
                    20,
                    5,
                    "Largest number of findings the response format asks for (1-20, default 5).",
                ),
                _rule_ids(all_ids, "A subset of the profile's rules to review against. Default: all of them."),
            ),
        ),
        _plan(
            "find_writing_signals",
            """Scan a text with the static patterns of the rules that have them and return every
            hit with its rule, level (error, warning or suggestion), offsets (code points and UTF-16),
            line, column and context flags (inCode, inQuote, negated). A signal is a lead for a
            reviewer, not a verdict: read each one in context; a suggestion is a weaker lead. A
            signal whose rule declares a safe rewrite also has fix: {replacement, match}: replacing
            match (which starts where the signal starts) with replacement is safe (an additive
            field; absent in code and quotations). Text: at most 250,000 UTF-16 code units.""",
            (
                PropertyPlan(
                    "text",
                    {
                        "type": "string",
                        "maxLength": MAX_TEXT_UNITS,
                        "description": "The text to scan. At most 250,000 UTF-16 code units (a character "
                        "outside the Basic Multilingual Plane counts two).",
                    },
                    True,
                    "string",
                    "a string",
                    length_rank="length",
                ),
                _language(False),
                _profile(catalogue, False, "Scan with the rules of this profile that have signals."),
                _rule_ids(
                    signal_ids,
                    "Rules to scan with; each must have static signals. "
                    "Default: the profile's rules with signals, or all of them.",
                ),
                _integer("maxSignals", 1, 500, 50, "Largest number of signals to return (1-500, default 50)."),
            ),
        ),
        _plan(
            "get_model_comparison_evidence",
            """Read the host's evidence on which model reviews, judges or edits best for a language,
            profile and cohort. Returns the host's validated evidence or says that none is available;
            it never runs, ranks or chooses models itself.""",
            (
                _language(True),
                _profile(catalogue, True, "Profile the comparison is about."),
                PropertyPlan(
                    "role",
                    {
                        "type": "string",
                        "enum": ["reviewer", "judge", "editor"],
                        "description": "The model's role: 'reviewer', 'judge' or 'editor'.",
                    },
                    True,
                    "string",
                    "'reviewer', 'judge' or 'editor'",
                    value_rank="selection",
                ),
                PropertyPlan(
                    "cohortId",
                    {"type": "string", "description": "A cohort id the host allows."},
                    True,
                    "string",
                    "a cohort id string",
                ),
            ),
        ),
    )
