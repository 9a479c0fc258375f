"""A deal: turns, tricks, errors, undo, views, matches."""

from __future__ import annotations

import contextlib
import random

import pytest
from python_engine import python_engine

from big2 import PASS, Game, IllegalPlayError, Match, Rules, parse_cards
from big2.cards import cards_of

P = parse_cards

HANDS4 = [
    "3D 5C 7H 9S JD KC 2H 4S 6D 8C TH QS AD",
    "3C 5H 7S 9D JC KH 2S 4D 6C 8H TS QD AC",
    "3H 5S 7D 9C JH KS 2D 4C 6H 8S TD QC AH",
    "3S 5D 7C 9H JS KD 2C 4H 6S 8D TC QH AS",
]


def test_seeded_deal_is_reproducible_and_complete() -> None:
    a, b = Game(seed=11), Game(seed=11)
    assert a.hands == b.hands and Game(seed=12).hands != a.hands
    assert sum(h.bit_count() for h in a.hands) == 52
    assert all(h.bit_count() == 13 for h in a.hands)
    total = 0
    for h in a.hands:
        assert total & h == 0
        total |= h
    assert total == (1 << 52) - 1


def test_three_player_deal_gives_spare_card_to_lowest_holder() -> None:
    for seed in range(30):
        g = Game(Rules(players=3), seed=seed)
        counts = sorted(g.card_counts())
        assert counts == [17, 17, 18]
        big = max(range(3), key=lambda s: g.hands[s].bit_count())
        low = 0 if any(h & 1 for h in g.hands) else None
        if low is not None:
            assert g.hands[big] & 1 or g.hands[big] & 2  # 3♦, or 3♣ when 3♦ was spare
        assert g.to_move == big or g.hands[g.to_move] & 1


def test_thirteen_each_sets_rest_aside_and_lowest_dealt_leads() -> None:
    g = Game(Rules(players=2, deal="13-each"), seed=5)
    assert g.card_counts() == (13, 13)
    low = min(c for h in g.hands for c in cards_of(h))
    assert g.must_contain == 1 << low and g.hands[g.to_move] >> low & 1


def test_first_play_must_contain_lowest_card() -> None:
    g = Game(hands=HANDS4)
    assert g.to_move == 0
    with pytest.raises(IllegalPlayError, match="the first play must contain 3♦"):
        g.play("5C")
    assert all(p & 1 for p in g.legal_masks())
    assert PASS not in g.legal_plays()  # leader cannot pass
    with pytest.raises(IllegalPlayError, match="leader cannot pass"):
        g.pass_turn()


@pytest.mark.parametrize("bad", [1.5, None, object()])
def test_a_play_of_the_wrong_type_says_what_a_play_is_on_both_engines(bad: object) -> None:
    with python_engine():
        reference = Game(hands=HANDS4)
    said = []
    for g in (reference, Game(hands=HANDS4)):
        with pytest.raises(TypeError, match=r"a play is a mask .* not ") as e:
            g.play(bad)  # type: ignore[arg-type]
        said.append(str(e.value))
        assert g.to_move == 0 and g.history == []  # nothing moved
    assert said[0] == said[1]


def test_taiwan_first_play_contains_three_of_clubs() -> None:
    g = Game(Rules.preset("taiwan"), hands=HANDS4)
    assert g.to_move == 1
    with pytest.raises(IllegalPlayError, match="must contain 3♣"):
        g.play("5H")


def test_illegal_play_reasons() -> None:
    g = Game(hands=HANDS4)
    g.play("3D")
    with pytest.raises(IllegalPlayError, match="do not hold 3D|do not hold 3♦"):
        g.play("3D")
    with pytest.raises(IllegalPlayError, match="not a combination under these rules"):
        g.play("3C 5H")
    g.play("5H")
    with pytest.raises(IllegalPlayError, match="does not beat 5♥"):
        g.play("3H")
    g.play("9C")
    with pytest.raises(IllegalPlayError, match="does not beat 9♣"):
        g.play("5D")


def test_pair_on_single_gets_clear_reason() -> None:
    hands = ["3D 4D 9S", "3C 3H 9D", "5C 6C 7C", "8D 8C 8H"]
    g = Game(hands=hands)
    g.play("3D")
    with pytest.raises(IllegalPlayError, match="pair cannot be played on a single"):
        g.play("3C 3H")


