"""Numbers and the words that agree with them, in every text of both catalogs.

Every text is rendered with each of its counts at 0, 1 and 2 (English: singular for 1
only; French: singular for 0 and 1). A word written right after a count, or a plural verb
whose subject is a count, must be a plural form of that count (``{n:carte|cartes}``) unless
it never changes ("1 power", "2 pts"); "(s)" is never a way out."""

from __future__ import annotations

import re
import string

import pytest

from companion.i18n import LANGUAGES, Catalog, load_catalog, placeholders

# Placeholder names that hold a number. Every placeholder of the catalogs is in one of the
# two sets, so a new one must be classified here (and, if a count, its words agree).
COUNTS = {
    "count", "n", "max", "total", "excess", "counted", "limit", "low", "high", "power", "aye", "nay",
    "most", "least", "dealt", "games", "wins", "rows", "left", "deck", "rounds", "coins",
    "supply", "held", "hand", "deal", "bank", "tokens", "players", "seats", "played", "nights",
    "has", "box", "tomes", "relics",
}
# Numbers that name or measure something rather than count it ("card 3", "round 5",
# "page 2 / 4", "worth 2"): rendered at 0, 1, 2 too, no word agrees with them.
VALUES = {"value", "number", "round", "page", "pages", "before", "after", "good", "bad", "step",
          "index", "position", "pixel", "version", "fulfilled", "failed", "w", "h", "long",
          "debounce"}
TEXTS = {
    "player", "family", "name", "names", "game", "reason", "button", "kinds", "kind",
    "effect", "source", "event", "card", "keys", "light", "detail", "title", "time",
    "action", "end", "pending", "vote", "side", "rank", "leader", "moderator", "parts",
    "field", "holder", "colour", "good_name", "target", "b_family", "a_family", "b", "a",
    "victim", "character", "token", "attacker", "average", "current", "turn", "step_name",
    "started", "who", "round_text", "what", "press", "hold", "game_name", "state", "seat",
    "breakdown", "winner", "winners", "points", "score", "scores", "date", "players_text",
    "buttons", "where",
    # in refusals: lists, names and values as the file or the rules wrote them
    "actions", "agenda", "agendas", "allowed", "amount", "backend", "by", "choice", "choices",
    "colours", "ends", "error", "expected", "got", "hint", "house", "houses", "item", "last",
    "mode", "momentum", "move", "moves", "path", "pin", "profile", "resource", "resources",
    "sign", "used", "wanted", "user", "chars",
}
# Words that read the same after any number (uncountable game terms, abbreviations, signs).
INVARIABLE = {
    "power", "Pouvoir", "pts", "PV", "VP", "×", "of", "sur", "to", "à", "de", "contre", "from",
    "au", "and", "et", "more", "left", "first", "only", "dealt",
}
PLURAL_VERBS = {"en": {"are", "were", "have"}, "fr": {"ont", "sont"}}
CLAUSE_END = re.compile(r"[:;·,.!?—()«»]")


@pytest.fixture(scope="module", params=LANGUAGES)
def catalog(request) -> Catalog:
    return load_catalog(request.param)


def fields(template: str):
    """(literal text before, name, spec) for each top-level placeholder of ``template``."""
    return [(lit, name, spec) for lit, name, spec, _ in string.Formatter().parse(template)]


def _after(template: str) -> list[tuple[str, str]]:
    """(count name, the literal text up to the next placeholder) for each plain count
    placeholder (one without a plural form) of the template."""
    parts = fields(template)
    out = []
    for i, (_, name, spec) in enumerate(parts):
        if name in COUNTS and not spec:
            following = parts[i + 1][0] if i + 1 < len(parts) else ""
            # what follows up to the end of the clause, plain placeholders skipped over
            j = i + 1
            while j < len(parts) and not CLAUSE_END.search(following) and parts[j][1]:
                if parts[j][2]:  # a plural form: agreement is handled there
                    break
                following += " " + (parts[j + 1][0] if j + 1 < len(parts) else "")
                j += 1
            out.append((name, following))
    return out


