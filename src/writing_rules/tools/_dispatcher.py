"""The review-tool dispatcher: decoded tool calls in, result envelopes out.

``dispatch`` never raises for a model's input: every problem becomes an
``{"ok": False, ...}`` envelope whose message names the argument, what was
wrong and what is allowed. Host mistakes raise at creation instead.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from operator import itemgetter
from os import PathLike
from typing import Any, Protocol

from .._catalog import Catalog, Pack
from .._errors import PackError
from .._lazy_rules import load_rule_data
from .._lazy_rules import rule_data as data
from .._rules_runtime import ArgumentProblem
from .._text_units import utf16_length
from .._tool_call import (
    ToolCallError,
    call_identity,
    error_envelope,
    holds_lone_surrogate,
    is_plain_json,
    non_json_call_error,
    parse_tool_call,
    problem_envelope,
    success_envelope,
    unknown_tool_error,
)
from ._context import (
    ModelComparisonContext,
    ReviewContext,
    to_model_comparison_context,
    to_review_context,
)
from ._evidence import check_evidence, evidence_failed, evidence_missing, freeze_context, freeze_query
from ._knowledge import rule_knowledge
from ._policy import SignalPolicy, SignalPolicyError, to_signal_policy
from ._prompt import compose_prompt, response_schema
from ._scanner import scan_signals, scan_text
from ._selection import explain_signal_selection, ranked_problem, rule_id_problem, select_rules
from ._signal import Signal, signals_data

__all__ = ["WritingToolDispatcher", "create_writing_tool_dispatcher", "rule_selection_problem", "writing_review_tools"]

EvidenceCallback = Callable[[Mapping[str, Any], Mapping[str, Any]], Any]

# The four tool names are public API (docs/review-tools.md); a test checks them against the data.
_RULES, _PROMPT, _SIGNALS, _EVIDENCE = TOOL_NAMES = (
    "get_writing_rules",
    "compose_writing_review_prompt",
    "find_writing_signals",
    "get_model_comparison_evidence",
)
_TOOL_NAME = re.compile(r"[a-zA-Z0-9_-]{1,64}")
# Problems are (rank, code, field, message) tuples; the lowest rank is reported.
_rank = itemgetter(0)


def writing_review_tools() -> list[dict[str, Any]]:
    """The four tool descriptors, fresh plain dicts each call, in the published order."""
    return data.tool_descriptors()


class _Prepared:
    __slots__ = ("arguments", "call_id", "has_id", "name")

    def __init__(self, name: str, arguments: dict[str, Any], has_id: bool, call_id: str | int | None) -> None:
        self.name = name
        self.arguments = arguments
        self.has_id = has_id
        self.call_id = call_id


class WritingToolDispatcher:
    """Executes decoded calls of the four review tools; create it with ``create_writing_tool_dispatcher``."""

    __slots__ = (
        "_callback",
        "_catalog",
        "_comparison",
        "_finder",
        "_host_text_unclean",
        "_policy",
        "_rank",
        "_rejecters",
        "_review",
        "_selection_code",
        "_validators",
    )

    def __init__(
        self,
        review_context: ReviewContext | None,
        model_comparison_context: ModelComparisonContext | None,
        callback: EvidenceCallback | None,
        policy: SignalPolicy | None = None,
        catalog: Catalog | None = None,
        finder: SignalFinder | None = None,
    ) -> None:
        self._review = review_context
        self._comparison = model_comparison_context
        self._policy = policy
        self._finder = finder
        # None for the built-in catalogue; a catalogue with packs otherwise.
        self._catalog = catalog if catalog is not None and catalog.packs else None
        # Bound once, so that rejecting a call reads no lazy proxy: the rejecter of each tool a
        # plain call may reach (not the prompt tool without the host's review context).
        reachable = [name for name in TOOL_NAMES if name != _PROMPT or review_context is not None]
        self._rejecters = {name: data.REJECTERS[name] for name in reachable}
        if self._catalog is not None:
            # The generated rejecters know the built-in rule ids only: a call that names rules
            # takes the general path, which checks them against this dispatcher's catalogue.
            self._rejecters = {name: _without_rule_ids(reject) for name, reject in self._rejecters.items()}
        self._validators = {name: data.VALIDATORS[name] for name in reachable}
        self._rank, self._selection_code = data.ERROR_RANKS["selection"]
        host_texts: list[object] = []
        if review_context is not None:
            host_texts += [review_context.audience, review_context.goal]
        if model_comparison_context is not None:
            host_texts += [model_comparison_context.available_model_ids, model_comparison_context.cohort_ids]
        self._host_text_unclean = holds_lone_surrogate(host_texts)
        self._callback = callback  # set last: __setattr__ freezes the object once it exists

    def __setattr__(self, name: str, value: object) -> None:
        if hasattr(self, "_callback"):
            raise AttributeError("WritingToolDispatcher is immutable")
        object.__setattr__(self, name, value)

    def tools(self) -> list[dict[str, Any]]:
        """The tool descriptors this dispatcher executes (fresh dicts); with packs, their ``ruleIds``
        list the packs' rules too."""
        descriptors = writing_review_tools()
        catalog = self._catalog
        if catalog is not None:
            for descriptor in descriptors:
                rule_ids = descriptor["inputSchema"]["properties"].get("ruleIds")
                if rule_ids is not None:
                    signals_only = descriptor["name"] == _SIGNALS
                    rule_ids["items"]["enum"] = [
                        rule_id
                        for rule_id in catalog.RULE_IDS
                        if not signals_only or catalog.RULES[rule_id].has_signals
                    ]
        return descriptors

    def dispatch(self, call: object) -> dict[str, Any]:
        """Execute one decoded call; always returns a fresh JSON-serialisable envelope."""
        try:
            # A model's usual mistake is rejected here, in the few steps it needs (a rejection is
            # to cost a small fraction of jsonschema's is_valid; benchmarks/bench_scanner.py).
            # Two keys that are a string name and a plain dict are exactly {"name", "arguments"}:
            # a well-formed call without an id. Its tool's generated rejecter returns the whole
            # failure envelope when the schema's first problem decides the call; None (a valid
            # call, or a problem the checks beyond the schema may outrank or word anew) takes
            # the general path below.
            if type(call) is dict and len(call) == 2:
                tool = call.get("name")
                arguments = call.get("arguments")
                if type(tool) is str and type(arguments) is dict:
                    reject = self._rejecters.get(tool)
                    if reject is not None:
                        envelope = reject(arguments)
                        if envelope is not None:
                            return envelope
            prepared = self._prepare(call)
            if isinstance(prepared, dict):
                return prepared  # the failure envelope
            if prepared.name == _EVIDENCE:
                query, outcome = self._evidence_query(prepared.arguments)
                result = outcome if outcome is not None else self._call_sync(query)
            else:
                result = self._run(prepared)
            return self._success(prepared, result)
        except Exception as error:
            return _internal_error(call, error)

    async def dispatch_async(self, call: object) -> dict[str, Any]:
        """Like ``dispatch``, awaiting an asynchronous evidence callback."""
        try:
            prepared = self._prepare(call)
            if isinstance(prepared, dict):
                return prepared  # the failure envelope
            if prepared.name != _EVIDENCE:
                result = self._run(prepared)
            else:
                query, outcome = self._evidence_query(prepared.arguments)
                if outcome is None:
                    try:
                        evidence = self._callback(query, self._frozen_context())  # type: ignore[misc]
                        if hasattr(evidence, "__await__"):
                            evidence = await evidence
                        outcome = self._checked(evidence, query)
                    except Exception as error:
                        outcome = evidence_failed(query, error)
                result = outcome
            return self._success(prepared, result)
        except Exception as error:
            return _internal_error(call, error)

    def _success(self, prepared: _Prepared, result: dict[str, Any]) -> dict[str, Any]:
        """The success envelope, its strings cleaned of lone surrogates when any may hold one.

        A result's strings come from the rule data (which holds none), the call's arguments,
        the host's options (the prompt's audience and goal, the ids) and the host's evidence.
        Walking a result costs more than asking this of where its strings came from, so only
        a result that may hold one is walked.
        """
        arguments = prepared.arguments
        if prepared.name == _EVIDENCE or self._host_text_unclean:
            clean = True
        elif prepared.name == _SIGNALS:
            # Of the text only slices are returned (a signal's match, its fix's match): asking
            # them costs a few dozen short strings, asking a 250,000-character text 0.25 ms.
            clean = holds_lone_surrogate(value for key, value in arguments.items() if key != "text") or any(
                holds_lone_surrogate(_slices(signal)) for signal in result["signals"]
            )
        else:
            clean = holds_lone_surrogate(arguments.values())
        return success_envelope(prepared.name, result, has_id=prepared.has_id, call_id=prepared.call_id, clean=clean)

    # -- preparing a call -------------------------------------------------------------------

    def _prepare(self, call: object) -> _Prepared | dict[str, Any]:
        """The checked call, or the failure envelope to return (no exceptions on this hot path)."""
        try:
            parsed = parse_tool_call(call, TOOL_NAMES)
            arguments = dict(parsed.arguments)
        except ToolCallError as error:
            _, has_id, call_id = call_identity(call)
            return error_envelope(None, error, has_id=has_id, call_id=call_id)
        except Exception:  # a hostile mapping: its methods raised
            _, has_id, call_id = call_identity(call)
            failure = ToolCallError("invalid-call", "The tool call could not be read as a JSON object.")
            return error_envelope(None, failure, has_id=has_id, call_id=call_id)
        tool = parsed.name
        if tool not in TOOL_NAMES:
            failure = unknown_tool_error(tool, TOOL_NAMES)
            # Echo the name only when it is a plausible tool name: a model's junk stays out of "tool".
            shown = tool if _TOOL_NAME.fullmatch(tool) else None
            return error_envelope(shown, failure, has_id=parsed.has_id, call_id=parsed.call_id)
        if tool == _PROMPT and self._review is None:
            failure = ToolCallError(
                "host-context-missing",
                "compose_writing_review_prompt needs the host's review context (audience and goal), "
                "which this host has not configured; a tool call cannot supply it. "
                "Use get_writing_rules or find_writing_signals instead.",
            )
            return error_envelope(tool, failure, has_id=parsed.has_id, call_id=parsed.call_id)
        return self._validated(tool, self._validators[tool], arguments, parsed.has_id, parsed.call_id)

    def _validated(
        self,
        tool: str,
        validator: Callable[[dict[str, Any]], list[ArgumentProblem]],
        arguments: dict[str, Any],
        has_id: bool,
        call_id: str | int | None,
    ) -> _Prepared | dict[str, Any]:
        requested = arguments.get("ruleIds")
        if (
            self._catalog is not None
            and isinstance(requested, list)
            and all(isinstance(item, str) for item in requested)
            and tool != _EVIDENCE
        ):
            problems = self._with_rule_ids(tool, validator, arguments, requested)
        else:
            problems = validator(arguments)
        # The validator reports the first problem in the contract's order; the checks
        # beyond the schema are selection and length problems, so they can only come
        # first when the schema checks found nothing before them.
        if problems:
            rank, code, field, message = problems[0]
            selection, selection_code = self._rank, self._selection_code
            if rank < selection and len(problems) == 1:
                return problem_envelope(tool, code, field, message, has_id, call_id)
            if rank == selection and len(problems) == 1:
                # A problem beyond the schema could only tie with it, and the first of equals is
                # reported; the scanner still says why a known rule is refused.
                if tool == _SIGNALS and code == selection_code:
                    rank, code, field, message = explain_signal_selection(
                        problems, arguments.get("ruleIds"), catalog=self._catalog
                    )[0]
                return problem_envelope(tool, code, field, message, has_id, call_id)
        arguments = dict(arguments)
        if not problems or problems[0][0] >= self._rank:
            problems.extend(self._runtime_problems(tool, arguments, problems))
        if problems:
            _, code, field, message = min(problems, key=_rank)
            return problem_envelope(tool, code, field, message, has_id, call_id)
        return _Prepared(tool, arguments, has_id, call_id)

    def _with_rule_ids(
        self,
        tool: str,
        validator: Callable[[dict[str, Any]], list[ArgumentProblem]],
        arguments: dict[str, Any],
        requested: list[str],
    ) -> list[ArgumentProblem]:
        """The validator's first problem of the call without ``ruleIds``, or the catalogue's check of
        ``ruleIds`` (``rule_id_problem``), whichever the contract's order puts first.

        Of two problems of one rank the one of the property listed first in the tool's
        schema comes first, as the generated validators check them.
        """
        assert self._catalog is not None
        problems = validator({key: value for key, value in arguments.items() if key != "ruleIds"})
        own = rule_id_problem(requested, signals_only=tool == _SIGNALS, catalog=self._catalog)
        if own is None:
            return problems
        if not problems or own[0] < problems[0][0]:
            return [own]
        if own[0] > problems[0][0]:
            return problems
        order = _PROPERTY_ORDER.get(tool) or _property_order(tool)
        other = problems[0][2].split("/")[1] if problems[0][2].count("/") else ""
        return [own] if order["ruleIds"] < order.get(other, len(order)) else problems

    def _runtime_problems(
        self, tool: str, arguments: dict[str, Any], problems: list[ArgumentProblem]
    ) -> list[ArgumentProblem]:
        """Checks beyond the schema: profile membership, signals, UTF-16 length, cohorts."""
        extra: list[ArgumentProblem] = []
        if tool == _SIGNALS:
            problems[:] = explain_signal_selection(problems, arguments.get("ruleIds"), catalog=self._catalog)
            text = arguments.get("text")
            if isinstance(text, str) and len(text) <= data.MAX_TEXT_UNITS:
                units = utf16_length(text)
                if units > data.MAX_TEXT_UNITS:
                    extra.append(
                        ranked_problem(
                            "length",
                            "/text",
                            f"Argument text is {units:,} UTF-16 code units long (characters outside the "
                            f"Basic Multilingual Plane count two); at most {data.MAX_TEXT_UNITS:,} are "
                            "allowed. Split the text and scan the parts.",
                        )
                    )
        if tool in (_RULES, _PROMPT, _SIGNALS):
            select_rules(arguments, signals_only=tool == _SIGNALS, problems=extra, catalog=self._catalog)
        if tool == _EVIDENCE and self._comparison is not None:
            cohort = arguments.get("cohortId")
            if isinstance(cohort, str) and cohort not in self._comparison.cohort_ids:
                extra.append(
                    ranked_problem(
                        "selection",
                        "/cohortId",
                        f"Cohort {cohort[:80]!r} is not allowed by this host; allowed cohorts: "
                        f"{', '.join(self._comparison.cohort_ids)}.",
                    )
                )
        return extra

    # -- running the tools --------------------------------------------------------------------

    def _run(self, prepared: _Prepared) -> dict[str, Any]:
        arguments = {**data.TOOL_DEFAULTS[prepared.name], **prepared.arguments}
        language = arguments["language"]
        catalog = self._catalog
        if prepared.name == _RULES:
            rule_ids = select_rules(arguments, signals_only=False, problems=[], catalog=catalog)
            return rule_knowledge(rule_ids, language, arguments["detail"], arguments.get("profile"), catalog=catalog)
        if prepared.name == _PROMPT:
            assert self._review is not None
            rule_ids = select_rules(arguments, signals_only=False, problems=[], catalog=catalog)
            max_findings = int(arguments["maxFindings"])
            return {
                "profile": arguments["profile"],
                "language": language,
                "ruleIds": list(rule_ids),
                "maxFindings": max_findings,
                "prompt": compose_prompt(
                    arguments["profile"], language, rule_ids, max_findings, self._review, catalog=catalog
                ),
                "responseSchema": response_schema(rule_ids, max_findings),
            }
        rule_ids = select_rules(arguments, signals_only=True, problems=[], catalog=catalog)
        max_signals = int(arguments["maxSignals"])
        policy = self._policy
        if policy is None:
            return scan_text(arguments["text"], language, rule_ids, max_signals, catalog=catalog)
        # The team's decisions (create_writing_tool_dispatcher(config=...)) apply before the cap.
        rule_ids = policy.rule_ids(rule_ids)
        text = arguments["text"]
        if self._finder is not None:
            # Lint settings: the lint engine itself (directives, accept, levels), as the CLI runs it.
            kept = list(self._finder.find_signals(text, language, rule_ids))
        else:
            found, _ = scan_signals(text, language, rule_ids, len(text) + 1, catalog=catalog)
            kept = policy.keep(found, text)
        return signals_data(language, rule_ids, kept[:max_signals], len(kept), len(kept) > max_signals)

    # -- tool 4 -----------------------------------------------------------------------------

    def _frozen_context(self) -> Mapping[str, tuple[str, ...]]:
        assert self._comparison is not None
        return freeze_context(self._comparison.available_model_ids, self._comparison.cohort_ids)

    def _evidence_query(self, arguments: dict[str, Any]) -> tuple[Mapping[str, str], dict[str, Any] | None]:
        """The frozen query, and the result when no callback is to be called."""
        query = freeze_query(arguments["language"], arguments["profile"], arguments["role"], arguments["cohortId"])
        if self._comparison is None:
            return query, evidence_missing(
                query,
                "The host has not configured model-comparison evidence, so none is available and no model is chosen.",
            )
        if self._callback is None:
            return query, evidence_missing(
                query,
                "The host has no evidence source for model comparisons, so none is available and no model is chosen.",
            )
        return query, None

    def _call_sync(self, query: Mapping[str, str]) -> dict[str, Any]:
        try:
            evidence = self._callback(query, self._frozen_context())  # type: ignore[misc]
        except Exception as error:
            return evidence_failed(query, error)
        if hasattr(evidence, "__await__"):
            close = getattr(evidence, "close", None)
            if callable(close):
                close()  # no "coroutine was never awaited" warning
            return evidence_failed(query, _AwaitableFromSyncDispatch())
        return self._checked(evidence, query)

    def _checked(self, evidence: object, query: Mapping[str, str]) -> dict[str, Any]:
        assert self._comparison is not None
        return check_evidence(evidence, query=query, available_model_ids=self._comparison.available_model_ids)


