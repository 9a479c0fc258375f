"""``big2.scoring.explain`` agrees with the scorer on random deals, and its
lines say what the scorer did.

The random-hands sweep checks its first 100 hands (25 with two players,
whose hands of up to 51 cards are slow to score) in ``make test`` and the
rest under the ``nightly`` marker (``make test-nightly``; CI runs a slice): together the same
400 hands as always.
"""

from __future__ import annotations

import random

import pytest

from big2 import Rules, parse_cards
from big2.cards import FULL_DECK, cards_of
from big2.game import Game, Outcome
from big2.scoring import explain, score
from big2.variant import variant
from big2.variant.explain import explain_score
from big2.view import Action

RULE_SETS = [
    Rules(),
    Rules(twos_double="once"),
    Rules(players=3),
    Rules(scoring="count"),
    Rules(scoring="count", count_twos_double=True),
    Rules(scoring="penalty"),
    Rules(scoring="ranking"),
    Rules(players=2),
]


@pytest.mark.parametrize("part", [pytest.param("share", id="share", marks=pytest.mark.sweep),
                                  pytest.param("rest", id="rest", marks=pytest.mark.nightly)])
@pytest.mark.parametrize("rules", RULE_SETS, ids=repr)
def test_explained_points_equal_the_score_on_random_hands(rules: Rules, part: str) -> None:
    rng = random.Random(7)
    scorer = variant(rules).scorer
    deck = list(cards_of(FULL_DECK))
    n = rules.players
    share = 25 if n == 2 else 100  # two players: hands of up to 51 cards, slow to score
    checked = range(share) if part == "share" else range(share, 400)
    for i in range(400):
        rng.shuffle(deck)
        cuts = sorted(rng.sample(range(1, 52), n - 1))
        hands = [sum(1 << c for c in deck[a:b]) for a, b in zip([0, *cuts], [*cuts, 52])]
        winner = rng.randrange(n)
        last = hands[winner] & -hands[winner]  # one card of the winner's: a single
        if rng.random() < 0.3:  # sometimes go out on four of a kind
            last = parse_cards("4D 4C 4H 4S")
        hands[winner] = 0
        finished = [winner, *rng.sample([s for s in range(n) if s != winner], n - 1)]
        if i not in checked:  # the other part's hand: drawn, so the rest stay the same
            continue
        expected = scorer.score(hands, winner, last, finished)
        lines = explain_score(scorer, hands, winner, last, finished)
        assert tuple(line.points for line in lines) == expected
        assert [line.left for line in lines] == [h.bit_count() for h in hands]
        for line in lines:
            assert line.describe("X").startswith(f"X {line.points:+d}")


@pytest.mark.parametrize("preset", ["classic", "taiwan", "selfplay-2018", "pagat"])
def test_explain_a_played_deal_matches_its_outcome(preset: str) -> None:
    from big2.bots import make_bot

    for seed in range(5):
        g = Game(Rules.preset(preset), seed=seed)
        bots = [make_bot("greedy", seed=s) for s in range(g.num_players)]
        while not g.is_over():
            g.play(bots[g.to_move].choose(g.view(g.to_move)))
        outcome = g.outcome()
        assert outcome is not None
        assert tuple(line.points for line in explain(g)) == tuple(outcome.scores)


def test_the_reasons_are_named() -> None:
    p = parse_cards
    hands = [0, p("4D 5D 6D 2H"), p("3H 4H 5H 6H 7H 9C 9D JS QS KH")]
    lines = explain(_finished(Rules(players=3), hands, last=p("AS")))
    assert lines[1].twos == 1 and lines[1].doublings == 1
    assert lines[2].bombs == 1 and lines[2].describe("W").count("doubled") == 1
    assert lines[0].collects == (-lines[1].points, -lines[2].points)
    assert "went out first" in lines[0].describe("N")


def test_repeated_doublings_are_said_once() -> None:
    scorer = variant(Rules()).scorer
    hand = parse_cards("2D 2C 2H 5S 6S")
    line = explain_score(scorer, [0, hand, 0, 0], winner=0, last_play=parse_cards("AS"))[1]
    assert line.twos == 3 and line.points == -(5 << 3)
    assert line.describe("B") == "B -40: 5 cards, doubled 3 times for 3 2s held"


def test_multipliers_are_explained() -> None:
    scorer = variant(Rules()).scorer
    ten = parse_cards("3D 4C 5H 6S 7D 8C 9H TS JD QC")
    lines = explain_score(scorer, [0, ten, 0, 0], winner=0, last_play=parse_cards("AS"))
    assert lines[1].per_card == 2 and "×2 (10 or more of 13)" in lines[1].describe()
    assert lines[1].points == score(Rules(), [0, ten, 0, 0], 0, parse_cards("AS"))[1]


def test_an_unfinished_deal_has_no_explanation() -> None:
    with pytest.raises(ValueError, match="not over"):
        explain(Game(seed=1))


def _finished(rules: Rules, hands: list[int], last: int) -> Game:
    """A game ended by hand: seat 0 went out with *last*."""
    g = Game(rules, seed=0)
    g.hands = list(hands)
    g.history.append(Action(0, last))
    g.end(Outcome(0, variant(rules).scorer.score(hands, 0, last, [0]), (0,)))
    return g
