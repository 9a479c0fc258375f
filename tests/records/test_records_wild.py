"""Records of deals with jokers and two decks: text and JSON round trips,
replay equal to the deal at every ply, copies of a card named alike, and
clear errors for malformed input."""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from pathlib import Path

import pytest

from big2 import Game, Rules
from big2.cards import CARD_NAMES, DECK_SIZE, JOKERS, MAX_CARDS, Mask, cards_of
from big2.records import GameRecord, RecordError, from_json, read_one, to_json, write
from big2.view import Action

RULES = {
    "jokers-wild": Rules(jokers="wild"),
    "jokers-valueless": Rules(jokers="valueless"),
    "two-decks-6": Rules(decks=2, players=6),
    "two-decks-5-wild-five": Rules(decks=2, players=5, jokers="wild",
                                   five_of_a_kind="above-straight-flush"),
    "two-decks-8-equal": Rules(decks=2, players=8, play_equal=True),
}


def names(mask: Mask) -> list[str]:
    """The card names of *mask*, as a sorted list (copies of a card alike)."""
    return sorted(CARD_NAMES[c] for c in cards_of(mask))


def other_copies(move: Mask, hand: Mask) -> Mask:
    """*move* with each card swapped for its other copy where *hand* holds that."""
    out = move
    for c in cards_of(move):
        twin = c + DECK_SIZE if c < DECK_SIZE else c - DECK_SIZE
        if hand >> twin & 1 and not out >> twin & 1:
            out = out & ~(1 << c) | 1 << twin
    return out


def random_game(rules: Rules, seed: int, plies: int | None = None) -> Game:
    """A deal with random legal actions, some made with the copies the
    legal plays do not list (a player may hold either)."""
    game = Game(rules, seed=seed, names=[f"P{i}" for i in range(rules.players)])
    rng = random.Random(seed)
    while not game.is_over() and (plies is None or len(game.history) < plies):
        move = rng.choice(game.legal_masks())
        if move and rng.random() < 0.5 and not game.must_contain:
            assert game.to_move is not None
            move = other_copies(move, game.hand(game.to_move).mask)
        game.play(move)
    return game


def state(game: Game) -> tuple[object, ...]:
    """What a player could see of *game* by card names: copies are alike."""
    outcome = game.outcome()
    return (game.to_move, tuple(names(h) for h in game.hands),
            tuple((a.seat, names(a.cards)) for a in game.history),
            names(int(game.last_play)), outcome)


def assert_replays(game: Game, rec: GameRecord) -> None:
    """*rec* replays *game* ply by ply (by names), from its own deal."""
    fresh = Game(game.rules, seed=game.seed, names=game.names)
    replay = rec.new_game()
    assert state(replay) == state(fresh)
    for i, action in enumerate(rec.actions):
        assert action.seat == game.history[i].seat
        assert names(action.cards) == names(game.history[i].cards)
        fresh.play(game.history[i].cards)
        replay.play(action.cards)
        assert state(replay) == state(fresh), f"ply {i + 1}"
    assert len(rec.actions) == len(game.history)
    assert state(replay) == state(game)


@pytest.mark.sweep  # over many rule sets: make test, not make test-fast
@pytest.mark.parametrize("key", sorted(RULES))
def test_round_trips_and_replays(key: str) -> None:
    rules = RULES[key]
    rng = random.Random(key)
    for k in range(3):
        seed = rng.randrange(10**6)
        game = random_game(rules, seed, plies=None if k < 2 else rng.randrange(1, 30))
        rec = GameRecord.from_game(game, tags={"Deal": str(k + 1)})
        assert_replays(game, rec)
        text = write(rec)
        again = read_one(text)
        assert again == rec
        assert write(again) == text
        assert_replays(game, again)
        (from_js,) = from_json(to_json(rec))
        assert from_js == rec
        assert_replays(game, from_js)
        if k < 2:
            assert rec.is_finished and rec.scores == game.outcome().scores  # type: ignore[union-attr]
        for ply in sorted(rng.sample(range(len(rec.actions) + 1), 3)):
            assert state(again.to_game(ply)) == state(_prefix(game, ply))


def _prefix(game: Game, ply: int) -> Game:
    g = Game(game.rules, seed=game.seed, names=game.names)
    for a in game.history[:ply]:
        g.play(a.cards)
    return g


def test_records_name_copies_alike_and_list_both() -> None:
    game = random_game(RULES["two-decks-6"], 5)
    text = write(GameRecord.from_game(game))
    hand_lines = [line for line in text.splitlines() if line[:1] == "S" and ":" in line]
    assert len(hand_lines) == 6
    dealt = Counter(tok for line in hand_lines for tok in line.split(":")[1].split())
    # every card of the two decks is dealt, each name twice, some in one hand
    assert set(dealt.values()) == {2} and len(dealt) == 52
    assert any(max(Counter(line.split(":")[1].split()).values()) == 2 for line in hand_lines)
    for seat, line in enumerate(hand_lines):
        assert sorted(line.split(":")[1].split()) == names(game.initial_hands[seat])