def agreement_mistakes(language: str, template: str) -> list[str]:
    """Words that should agree with a count but are written once for every number."""
    mistakes = []
    if re.search(r"\((s|x|es)\)", template):
        mistakes.append("'(s)' instead of a plural form")
    for name, following in _after(template):
        word = re.match(r" ([^\W\d_][\w'’-]*|×)", following)
        if word and word.group(1) not in INVARIABLE:
            mistakes.append(f"'{{{name}}} {word.group(1)}' does not agree with {name}")
        clause = CLAUSE_END.split(following, maxsplit=1)[0]
        verbs = PLURAL_VERBS[language] & set(re.findall(r"[\w']+", clause))
        if verbs:
            mistakes.append(f"'{{{name}}} … {min(verbs)}': the verb does not agree")
    return mistakes


def test_every_placeholder_is_known_as_a_count_or_a_text(catalog):
    unknown = {(key, name) for key, text in catalog.texts.items()
               for name in placeholders(text) if name not in COUNTS | VALUES | TEXTS}
    assert unknown == set()


def test_every_text_renders_with_counts_0_1_2(catalog):
    """Each count alone at 0, 1 and 2 (the others at 3): no error, no '{' left, and a
    plural form's choice follows the language's rule."""
    for key, text in catalog.texts.items():
        names = placeholders(text)
        for name in sorted(names & (COUNTS | VALUES)):
            for n in (0, 1, 2):
                params = {p: (3 if p in COUNTS | VALUES else "Ana") for p in names} | {name: n}
                shown = catalog.text(key, **params)
                assert "{" not in shown and "|" not in shown, (key, name, n, shown)


def test_words_agree_with_their_counts(catalog):
    mistakes = {key: m for key, text in catalog.texts.items()
                if (m := agreement_mistakes(catalog.language, text))}
    assert mistakes == {}


def test_the_agreement_check_catches_what_was_seen_at_the_table():
    """The check itself, on the texts players complained about."""
    assert agreement_mistakes("fr", "{count} places sur {total} ont répondu")
    assert agreement_mistakes("en", "{name}: {games} games, {wins} wins")
    assert agreement_mistakes("en", "{player} may swap {n} pair(s) of character cards")
    assert agreement_mistakes("en", "{n} × {kind}, but only {left} of the {deck} are not in play")
    assert agreement_mistakes("fr", "{total} cartes, mais {dealt} ont été distribuées")
    assert not agreement_mistakes(
        "fr", "{count} {count:place|places} sur {total} {count:a|ont} répondu")
    assert not agreement_mistakes("en", "Balance: {power} power")


@pytest.mark.parametrize(("language", "key", "params", "expected"), [
    ("fr", "table_check.answered", {"count": 1, "total": 4}, "1 place sur 4 a répondu"),
    ("fr", "table_check.answered", {"count": 0, "total": 4}, "0 place sur 4 a répondu"),
    ("fr", "table_check.answered", {"count": 2, "total": 4}, "2 places sur 4 ont répondu"),
    ("en", "table_check.answered", {"count": 1, "total": 4}, "1 of 4 seats answered"),
    ("en", "koryo.power.swap", {"player": "Ana", "n": 1},
     "Ana may swap 1 pair of character cards — Lobbying"),
    ("en", "koryo.power.destroy", {"player": "Ana", "n": 2},
     "Ana may destroy 2 character cards of other players — Barbarians"),
    ("fr", "koryo.power.destroy", {"player": "Ana", "n": 1},
     "Ana peut détruire 1 personnage d'autres joueurs — Barbares"),
])
def test_sentences_players_read(language, key, params, expected):
    assert load_catalog(language).text(key, **params) == expected


# --- French grammar of every text as rendered -----------------------------------------------

# Names and words that fill a text's placeholders: one beginning with a vowel, one with a
# consonant, one with an accented capital (each elides, or does not, differently).
FILLERS = ("Ana", "Ben", "Élodie")
ELIDABLE_BEFORE_VOWEL = re.compile(
    r"(?i)(?<![\w'’-])(de|que|le|la|ne|se|jusque|lorsque|puisque) "
    r"(?!oui|onz)(?=[aeiouàâäéèêëîïôöùûüœæ])")