class _AwaitableFromSyncDispatch(Exception):
    """The callback returned an awaitable to the synchronous ``dispatch``; use ``dispatch_async``."""


class _Rejecter(Protocol):
    def __call__(
        self, arguments: Mapping[Any, Any], problems: list[ArgumentProblem] | None = None
    ) -> dict[str, Any] | None: ...


def _without_rule_ids(reject: _Rejecter) -> _Rejecter:
    """The rejecter, for calls that name no rules (the others take the general path)."""

    def rejecter(arguments: Mapping[Any, Any], problems: list[ArgumentProblem] | None = None) -> dict[str, Any] | None:
        return None if "ruleIds" in arguments else reject(arguments, problems)

    return rejecter


# Per tool, its schema's properties in order (the order the validators check a rank's problems in).
_PROPERTY_ORDER: dict[str, dict[str, int]] = {}


def _property_order(tool: str) -> dict[str, int]:
    for descriptor in data.tool_descriptors():
        names = list(descriptor["inputSchema"]["properties"])
        _PROPERTY_ORDER[descriptor["name"]] = {name: position for position, name in enumerate(names)}
    return _PROPERTY_ORDER[tool]


def _slices(signal: dict[str, Any]) -> tuple[str, ...]:
    """The parts of the scanned text a signal returns."""
    fix = signal.get("fix")
    return (signal["match"],) if fix is None else (signal["match"], fix["match"])