def _split_low_deal(rules: Rules, first: int, second: int) -> list[Mask]:
    """Two decks: 3D's copies dealt to two seats, the first deck's to *first*
    and the second deck's to *second*; the other cards shuffled out evenly."""
    n = rules.players
    cards = [c for c in range(MAX_CARDS) if c % DECK_SIZE < 52 and c % DECK_SIZE != 0]
    random.Random(3).shuffle(cards)
    per = len(cards) // n
    hands = [sum(1 << c for c in cards[per * s:per * s + per]) for s in range(n)]
    hands[first] |= 1 << 0
    hands[second] |= 1 << DECK_SIZE
    return hands


def _first_from_the_left(rules: Rules, dealer: int, holders: set[int]) -> int:
    """The first of *holders* after *dealer* in the direction of play."""
    step = -1 if rules.direction == "clockwise" else 1
    n = rules.players
    return next(s for k in range(1, n + 1) if (s := (dealer + step * k) % n) in holders)


@pytest.mark.parametrize("direction", ["counter-clockwise", "clockwise"])
@pytest.mark.parametrize("first,second", [(1, 4), (4, 1)])
def test_two_holders_of_the_lowest_card_lead_by_the_dealer(
        direction: str, first: int, second: int) -> None:
    """Whoever holds which copy of 3D, the first holder from the dealer's
    left leads; a record (text and JSON) starts the deal with that seat and
    replays the deal at every ply, with no tag saying who holds which copy."""
    rules = Rules(decks=2, players=6, direction=direction)
    leaders = set()
    for dealer in range(rules.players):
        game = Game(rules, hands=_split_low_deal(rules, first, second), dealer=dealer,
                    seed=None)
        leader = _first_from_the_left(rules, dealer, {first, second})
        leaders.add(leader)
        assert game.to_move == leader
        rng = random.Random(dealer)
        while not game.is_over() and len(game.history) < 40:
            move = rng.choice(game.legal_masks())
            if move and rng.random() < 0.5:
                assert game.to_move is not None
                move = other_copies(move, game.hand(game.to_move).mask)
            game.play(move)
        assert game.history[0].seat == leader
        rec = GameRecord.from_game(game)
        assert rec.leader is None and rec.dealer == dealer
        # copies numbered one way: the lower seat holds the first deck's 3D
        assert rec.hands[1] & 1 and rec.hands[4] >> DECK_SIZE & 1
        text = write(rec)
        assert "Starter" not in text and "starter" not in to_json(rec)
        for again in (read_one(text), from_json(to_json(rec))[0]):
            assert again == rec
            assert again.new_game().to_move == leader
            assert again.to_game(0).to_move == leader
            for ply in range(len(game.history) + 1):
                assert state(again.to_game(ply)) == state(_replay(game, ply)), ply
    assert leaders == {1, 4}


def _replay(game: Game, ply: int) -> Game:
    """*game* after its first *ply* actions, from its own hands and dealer."""
    g = Game(game.rules, hands=list(game.initial_hands), dealer=game.dealer, seed=None)
    for a in game.history[:ply]:
        g.play(a.cards)
    return g


def test_an_old_starter_tag_or_key_is_read_and_ignored() -> None:
    """Records written while a [Starter] tag (JSON "starter") named who held
    the first deck's copy of the lowest card still read, to the same record."""
    rules = Rules(decks=2, players=6)
    game = Game(rules, hands=_split_low_deal(rules, 4, 1), dealer=2, seed=None)
    for _ in range(5):
        game.play(random.Random(1).choice(game.legal_masks()))
    rec = GameRecord.from_game(game)
    text = write(rec)
    for seat in ("S4", "S1", "S0"):
        old = text.replace("[Dealer", f'[Starter "{seat}"]\n[Dealer', 1)
        assert old != text
        assert read_one(old) == rec
        assert "Starter" not in read_one(old).tags and write(read_one(old)) == text
        data = json.loads(to_json(rec))
        data["starter"] = int(seat[1:])
        assert from_json(json.dumps(data))[0] == rec


def test_a_lead_with_the_second_copy_of_the_lowest_card_is_no_free_lead() -> None:
    """A seat dealt both copies of 3D may lead with either: a lead with the
    second deck's copy is the lowest-card rule, not a free [Leader]."""
    rules = Rules(decks=2, players=6)
    hands = _split_low_deal(rules, 2, 5)
    hands[5] &= ~(1 << DECK_SIZE)
    hands[2] |= 1 << DECK_SIZE
    game = Game(rules, hands=hands, dealer=0, seed=None)
    assert game.to_move == 2
    game.play(1 << DECK_SIZE)
    rec = GameRecord.from_game(game)
    assert rec.leader is None and "[Leader" not in write(rec)
    assert rec.actions == (Action(2, 1),)  # the first deck's copy played first
    assert read_one(write(rec)) == rec