def renderings(catalog: Catalog):
    """(key, text) for every text of the catalog with each of its counts at 0, 1 and 2 (the
    others at 3) and every other placeholder filled with each of FILLERS."""
    for key, template in sorted(catalog.texts.items()):
        names = placeholders(template)
        counts = sorted(names & (COUNTS | VALUES)) or [None]
        for filler in FILLERS:
            for count in counts:
                for n in (0, 1, 2):
                    params = {p: 3 if p in COUNTS | VALUES else filler for p in names}
                    if count is not None:
                        params[count] = n
                    yield key, catalog.text(key, **params)


def french_grammar_mistakes(text: str) -> list[str]:
    """What a French reader stops at in ``text``: a word that should elide before a vowel
    ("de Ana", "que Élodie"), a list of names read as a bare enumeration."""
    mistakes = [f"'{m.group(0)}…' not elided" for m in ELIDABLE_BEFORE_VOWEL.finditer(text)]
    if re.search(r"(?i)\bentre \w+, \w+(?! et)\b(?!,)", text):
        mistakes.append("a list of names without 'et'")
    return mistakes


def test_every_french_text_reads_right_with_counts_0_1_2_and_any_name():
    """Every entry of the French catalog, rendered with counts 0, 1 and 2 and names that
    begin with a vowel or not: elisions made, the plural forms chosen by French's rule."""
    catalog = load_catalog("fr")
    mistakes = {}
    for key, text in renderings(catalog):
        for mistake in french_grammar_mistakes(text):
            mistakes.setdefault(key, (text, mistake))
    assert mistakes == {}
    assert sum(1 for _ in renderings(catalog)) > 3 * len(catalog.texts)  # every entry read


def test_the_french_check_catches_what_was_seen_at_the_table():
    for text in ["Tour de Ana : pouvoirs", "au tour de Élodie", "le bulletin de Ana",
                 "Égalité entre Ben, Cleo : le plus de livres"]:
        assert french_grammar_mistakes(text), text
    for text in ["Tour d'Ana : pouvoirs", "Tour de Ben", "Tour de Yi", "de 2 à 5",
                 "Égalité entre Ana, Ben et Cleo : victoire partagée"]:
        assert not french_grammar_mistakes(text), text


@pytest.mark.parametrize(("key", "params", "expected"), [
    ("majority.status.main", {"player": "Ana"}, "Tour d'Ana : pouvoirs, puis fin du tour"),
    ("majority.status.main", {"player": "Ben"}, "Tour de Ben : pouvoirs, puis fin du tour"),
    ("home.progress_turn", {"round_text": "ronde 3", "player": "Élodie", "time": "20:14"},
     "ronde 3, au tour d'Élodie, début 20:14"),
    ("refusal.ballot_locked", {"player": "Ana"},
     "le bulletin d'Ana est verrouillé et ne peut plus changer"),
])
def test_french_elides_before_a_name_with_a_vowel(key, params, expected):
    assert load_catalog("fr").text(key, **params) == expected


def test_french_does_not_elide_before_oui():
    from companion.i18n import elide

    assert elide("le choix de ", "Oui-da 2") == "le choix de Oui-da 2"
    assert elide("le choix de ", "Ana") == "le choix d'Ana"


@pytest.mark.parametrize(("language", "names", "expected"), [
    ("en", [], ""), ("en", ["Ana"], "Ana"), ("en", ["Ben", "Cleo"], "Ben and Cleo"),
    ("en", ["Ana", "Ben", "Cleo"], "Ana, Ben and Cleo"),
    ("fr", ["Ben", "Cleo"], "Ben et Cleo"), ("fr", ["Ana", "Ben", "Cleo"], "Ana, Ben et Cleo"),
])
def test_names_read_as_a_sentence_lists_them(language, names, expected):
    assert load_catalog(language).names(names) == expected


def test_a_tie_between_names_reads_as_a_sentence():
    fr = load_catalog("fr")
    assert fr.text("inheritors.tie.tomes", names=fr.names(["Ben", "Cleo"])) == (
        "Égalité entre Ben et Cleo : le plus de livres en main l'emporte")