def test_jump_back_trick_flow_and_history() -> None:
    g = Game(hands=HANDS4)
    g.play("3D")  # seat 0
    g.pass_turn()  # 1
    g.play("5S")  # 2
    g.pass_turn()  # 3
    assert g.to_move == 0
    g.pass_turn()  # 0
    g.play("7S")  # 1 jumps back in
    g.pass_turn(); g.pass_turn(); g.pass_turn()
    assert g.leading and g.to_move == 1
    assert [a.seat for a in g.history] == [0, 1, 2, 3, 0, 1, 2, 3, 0]
    assert g.trick == ()


def test_lock_out_passing() -> None:
    g = Game(Rules(passing="lock-out"), hands=HANDS4)
    g.play("3D")  # 0
    g.pass_turn()  # 1 locked
    g.play("5S")  # 2
    g.play("7C")  # 3
    g.play("9S")  # 0
    assert g.to_move == 2  # seat 1 skipped
    assert g.view(2).passed == (False, True, False, False)
    g.pass_turn(); g.pass_turn()  # 2, 3
    assert g.leading and g.to_move == 0


def test_scoring_at_deal_end_and_no_play_after() -> None:
    g = Game(hands=["3D", "3C 4C", "3H 4H", "3S 4S"])
    g.play("3D")
    assert g.is_over() and g.winner == 0
    # thresholds count the cards left against the deal's whole hand (13), whatever
    # was dealt (RULES.md §1): 2 cards left pay x1, no doublings
    assert g.scores() == (6, -2, -2, -2)
    assert g.legal_plays() == []
    with pytest.raises(IllegalPlayError, match="over"):
        g.play("3C")


def test_undo_restores_every_position() -> None:
    import random
    rng = random.Random(3)
    g = Game(seed=4)
    states = []
    while not g.is_over():
        states.append((list(g.hands), g.to_move, g.legal_masks()[:]))
        g.play(rng.choice(g.legal_masks()))
    final = g.scores()
    while g.history:
        g.undo()
        hands, to_move, legal = states.pop()
        assert g.hands == hands and g.to_move == to_move and g.legal_masks() == legal
    assert final is not None
    with pytest.raises(IndexError):
        g.undo()


def test_view_shows_only_own_hand() -> None:
    g = Game(seed=9)
    for seat in range(4):
        v = g.view(seat)
        assert v.hand == g.hands[seat]
        others = sum(g.hands) - g.hands[seat]
        for value in (v.hand, v.last_play, v.played):
            assert int(value) & others == 0
        assert v.card_counts == (13, 13, 13, 13)
        assert bool(v.legal) == (seat == g.to_move)


def test_finish_restriction_blocks_going_out_on_a_two() -> None:
    r = Rules(finish_restrictions=("single-2",))
    g = Game(r, hands=["3D 2S", "4D 5D", "6D 7D", "8D 9D"])
    g.play("3D"); g.pass_turn(); g.pass_turn(); g.pass_turn()
    assert g.leading and g.to_move == 0
    with pytest.raises(IllegalPlayError, match="may not go out"):
        g.play("2S")
    assert g.legal_masks() == [0]  # nothing else: a forced pass
    g.pass_turn()
    assert g.to_move == 1 and g.leading


def test_restriction_waived_when_nobody_can_lead() -> None:
    r = Rules(players=2, finish_restrictions=("any-2",))
    g = Game(r, hands=["2S", "2D"], leader=0)
    g.pass_turn()
    g.pass_turn()
    g.play("2S")
    assert g.is_over() and g.winner == 0


def test_ranking_scoring_plays_on_until_one_is_left() -> None:
    r = Rules(scoring="ranking")
    g = Game(r, hands=["3D", "4D 5D", "4C 6D", "4H 7D"])
    g.play("3D")
    assert not g.is_over() and g.to_move == 1 and g.leading is False
    g.play("4D")  # beats 3D
    g.pass_turn(); g.pass_turn()
    g.play("5D")
    assert g.finished == [0, 1] and not g.is_over()
    g.play("6D"); g.play("7D")
    g.pass_turn()  # seat 2 cannot beat 7♦; the trick ends
    assert g.to_move == 3 and g.leading
    g.play("4H")
    assert g.is_over()
    assert g.outcome().finished == (0, 1, 3)
    assert g.scores() == (3, 2, 0, 1)


