"""Sentence-length signals: the hits a rule source declares with ``max_words`` / ``max_chars``.

They are no regular expressions (a pattern that counts words cannot be made
safe from backtracking): the prose is split into sentences and their visible
words counted (``writing_rules.prose.sentences``), once per text, and each
sentence over a signal's limit is one hit spanning the sentence. A sentence's words are weighed
by its structure (``writing_rules.prose.structure``: parts, nesting, a held-back
verb), so ``max_words`` compares a load in words. The scanner
adds these hits to its pattern hits for the prose (never for the code).
"""

from __future__ import annotations

from bisect import insort
from operator import itemgetter

from .._catalog import Catalog, rule_source
from .._levels import LEVELS, signal_level
from ..prose import MAX_BONUS, Sentence, Structure, iter_sentences, long_sentences, over_limits

__all__ = ["with_sentence_lengths"]

_Hit = tuple[int, int, int, str, str]
_order = itemgetter(0, 1, 2)  # the order of signals: start, end, rule order


def with_sentence_lengths(
    found: list[_Hit], text: str, language: str, rule_ids: tuple[str, ...], *, catalog: Catalog | None = None
) -> list[_Hit]:
    """``found`` (start, end, rule order, rule id, signal id) with the length hits of the selected rules.

    Several length signals of one rule on one sentence are one signal: the one of
    the highest level names it (then the first in source order), as for patterns.
    """
    data = rule_source(catalog)
    signals = data.LENGTH_SIGNALS.get(language, ())
    selected = [signal for signal in signals if signal.rule_id in rule_ids]
    if not selected or not text:
        return found
    order = {rule_id: position for position, rule_id in enumerate(data.RULE_IDS) if rule_id in rule_ids}
    best: dict[tuple[int, int, int], tuple[int, str, str]] = {}
    # One pass over the sentences, keeping only those some signal may find too long (a long
    # page has thousands of sentences): each signal's own check then reads just those.
    word_limits = [signal.max_words for signal in selected if signal.max_words is not None]
    char_limits = [signal.max_chars for signal in selected if signal.max_chars is not None]
    shortest = (min(word_limits, default=None), min(char_limits, default=None))
    # A sentence's load (its words weighed by its structure) exceeds its visible words by at
    # most MAX_BONUS: only sentences within that of the shortest word limit may be hits.
    candidates = (None if shortest[0] is None else max(shortest[0] - MAX_BONUS, 0), shortest[1])
    split = tuple(iter_sentences(text, language, longer_than=candidates))
    if not split:
        return found  # no sentence longer than the shortest limits (most short texts)
    # A sentence that is one quotation is left out for every signal; the others over the
    # shortest limits are kept, once.
    loads: dict[Sentence, Structure] = {}  # each sentence's structure is measured once, for every signal
    kept = set(long_sentences(text, language, *shortest, split=split, loads=loads))
    sentences = [sentence for sentence in split if (sentence.start, sentence.end) in kept]
    for signal in selected:
        rank = order[signal.rule_id]
        level = LEVELS.index(signal_level(signal.rule_id, signal.signal_id, catalog=catalog))
        max_words, max_chars = signal.max_words, signal.max_chars
        for sentence in sentences:
            if over_limits(text, sentence, language, max_words, max_chars, loads=loads, min_clauses=signal.min_clauses):
                key = (sentence.start, sentence.end, rank)
                if key not in best or level < best[key][0]:
                    best[key] = (level, signal.rule_id, signal.signal_id)
    if not best:
        return found
    # ``found`` is sorted; each length hit goes after its equals (the pattern hit stays first).
    # Inserting the few length hits makes no key per hit, as a sort of all of them would.
    hits = list(found)
    for (start, end, rank), (_, rule_id, signal_id) in best.items():
        insort(hits, (start, end, rank, rule_id, signal_id), key=_order)
    return hits