# A 0 where a sentence limits or compares a count reads as a machine's ("only 0 remain out
# of play", "n'a que 0 pièce"): such a sentence says none in words (a plural form's zero).
ZERO_AS_A_LIMIT = re.compile(r"(?i)(?<![\w'’-])(only|just|more than|seulement|que|qu'|plus que)"
                             r" 0(?![\w,.])")


def zero_mistakes(text: str) -> list[str]:
    """A count at 0 written where a word for none is wanted."""
    return [f"'{m.group(0)}'" for m in ZERO_AS_A_LIMIT.finditer(text)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_text_says_only_0(language):
    """Every entry with its counts at 0, 1 and 2: a count of none is said in words."""
    mistakes = {}
    for key, text in renderings(load_catalog(language)):
        for mistake in zero_mistakes(text):
            mistakes.setdefault(key, (text, mistake))
    assert mistakes == {}


def test_the_zero_check_catches_what_was_seen_at_the_table():
    for text in ["2 × Omniscients, but the game has 1 and only 0 remain out of play",
                 "Ana n'a que 0 pièce", "et seulement 0 reste hors jeu"]:
        assert zero_mistakes(text), text
    for text in ["the game has 1 and none remains out of play", "only 1 remains",
                 "Ana n'a aucune pièce", "de 0 à 5", "only 0.5"]:
        assert not zero_mistakes(text), text


@pytest.mark.parametrize(("language", "left", "expected"), [
    ("en", 0, "2 × Omniscients, but the game has 1 and none remains out of play"),
    ("en", 1, "2 × Omniscients, but the game has 1 and only 1 remains out of play"),
    ("en", 2, "3 × Omniscients, but the game has 2 and only 2 remain out of play"),
    ("fr", 0, "2 × Omniscients, mais le jeu en a 1 et il n'en reste plus hors jeu"),
    ("fr", 1, "2 × Omniscients, mais le jeu en a 1 et seulement 1 reste hors jeu"),
    ("fr", 2, "3 × Omniscients, mais le jeu en a 2 et seulement 2 restent hors jeu"),
])
def test_a_refused_count_says_how_many_remain_with_0_1_2(language, left, expected):
    n, deck = (3, 2) if left == 2 else (2, 1)
    params = {"n": n, "kinds": "Omniscients", "deck": deck, "left": left}
    assert load_catalog(language).text("refusal.deck", **params) == expected
    assert load_catalog(language).text("majority.refuse.deck", **params | {"kind": "Omniscients"}) \
        == expected

# English words that must not stay inside a French text, and what a French text may quote
# as written: placeholders, quoted values, dotted fields, a file's key before its colon, a
# file's keyword in parentheses ("(add N)", "(hold)").
ENGLISH_WORDS = re.compile(
    r"\b(the|and|of|is|are|not|with|but|or|seat|seats|player|players|card|cards|must|round|"
    r"turn|game|games|press|hold|tap|back|next|none|got|expected|missing|unknown|already|"
    r"used|file|line|only|one|did|you|mean)\b")
QUOTED_AS_WRITTEN = re.compile(
    r"\{[^{}]*\}|'[^']*'|\b[\w-]+(\.[\w-]+)+|\b[\w-]+(?=:)|\([\w-]+( N)?\)")


def english_left(text: str) -> list[str]:
    return ENGLISH_WORDS.findall(QUOTED_AS_WRITTEN.sub("", text))


def test_no_french_text_keeps_an_english_word():
    texts = load_catalog("fr").texts
    assert {key: text for key, text in texts.items() if english_left(text)} == {}


def test_the_english_word_check_sees_what_was_left():
    assert english_left("{player} a voté {side} et ne peut pas changer de camp : add N ou hold")
    assert english_left("couleur inconnue {value} (did you mean 'red'?)")
    assert not english_left("ajouter du Pouvoir (add N) ou s'en tenir là (hold)")
    assert not english_left("il faut {{joueur: carte}} ; seats.0.name ; 'the one'")
