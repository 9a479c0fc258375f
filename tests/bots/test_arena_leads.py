"""The arena's one-card lead counts (big2.arena.leads, issue 45 item 5): they
agree with a plain count read off finished deals' histories, and the arena
reports them per player (table and JSON)."""

from __future__ import annotations

import json
import random

from big2 import Game, Rules
from big2.arena import run_arena
from big2.arena.leads import LeadCount, describe, low_single
from big2.bots import make_bot
from big2.cards import cards_of, parse_cards
from big2.combos import engine


def plain_count(start: Game, final: Game) -> tuple[int, int, int, int]:
    """The counts of one deal read off its history: a lead is an action that
    opens a trick (replayed); the next seat is the seat of the next action."""
    g = start.copy()
    history = final.history
    strength = engine(start.rules).strength
    leads = low = low_out = other_out = 0
    for i, a in enumerate(history):
        opening = g.leading
        hand = g.hands[a.seat]
        g.play(a.cards)
        if not opening or i + 1 == len(history):
            continue
        nxt = history[i + 1].seat
        if nxt == a.seat or g.hands[nxt].bit_count() != 1:
            continue
        leads += 1
        is_low = len(cards_of(a.cards)) == 1 and cards_of(a.cards)[0] != max(
            cards_of(hand), key=lambda c: strength[c])
        low += is_low
        reply = history[i + 1]  # the one-card seat's next action: it goes out or passes
        if reply.cards:
            low_out += is_low
            other_out += not is_low
    return leads, low, low_out, other_out


def test_the_counts_agree_with_a_plain_count_on_random_deals() -> None:
    rng = random.Random(3)
    seen = [0, 0, 0, 0]
    for preset in ("classic", "selfplay-2018"):
        rules = Rules.preset(preset, scoring="count")
        bots = [make_bot(n, seed=s) for s, n in enumerate(["greedy", "heuristic", "random",
                                                           "greedy"])]
        for d in range(60):
            start = Game(rules, seed=rng.randrange(10**9))
            g = start.copy()
            count = LeadCount(1)
            count.new_deal()
            while g.to_move is not None:
                count.before(g, 0)  # every seat counted as one player
                g.play(bots[g.to_move].choose(g.view(g.to_move)))
                count.after(g)
            assert count.counts[0] == plain_count(start, g), (preset, d)
            seen = [x + y for x, y in zip(seen, count.counts[0], strict=True)]
    assert all(seen), seen  # each kind of event happened


def test_low_single_is_a_single_below_the_hand_top() -> None:
    g = Game(hands=["3D 9S 2H", "5C", "6C 7C 8C", "8D 9C 10C"], leader=0)
    assert low_single(g, int(parse_cards("3D"))) and low_single(g, int(parse_cards("9S")))
    assert not low_single(g, int(parse_cards("2H"))) and not low_single(g, 0)


def test_the_arena_reports_the_counts_per_player() -> None:
    result = run_arena(["greedy", "heuristic", "heuristic", "heuristic"], deals=12,
                       rules=Rules(scoring="count"), seed=4)
    greedy = result.seats[0].one_card
    assert greedy[0] >= greedy[1] > 0  # greedy leads its lowest card, one-card seat or not
    data = json.loads(result.to_json())
    assert [s["one_card"] for s in data["seats"]] == [list(s.one_card) for s in result.seats]
    assert f"  greedy: {describe(greedy)}" in result.table().splitlines()