def test_later_lead_by_winner_in_a_match() -> None:
    import random
    m = Match(Rules(later_lead="winner", match_deals=3), seed=1)
    rng = random.Random(0)
    g = m.new_game()
    while not g.is_over():
        g.play(rng.choice(g.legal_masks()))
    m.record()
    g2 = m.new_game()
    assert g2.to_move == g.winner and not g2.must_contain
    assert g2.dealer == 1


def test_match_totals_and_penalty_target() -> None:
    import random
    rng = random.Random(2)
    m = Match(Rules.preset("pagat"), seed=3)
    deals = 0
    while not m.is_over():
        g = m.new_game()
        while not g.is_over():
            g.play(rng.choice(g.legal_masks()))
        m.record()
        deals += 1
        assert deals < 200
    assert min(m.totals) <= -100
    assert [sum(col) for col in zip(*m.results)] == m.totals
    with pytest.raises(RuntimeError):
        m.new_game()


def test_given_hands_validated() -> None:
    with pytest.raises(ValueError, match="two hands"):
        Game(hands=["3D 4D", "3D 5D"])


def test_from_view_rebuilds_the_position_with_guessed_hands() -> None:
    import random
    rng = random.Random(8)
    for seed in range(40):
        rules = Rules(passing="lock-out") if seed % 2 else Rules()
        g = Game(rules, seed=seed)
        for _ in range(rng.randint(0, 40)):
            if g.is_over():
                break
            g.play(rng.choice(g.legal_masks()))
        if g.is_over():
            continue
        seat = g.to_move
        v = g.view(seat)
        # shuffle the hidden cards among the other seats, keeping counts
        hidden = [c for s in range(4) if s != seat for c in cards_of(g.hands[s])]
        rng.shuffle(hidden)
        guess, i = [], 0
        for s in range(4):
            if s == seat:
                guess.append(g.hands[s])
            else:
                n = g.hands[s].bit_count()
                guess.append(sum(1 << c for c in hidden[i:i + n]))
                i += n
        h = Game.from_view(v, guess)
        assert h.hands == guess and h.to_move == g.to_move
        assert h.legal_masks() == g.legal_masks()
        assert h.view(seat).trick == v.trick and h.view(seat).passed == v.passed
        assert h.last_play == g.last_play and h.must_contain == g.must_contain


@pytest.mark.parametrize("jokers", ["wild", "valueless"])
def test_a_second_copy_of_a_one_deck_card_is_refused_not_passed(jokers: str) -> None:
    """With one deck and jokers, card number c + 54 names no card: refused as not in
    the deck (it was read as the held card's name and played as a pass, then refused
    as "you do not hold" a card the seat held)."""
    game = Game(Rules(jokers=jokers), seed=3)
    game.play(game.legal_masks()[0])
    hand = game.hands[game.to_move]  # type: ignore[index]
    lowest = (hand & -hand).bit_length() - 1
    with pytest.raises(IllegalPlayError, match=f"card number {lowest + 54} is not in this "
                       "game's deck"):
        game.play(1 << (lowest + 54))
    assert len(game.history) == 1


@pytest.mark.parametrize("engine", ["python", "default"])
def test_every_way_of_passing_is_the_same_action(engine: str) -> None:
    """pass_turn(), play(0), play(PASS) and play(" Pass ") make the same pass (one path),
    and a leader's pass is refused in the same words by each."""
    rng = random.Random(3)
    ways = [lambda g: g.pass_turn(), lambda g: g.play(0), lambda g: g.play(PASS),
            lambda g: g.play(" Pass "), lambda g: g.play("p"), lambda g: g.play("")]
    with python_engine() if engine == "python" else contextlib.nullcontext():
        for seed in range(4):
            game = Game(seed=seed)
            while not game.is_over():
                copies = [game.copy() for _ in ways]
                words = set()
                for way, g in zip(ways, copies):
                    try:
                        way(g)
                    except IllegalPlayError as exc:
                        words.add(str(exc))
                        assert g.history == game.history
                    else:
                        assert g.history[-1].cards == 0
                assert len(words) <= 1 and (words == set()) == (0 in game.legal_masks())
                done = [(g.history, g.to_move, g.hands, g.trick_start) for g in copies]
                assert all(d == done[0] for d in done)
                game.play(rng.choice(game.legal_masks()))