def test_one_deck_records_do_not_change() -> None:
    game = random_game(Rules(), 9)
    rec = GameRecord.from_game(game)
    assert rec.hands == game.initial_hands and rec.actions == tuple(game.history)
    assert "Starter" not in write(rec)
    assert "starter" not in json.loads(to_json(rec))


def _two_deck_text() -> tuple[Game, str]:
    game = random_game(RULES["two-decks-5-wild-five"], 77, plies=12)
    return game, write(GameRecord.from_game(game))


def _hand_line(text: str, seat: int) -> str:
    return next(line for line in text.splitlines() if line.startswith(f"S{seat}:"))


def _line_no(text: str, line: str) -> int:
    return text.splitlines().index(line) + 1


def test_a_card_named_three_times_in_one_hand() -> None:
    _, text = _two_deck_text()
    line = _hand_line(text, 0)
    card = line.split()[1]
    bad = text.replace(line, f"{line} {card} {card}")
    with pytest.raises(RecordError, match=f"card '{card}' given more than 2 times") as err:
        read_one(bad)
    assert err.value.line == _line_no(text, line)


def test_a_card_dealt_more_often_than_there_are_decks() -> None:
    _, text = _two_deck_text()
    s0, s1 = _hand_line(text, 0), _hand_line(text, 1)
    card = s0.split()[1]
    bad = text.replace(s1, f"{s1} {card} {card}")
    with pytest.raises(RecordError, match=f"{card} is dealt (3|4) times: there are only 2 copies"):
        read_one(bad)
    with pytest.raises(RecordError, match="two copies|2 copies|more than 2"):
        data = json.loads(to_json(read_one(text)))
        data["hands"][1] += f" {card} {card}"
        from_json(json.dumps(data))


def test_one_deck_still_refuses_a_card_named_twice() -> None:
    game = random_game(RULES["jokers-wild"], 3, plies=4)
    text = write(GameRecord.from_game(game))
    line = _hand_line(text, 2)
    card = line.split()[1]
    with pytest.raises(RecordError, match=f"card '{card}' given twice") as err:
        read_one(text.replace(line, f"{line} {card}"))
    assert err.value.line == _line_no(text, line)
    data = json.loads(to_json(read_one(text)))
    data["hands"][2] += f" {card}"
    with pytest.raises(RecordError, match="given twice"):
        from_json(json.dumps(data))


def test_bad_joker_errors() -> None:
    game, text = _two_deck_text()
    rec = read_one(text)
    # four jokers, five seats: some seat holds none; make its first action a joker
    seat = next(s for s in range(5) if not game.initial_hands[s] & JOKERS)
    k = next(i for i, a in enumerate(rec.actions) if a.seat == seat)
    actions = list(rec.actions)
    actions[k] = Action(seat, 1 << 52)
    bad = write(dataclasses.replace(rec, actions=tuple(actions[:k + 1]), winner=None,
                                    scores=None))
    with pytest.raises(RecordError, match=f"illegal action by S{seat} \\(action {k + 1}\\): "
                       "you do not hold RJ") as err:
        read_one(bad)
    assert err.value.line is not None and f"S{seat} RJ" in bad.splitlines()[err.value.line - 1]
    line = next(x for x in text.splitlines() if x.startswith("1."))
    with pytest.raises(RecordError, match="card 'RJ' given more than 2 times"):
        read_one(text.replace(line, line + "  S0 RJ RJ RJ"))
    with pytest.raises(RecordError, match="unknown card 'ZJ'"):
        read_one(text.replace(line, line + " ZJ"))


def _svg_cards(image: str) -> list[str]:
    import xml.etree.ElementTree as ET

    return [el.get("data-card", "") for el in ET.fromstring(image).iter() if el.get("data-card")]


def test_svg_and_replay_commands_on_a_two_deck_record(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from big2.commands.records import replay_command, svg_command

    runner = CliRunner()
    result = runner.invoke(svg_command, ["3D 3D RJ 2S", "--selected", "3D RJ"])
    assert result.exit_code == 0, result.output
    assert _svg_cards(result.output) == ["3D", "3D", "2S", "RJ"]
    assert result.output.count('class="card selected"') == 2
    game = random_game(RULES["two-decks-5-wild-five"], 12)
    path = tmp_path / "deal.txt"
    path.write_text(write(GameRecord.from_game(game)), encoding="utf-8")
    rec = read_one(path.read_text(encoding="utf-8"))
    at = len(rec.actions) // 2
    result = runner.invoke(svg_command, ["--record", str(path), "--seat", "4", "--at", str(at)])
    assert result.exit_code == 0, result.output
    mid = _prefix(game, at)
    assert Counter(_svg_cards(result.output)) == Counter(names(mid.hands[4])) + Counter(
        names(int(mid.last_play)))
    result = runner.invoke(svg_command, ["--record", str(path), "--replay"])
    assert result.exit_code == 0
    assert sorted(_svg_cards(result.output)) == sorted(
        n for a in game.history for n in names(a.cards))
    result = runner.invoke(replay_command, [str(path), "--all"])
    assert result.exit_code == 0, result.output
    assert result.output.count("went out. Scores:") == 1