def _internal_error(call: object, failure: Exception | None = None) -> dict[str, Any]:
    name, has_id, call_id = call_identity(call)
    if not is_plain_json(call):  # objects no JSON decoder makes broke the call, not this code
        return error_envelope(None, non_json_call_error(), has_id=has_id, call_id=call_id)
    if isinstance(failure, PackError):
        # A pack module edited by hand after it loaded (a section line is read, a pattern compiled,
        # when a call first needs it). The host's configuration is broken, not the call, and it is
        # no bug of this package: the contract has no code of its own for it, so it takes the one
        # for a dispatcher without the host context a tool needs (docs/review-tools.md), with the
        # pack's message (it names the pack and says to rebuild it) and ``pack``.
        message = (
            f"{failure} (This is not a problem with the call: the host's rule pack cannot be used "
            "until it is rebuilt; calling again with other arguments will not help, so tell the user.)"
        )
        error = ToolCallError("host-context-missing", message, details={"pack": failure.pack})
    else:
        error = ToolCallError("internal-error", "The tool failed unexpectedly; this is a bug in writing-rules.")
    return error_envelope(name if name in data.TOOL_NAMES else None, error, has_id=has_id, call_id=call_id)


def rule_selection_problem(
    profile: str | None, rule_ids: Sequence[str], language: str = "en", *, catalog: Catalog | None = None
) -> str | None:
    """Why ``find_writing_signals`` would refuse this profile and these rules, or None.

    The command line checks ``--profile`` and ``--rule`` with it before any file is
    read: the tool's own validator and selection checks, with the tool's wording
    and ranks (the first problem in the contract's order); ``catalog`` holds the
    rules with packs (None: the built-in ones).
    """
    arguments: dict[str, Any] = {"text": "", "language": language}
    if profile is not None:
        arguments["profile"] = profile
    if rule_ids:
        arguments["ruleIds"] = list(rule_ids)
    checker = WritingToolDispatcher(None, None, None, None, catalog)
    prepared = checker._validated(_SIGNALS, checker._validators[_SIGNALS], arguments, False, None)
    if isinstance(prepared, _Prepared):
        return None
    message: str = prepared["error"]["message"]
    return message


