"""The bot protocol under jokers and two decks: cards travel by name (a
two-deck hand names a card twice), whole deals are played between two
processes, and the bot side numbers copies so every action fits."""

from __future__ import annotations

import json
import sys
from collections import Counter

import pytest

from big2 import Game, Rules
from big2.arena import run_arena
from big2.bots import make_bot
from big2.cards import CARD_NAMES, DECK_SIZE, Mask, cards_of, parse_cards
from big2.protocol import BotSession, ExternalBot, format_play, parse_play

BOT_CMD = f"{sys.executable} -m big2.cli bot"


def names(mask: Mask) -> list[str]:
    return sorted(CARD_NAMES[c] for c in cards_of(mask))


@pytest.mark.parametrize("jokers", ["wild", "valueless"])
def test_joker_deals_over_the_protocol_play_as_in_process(jokers: str) -> None:
    """One deck with jokers: card names say exactly which card, so the bot in
    another process plays exactly as it does in this one."""
    rules = Rules(jokers=jokers)
    a = run_arena([f"cmd:{BOT_CMD} --level greedy", "random", "greedy", "random"],
                  deals=1, rules=rules, seed=4)
    b = run_arena(["greedy", "random", "greedy", "random"], deals=1, rules=rules, seed=4)
    assert a.points == b.points
    assert a.seats[0].faults == 0


def test_two_deck_arena_with_an_external_seat() -> None:
    rules = Rules(decks=2, players=6)
    seats = [f"cmd:{BOT_CMD} --level greedy", "greedy", "random", "greedy", "random", "greedy"]
    result = run_arena(seats, deals=1, rules=rules, seed=2)
    assert result.seats[0].faults == 0
    assert all(len(p) == 6 for p in result.points)


@pytest.mark.parametrize("rules, seed", [
    (Rules(decks=2, players=6), 2),
    (Rules(decks=2, players=5, jokers="wild", five_of_a_kind="above-straight-flush"), 3),
])
def test_whole_two_deck_deal_between_processes(rules: Rules, seed: int) -> None:
    """Every message is answered without an error, every action reaches the bot
    by name, and each of its plays is the in-process bot's play up to the
    order of equally strong plays (copies are numbered its own way there)."""
    game = Game(rules, seed=seed)
    ext = ExternalBot(f"{BOT_CMD} --level greedy", timeout=30)
    seat = 1
    decisions = 0
    try:
        while not game.is_over():
            view = game.view(game.to_move)  # type: ignore[arg-type]
            if game.to_move == seat:
                choice = ext.choose(view)
                ref = make_bot("greedy").choose(view)
                assert choice in view.legal or (choice and choice & ~int(view.hand) == 0)
                if ref:
                    mine, theirs = game.check_play(choice), game.check_play(ref)
                    assert mine is not None and theirs is not None
                    assert (mine.kind, mine.power, choice.bit_count()) == (
                        theirs.kind, theirs.power, ref.bit_count())
                else:
                    assert choice == 0
                decisions += 1
            else:
                choice = make_bot("greedy").choose(view)
            game.play(choice)
        ext.end_deal(game.view(seat))
    finally:
        ext.close()
    assert decisions > 3
    sent = [json.loads(line) for who, line in ext.transcript if who == "host"]
    got = [json.loads(line) for who, line in ext.transcript if who == "bot"]
    assert len(sent) == len(got) and all(r["type"] != "error" for r in got)
    deal = next(m for m in sent if m["type"] == "new_deal")
    assert sorted(deal["hand"].split()) == names(game.initial_hands[seat])
    assert deal["rules"]["decks"] == 2
    actions = [m for m in sent if m["type"] == "action"]
    assert [(a["seat"], sorted(a["cards"].split()) if a["cards"] != "pass" else "pass")
            for a in actions] == [(a.seat, names(a.cards) if a.cards else "pass")
                                  for a in game.history]
    assert sent[-1]["type"] == "end"


def _two_deck_session(seat: int, hand: str, first: int, must: str = "3D") -> BotSession:
    s = BotSession(make_bot("greedy"))
    reply = s.handle(json.dumps({
        "type": "new_deal", "rules": {"decks": 2, "players": 8}, "seat": seat, "hand": hand,
        "first": first, "must_contain": must}))
    assert reply == {"type": "ok"}, reply
    return s


