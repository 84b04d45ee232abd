"""The structure of a sentence: what makes it hard to take in (issue 28), and its load in words."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from writing_rules.prose import MAX_BONUS, read_prose, sentences, structure
from writing_rules.prose import Structure as Measured
from writing_rules.prose._structure import _TOKENS, may_add


def measure(source: str, language: str) -> Measured:
    view = read_prose(source, "markdown")
    [sentence] = sentences(view.text, language)
    return structure(view.text, sentence.start, sentence.end, language)


def test_a_straight_je_mehr_desto_sentence_is_only_its_words() -> None:
    found = measure(
        "Je mehr Komponenten eine Anwendung hat und je häufiger sich ihr Zustand während der Laufzeit ändert, "
        "desto wichtiger wird es, diesen Zustand an einer zentralen Stelle zu verwalten und in den "
        "Entwicklerwerkzeugen sichtbar zu machen.",
        "de",
    )
    assert (found.inserted, found.held_back, found.load) == (False, 0, found.words)


def test_two_short_parts_joined_by_a_semicolon_are_judged_as_parts() -> None:
    found = measure(
        "The first argument of `watch` can be a ref, a reactive object, a getter function or an array of "
        "sources; the second argument is the callback, which Vue calls with the new value and the old value "
        "on every change.",
        "en",
    )
    assert found.load == 20


def test_long_parts_are_one_sentence() -> None:
    source = (
        "Der Schlüssel hierzu ist, dass der Watcher synchron erstellt werden muss: Wenn der Watcher in einem "
        "asynchronen Callback erstellt wird, wird er nicht an die Eigentümerkomponente gebunden und muss "
        "manuell gestoppt werden, um Speicherlecks zu vermeiden."
    )
    assert measure(source, "de").words == 36


def test_names_link_titles_and_code_spans_count_as_one_word() -> None:
    found = measure("Read the [Astro Dev Toolbar Integration Guide](/guide) and `astro.config.mjs` now.", "en")
    assert found.words == 6  # Read the <title> and <code> now


def test_an_enumeration_of_short_items_counts_each_item_once() -> None:
    found = measure("It supports red apples, green pears, ripe plums, sour cherries and sweet grapes.", "en")
    # 13 words; the items after "red apples" count one word each, not two.
    assert found.words == 13 - 3


def test_an_inserted_relative_clause_and_a_held_back_particle() -> None:
    found = measure(
        "Vue wandelt auch Requisiten, die mit den Typen „Boolean“ oder „Number“ deklariert wurden, automatisch "
        "in den gewünschten Typ um, wenn sie als Attribute festgelegt werden (bei denen es sich immer um "
        "Zeichenfolgen handelt).",
        "de",
    )
    assert found.inserted
    assert found.held_back >= 15
    assert found.load == found.words + 7


def test_an_english_clause_inserted_after_the_subject() -> None:
    found = measure(
        "The export job, which runs every night unless an administrator has paused it, collects all invoices.", "en"
    )
    assert found.inserted
    assert found.clauses == 3
    assert found.load == found.words + 5


def test_clauses_nested_three_deep() -> None:
    found = measure(
        "Beachten Sie, dass der Watcher, der beim Start erstellt wird, wenn die Komponente geladen ist, sofort läuft.",
        "de",
    )
    assert found.clauses >= 4
    assert found.depth >= 3


def test_a_focus_particle_and_a_subordinator_open_a_clause_not_the_resumed_main_clause() -> None:
    # Astro docs (upgrade to v6, de): ", selbst wenn …" is one more subordinate clause; read as the
    # main clause resuming after the relative clause, it held a verb bracket open by 24 words.
    found = measure(
        "Daher können deine v5-Collections eine oder mehrere ältere Funktionen enthalten, die für v6 auf die "
        "neuere API aktualisiert werden müssen, selbst wenn dein Projekt zuvor fehlerfrei war.",
        "de",
    )
    assert (found.clauses, found.held_back, found.load) == (3, 0, found.words)
    # Such a clause is no relative clause inserted into the infinitive before it.
    found = measure(
        "Diese Methoden ermöglichten es dir, auf Astro v5 zu aktualisieren, auch wenn du noch nicht bereit "
        "warst, deine bestehenden Content-Collections umzustellen.",
        "de",
    )
    assert (found.inserted, found.load) == (False, found.words)
    # Vue guide (rendering mechanism, de): ", was …" after it is a clause too, not the main clause resuming.
    found = measure(
        "Darüber hinaus werden bei jedem erneuten Rendern immer neue V-Knoten für sie erstellt, selbst wenn "
        "sich ein Teil des Baums nie ändert, was zu unnötigem Speicherdruck führt.",
        "de",
    )
    assert (found.clauses, found.held_back, found.load) == (3, 0, found.words)
    # "wie" and "als" after a particle compare: no clause.
    assert measure("Der Dienst sendet den Bericht, auch wie vorher.", "de").clauses == 1


def test_a_focus_particle_before_a_short_segment_still_opens_the_clause() -> None:
    # ", auch wenn, wie hier, …": the particle's segment is two words, too short for a relative
    # pronoun's clause, but it is opened by a subordinator; the particle must not lose "wenn".
    plain = measure("Das Feld bleibt leer, wenn, wie hier, ein Wert gesetzt ist.", "de")
    found = measure("Das Feld bleibt leer, auch wenn, wie hier, ein Wert gesetzt ist.", "de")
    assert (found.clauses, found.depth) == (plain.clauses, plain.depth) == (3, 2)


def test_an_article_before_a_noun_is_no_relative_clause() -> None:
    found = measure("Es gibt Themes, Beispiele, Übersetzungen, Tests, der Compiler, usw.", "de")
    assert found.clauses == 1


def test_an_english_cross_reference_in_brackets_counts_as_one_word() -> None:
    # Debian Reference (rounds 4 and 5): "(see [Section 10.1.3, “Idioms for the archive”](…))" is a
    # pointer the reader skips; its titles neither lengthen the sentence nor make an inserted aside.
    source = (
        "`find`(1) selects files for the archive commands "
        "(see [Section 10.1.3, “Idioms for the archive”](ch10.html#a) and "
        "[Section 10.1.4, “Idioms for the copy”](ch10.html#b)) or for `xargs`(1)."
    )
    found = measure(source, "en")
    assert (found.words, found.inserted) == (11, False)
    # German keeps its own measure: nothing is collapsed there.
    assert measure(source, "de").words > 11


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "der",
                "die",
                "dass",
                "which",
                ",",
                ";",
                ":",
                "(",
                ")",
                "–",
                "kann",
                "um",
                "zu",
                "Astro",
                "Dev",
                "a",
                "x.",
                "and",
                "und",
                "hoch",
                "\ufffc",
                "https://x.org",
                "„",
                "“",
                "Sie",
                "wenn",
                "if",
                "(see",
            ]
        ),
        max_size=80,
    ),
    st.sampled_from(["en", "de"]),
)
def test_the_load_is_the_words_plus_at_most_the_bonus(pieces: list[str], language: str) -> None:
    text = " ".join(pieces)
    found = structure(text, 0, len(text), language)
    assert 0 <= found.words <= len(text.split())
    assert found.words <= found.load <= found.words + MAX_BONUS
    # The shortcut that skips measuring is exact: when it says no bonus, there is none.
    if not may_add(text, 0, len(text), language):
        assert found.load == found.words


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300), st.sampled_from(["en", "de"]))
def test_any_text_is_measured_without_error(text: str, language: str) -> None:
    found = structure(text, 0, len(text), language)
    assert found.words <= found.load <= found.words + MAX_BONUS
    if not may_add(text, 0, len(text), language):
        assert found.load == found.words
    assert found.clauses >= 0 and found.depth >= 0 and found.held_back >= 0


def test_a_long_running_process_keeps_no_long_piece_of_a_text() -> None:
    # The measure keeps the tokens of the pieces it met (words recur), for the life of the
    # process: a language server or MCP server measures text after text, and a hostile one
    # of 250,000-letter words must not stay in memory after its scan.
    _TOKENS.clear()
    long_word = "a" * 100_000
    text = f"Dies ist {long_word} und {long_word.upper()}, {long_word}-x, sagt sie."
    structure(text, 0, len(text), "de")
    assert _TOKENS  # the short pieces are kept
    assert max(map(len, _TOKENS)) <= 64