def create_writing_tool_dispatcher(
    *,
    review_context: ReviewContext | Mapping[str, Any] | None = None,
    model_comparison_context: ModelComparisonContext | Mapping[str, Any] | None = None,
    get_model_comparison_evidence: EvidenceCallback | None = None,
    config: object = None,
) -> WritingToolDispatcher:
    """Create a dispatcher with the host's options, checked now (``TypeError`` / ``ValueError``).

    ``config`` carries the team's decisions into ``find_writing_signals``, as
    the command line applies them: a mapping with a configuration file's keys
    (``disable``, ``min-level``, ``accept``, ``rules``, ``profile``, ``packs``;
    the keys about files are allowed and ignored), or ``writing_rules.lint``
    settings. Packs (``packs``: pack folders, absolute or relative to the
    current working folder, installed pack names, or loaded ``Pack`` objects;
    settings carry loaded ones) load here, never during a dispatch; their rules
    then work in every tool as built-in ones do. A pack that cannot be loaded
    raises ``writing_rules.packs.PackError`` (a ``ValueError``).
    """
    load_rule_data()  # here, so that no dispatch imports (reads) a file
    catalog = _config_catalog(config)
    policy = to_signal_policy(config, catalog=catalog)
    review = to_review_context(review_context)
    comparison = to_model_comparison_context(model_comparison_context)
    if get_model_comparison_evidence is not None:
        if not callable(get_model_comparison_evidence):
            raise TypeError("get_model_comparison_evidence must be callable: (query, context) -> evidence")
        if comparison is None:
            raise ValueError(
                "get_model_comparison_evidence needs model_comparison_context (available model ids and "
                "cohort ids) so the evidence can be checked against them"
            )
    finder = _config_finder(config)
    return WritingToolDispatcher(review, comparison, get_model_comparison_evidence, policy, catalog, finder)