def test_bot_session_numbers_copies_by_name() -> None:
    # this bot holds one 3D; seat 0 holds the other and leads with it
    s = _two_deck_session(1, "3D 3C 4D 4D 5H 6S 7C 8C 9D TS TS JH 2C", first=0)
    assert s.handle('{"type": "action", "seat": 0, "cards": "3D"}') == {"type": "ok"}
    # both copies of 3D are now placed: no other seat can play one
    assert "cannot hold" in s.handle('{"type": "action", "seat": 2, "cards": "3D"}')["message"]
    # the bot beats it with a card it holds; "4D" is either of its two copies
    assert s.handle('{"type": "action", "seat": 1, "cards": "4D"}') == {"type": "ok"}
    assert s.handle('{"type": "action", "seat": 2, "cards": "pass"}') == {"type": "ok"}
    s.handle('{"type": "end"}')
    s = _two_deck_session(0, "3D 3D 4D 4D TS TS 2C 5H 6S 7C 8C 9D JH", first=0)
    play = s.handle('{"type": "go"}')
    assert play["type"] == "play" and "3D" in play["cards"].split()
    assert s.handle(json.dumps({"type": "action", "seat": 0, "cards": "3D 3D"})) == {"type": "ok"}
    assert s.handle('{"type": "action", "seat": 1, "cards": "4S 4S"}') == {"type": "ok"}
    assert s.handle('{"type": "action", "seat": 2, "cards": "4S"}')["type"] == "error"
    bad = s.handle('{"type": "action", "seat": 2, "cards": "4D"}')
    assert bad["type"] == "error" and "4" in bad["message"]


def test_two_deck_new_deal_without_first() -> None:
    """With two decks, holding one 3D does not make a seat first (the other
    copy's holder may sit earlier from the dealer's left): the host must say
    who is; holding both, the bot leads."""
    rules = {"decks": 2, "players": 8}
    s = BotSession(make_bot("greedy"))
    reply = s.handle(json.dumps({"type": "new_deal", "rules": rules, "seat": 2,
                                 "hand": "3D 3C 4D 4D 5H 6S 7C 8C 9D TS TS JH 2C"}))
    assert reply["type"] == "error" and "first" in reply["message"]
    reply = s.handle(json.dumps({"type": "new_deal", "rules": rules, "seat": 2,
                                 "hand": "3D 3D 4D 4D 5H 6S 7C 8C 9D TS TS JH 2C",
                                 "must_contain": "3D"}))
    assert reply == {"type": "ok"}, reply
    play = s.handle('{"type": "go"}')
    assert play["type"] == "play" and "3D" in play["cards"].split()


def test_two_deck_messages_refuse_too_many_copies() -> None:
    s = BotSession(make_bot("random", seed=0))
    reply = s.handle(json.dumps({"type": "new_deal", "rules": {"decks": 2, "players": 6},
                                 "seat": 0, "hand": "3D 3D 3D 4C", "first": 0}))
    assert reply["type"] == "error" and "more than 2 times" in reply["message"]
    reply = s.handle(json.dumps({"type": "new_deal", "rules": "classic",
                                 "seat": 0, "hand": "3D RJ 4C", "first": 0}))
    assert reply["type"] == "error" and "not in this game's deck" in reply["message"]
    reply = s.handle(json.dumps({"type": "new_deal", "rules": {"jokers": "wild"},
                                 "seat": 0, "hand": "3D RJ 4C", "first": 0,
                                 "counts": [3, 13, 13, 13]}))
    assert reply == {"type": "ok"}


def test_format_and_parse_play_with_copies() -> None:
    two = int(parse_cards("9S 9S 2D BJ", copies=2))
    text = format_play(two)
    assert text == "9S 9S 2D BJ"
    assert parse_play(text, copies=2) == two
    assert Counter(text.split())["9S"] == 2
    assert parse_play(["RJ", "RJ"], copies=2) == 1 << 52 | 1 << (52 + DECK_SIZE)
    with pytest.raises(ValueError, match="given twice"):
        parse_play("9S 9S")


def test_four_players_two_decks_deal_26_cards_a_seat() -> None:
    """Issue 23: four players with two decks are dealt 26 cards each. A
    ``new_deal`` without counts takes the deal the rules make (26 a seat, where
    the protocol once assumed 13), and the counts the host reports are 26 each
    and accepted."""
    rules = Rules(players=4, decks=2)
    game = Game(rules, seed=5)
    assert [h.bit_count() for h in game.hands] == [26] * 4
    seat = next(s for s in range(4) if s != game.to_move)
    hand = format_play(game.hands[seat])
    s = BotSession(make_bot("greedy"))
    msg = {"type": "new_deal", "rules": rules.to_dict(), "seat": seat, "hand": hand,
           "first": game.to_move, "must_contain": "3D"}
    assert s.handle(json.dumps(msg)) == {"type": "ok"}
    assert s._game().view(seat).card_counts == (26, 26, 26, 26)
    ext = ExternalBot(f"{BOT_CMD} --level greedy", timeout=30)
    try:
        while game.to_move != seat:
            game.play(make_bot("greedy").choose(game.view(game.to_move)))  # type: ignore[arg-type]
        choice = ext.choose(game.view(seat))
        assert game.check_play(choice) is not None or choice == 0
    finally:
        ext.close()
    sent = [json.loads(line) for who, line in ext.transcript if who == "host"]
    deal = next(m for m in sent if m["type"] == "new_deal")
    assert sum(deal["counts"]) == 104 and deal["counts"] == [26] * 4
    replies = [json.loads(line) for who, line in ext.transcript if who == "bot"]
    assert all(r["type"] != "error" for r in replies)
