"""A French table reads the rulebooks' own French names for every card and token.

The names below are copied from the French rulebooks (Koryŏ: « Marchand », « Barbare »,
« Lobbying », « Point de Victoire », « 1er joueur »; Chosŏn, « Ronde de jeu » and the
card texts: « Voyageur temporel », « Bouclier de Yi », « Yi’s Legacy » (printed in
English in the French rulebook), « Riposte à l’épée », « Riposte par arme à feu »,
« Arme à Feu », « Epée »; Les Héritiers: cartes « Livre », « Légende », « Relique »,
« Quête », « Exploit »; Le Dilemme du Roi: jetons « Meneur », « Modérateur », « Objectif
secret », « Objectif public »). The engines' names and the French catalog must use them,
and no other French name may stand for one of them. A round of Koryŏ and Chosŏn is a
« ronde » (« Ronde de jeu »), one of The King's Dilemma a « manche » (« Phases d'une
manche »): each game's texts say its own word, never the other."""

from __future__ import annotations

import re

import pytest

from companion.games.choson import rules as choson
from companion.games.koryo import rules as koryo
from companion.i18n import load_catalog

KORYO_FAMILIES = {
    9: ("Marchand", "Marchands"), 8: ("Broadcaster", "Broadcasters"),
    7: ("Gardien", "Gardiens"), 6: ("Banquier", "Banquiers"), 5: ("Armateur", "Armateurs"),
    4: ("Prêtre", "Prêtres"), 3: ("Sénateur", "Sénateurs"), 2: ("Espion", "Espions"),
    1: ("Omniscient", "Omniscients"),
}
KORYO_EVENTS = {"barbarian": ("Barbare", "Barbares"), "lobbying": ("Lobbying", "Lobbying")}
CHOSON_FAMILIES = {
    1: "Yi", 2: "Sniper", 3: "Oracle", 4: "Faucheur", 5: "Gosu", 6: "Scientifique",
    7: "Hulk", 8: "Voyageur temporel", 9: "Observateur",
}
# Catalog texts that are a token's or an effect's name and nothing else.
FR_NAMES = {
    "choson.token.return_fire": "Riposte par arme à feu",
    "choson.token.counter_attack": "Riposte à l’épée",
    "majority.final.yi_legacy": "Yi’s Legacy",
    "refusal.effect.lobby": "Lobby",
    "refusal.effect.firearm": "Arme à Feu",
    "refusal.effect.sword": "Epée",
    "kd.token.leader": "Meneur",
    "kd.token.moderator": "Modérateur",
    "inheritors.part.tomes": "Livres",
    "inheritors.part.relics": "Reliques",
    "inheritors.part.quests": "Quêtes",
    "inheritors.part.honors": "Exploits",
}
# Names the rulebooks do not use for these cards and tokens (earlier translations), and the
# sentence in which each must not appear. "PV" stays: the rulebooks' own short form of
# « points de victoire (PV) ».
NOT_THE_RULEBOOKS = [
    (r"Héritage de Yi", "Yi’s Legacy"),
    (r"Contre-attaque", "Riposte à l’épée"),
    (r"\bRiposte\b(?! (à l’épée|par arme à feu))", "Riposte à l’épée / par arme à feu"),
    (r"Arme à feu", "Arme à Feu"),
    (r"Épée", "Epée"),
    (r"jeton premier joueur", "jeton 1er Joueur"),
    (r"(?i)\bhonneurs?\b", "Exploit"),
    (r"Bouclier Yi|bouclier de Yi", "Bouclier de Yi"),
]


def test_koryo_families_and_events_carry_the_rulebooks_french_names():
    assert {v: (f.fr, f.fr_plural) for v, f in koryo.FAMILIES.items()} == KORYO_FAMILIES
    assert {k: (fr, frp) for k, (_, fr, _, frp) in koryo.EVENT_NAMES.items()} == KORYO_EVENTS


def test_choson_families_carry_the_rulebooks_french_names():
    assert {v: f.fr for v, f in choson.FAMILIES.items()} == CHOSON_FAMILIES


@pytest.mark.parametrize(("key", "name"), sorted(FR_NAMES.items()))
def test_french_catalog_names_tokens_as_the_rulebooks_do(key, name):
    assert load_catalog("fr").texts[key] == name


def test_no_french_text_uses_another_name_for_a_card_or_token():
    texts = load_catalog("fr").texts
    wrong = [
        f"{key}: {text!r} (the rulebook says {right})"
        for key, text in sorted(texts.items())
        for pattern, right in NOT_THE_RULEBOOKS
        if re.search(pattern, text)
    ]
    assert wrong == []


def kings_dilemma_text(key: str) -> bool:
    return key.startswith("kd.") or "kings-dilemma" in key


def round_word_mistakes(texts: dict[str, str]) -> list[str]:
    """Texts that call a round by the other game's word."""
    return [f"{key}: {text!r}" for key, text in sorted(texts.items())
            if re.search(r"(?i)\brondes?\b" if kings_dilemma_text(key) else r"(?i)\bmanches?\b",
                         text)]


def test_each_game_calls_its_rounds_as_its_rulebook_does():
    texts = load_catalog("fr").texts
    assert round_word_mistakes(texts) == []
    assert re.search(r"\bronde\b", texts["majority.status.setup"])  # the check has texts to read
    assert re.search(r"\bmanche\b", texts["home.round.kings-dilemma"])


def test_the_round_word_check_catches_the_other_word():
    assert round_word_mistakes({"majority.status.end": "Fin de manche"})
    assert round_word_mistakes({"home.round.koryo": "Manche {round}"})
    assert round_word_mistakes({"home.round.kings-dilemma": "ronde {round}"})
    assert not round_word_mistakes({"home.round.choson": "ronde {round}",
                                    "kd.round": "manche {round}"})


def test_the_check_catches_a_wrong_name():
    """The patterns are not vacuous: the names the screens used to show are caught."""
    earlier = ["Héritage de Yi : Ana", "Riposte : Ben", "Contre-attaque", "Honneurs",
               "ni Lobby, ni Arme à feu, ni Épée", "jeton premier joueur et 1 PV"]
    for text in earlier:
        assert any(re.search(p, text) for p, _ in NOT_THE_RULEBOOKS), text
    for text in ["Riposte à l’épée : Ben", "Riposte par arme à feu", "Riposter", "1 PV"]:
        assert not any(re.search(p, text) for p, _ in NOT_THE_RULEBOOKS), text