class SignalFinder(Protocol):
    """The lint engine as ``find_writing_signals`` runs it for a dispatcher created with lint settings.

    ``writing_rules.lint`` settings offer one (``signal_finder()``), so that an agent's scan goes
    through the same function as the command line's (``lint_text``: rule policy, ``accept``,
    inline directives), though this layer may not import ``lint``. ``find_signals`` gets the
    call's text (Markdown), its language and the rules left after the policy, and returns every
    signal the engine keeps, code hits included (the tool annotates them), in order, uncapped.
    """

    def find_signals(self, text: str, language: str, rule_ids: tuple[str, ...]) -> Sequence[Signal]: ...


def _config_finder(config: object) -> SignalFinder | None:
    """The lint engine ``config`` offers (lint settings), or None (a mapping, a policy, nothing)."""
    if config is None or isinstance(config, (Mapping, SignalPolicy)):
        return None
    make = getattr(getattr(config, "settings", config), "signal_finder", None)
    if not callable(make):
        return None
    # Making it loads every module the engine needs (lint._tool_finder imports them), never a dispatch.
    finder: SignalFinder = make()
    return finder


def _config_catalog(config: object) -> Catalog | None:
    """The catalogue of the packs ``config`` names (None: none, the built-in catalogue)."""
    if config is None or isinstance(config, SignalPolicy):
        return None if config is None else config.catalog
    if isinstance(config, Mapping):
        references = config.get("packs", ())
    else:
        references = getattr(getattr(config, "settings", config), "packs", ())
    if isinstance(references, (str, bytes)) or not isinstance(references, (list, tuple)):
        raise SignalPolicyError(
            f"config 'packs' must be a list of pack folders, installed pack names or loaded packs, not {references!r}"
        )
    if not references:
        return None
    from ..packs import catalog_for, load_pack

    packs: list[Pack] = []
    for reference in references:
        if isinstance(reference, Pack):
            packs.append(reference)
        elif isinstance(reference, (str, PathLike)) and str(reference):
            packs.append(load_pack(reference))
        else:
            raise SignalPolicyError(
                f"config 'packs' holds {reference!r}: name a pack folder, an installed pack or a loaded Pack"
            )
    return catalog_for(packs)
