"""The text notation for deals: tag lines, the deal, then the plays.

Modelled on PGN and poker hand histories. One deal reads::

    [Date "2025.01.31"]
    [Rules "classic"]
    [Players "4"]
    [Seat0 "Ann"]
    ...
    [Result "S2"]
    [Scores "-3 -22 +33 -8"]

    S0: 4D 5C 6H ...
    ...

    1. S3 3D 4D 5D 6C 7H  S0 pass  S1 pass  S2 pass
    2. S3 9H  S0 QD  S1 2C  S2 pass  S3 pass  S0 pass

Tag values are JSON strings (so ``\\"`` and ``\\\\`` escape). ``;`` starts
a comment to the end of a plays or deal line. Each plays line is one trick,
numbered; the numbers and the line breaks are for people, the reader only
needs each action (a seat, then its cards or ``pass``) to sit on one line.
A file may hold many deals (a match): a tag line after plays starts the next.
See ``docs/records.md`` for the grammar.

>>> from big2 import Game
>>> g = Game(seed=3, names=["Ann", "Bo", "Cy", "Di"])
>>> g.play(g.legal_masks()[0])
>>> text = write(GameRecord.from_game(g))
>>> seat = g.history[0].seat
>>> text.splitlines()[-1] == f"1. S{seat} 3D"
True
>>> read_one(text).to_game().history == g.history
True
>>> read_one(text.replace(f"1. S{seat} 3D", f"1. S{seat} 3S"))
Traceback (most recent call last):
...
big2.records.record.RecordError: line 16: illegal action by S... (action 1): you do not hold 3♠
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from big2.cards import CARD_NAMES, DECK_SIZE, InvalidCardError, Mask, cards_of, parse_card
from big2.game import deal as deal_hands
from big2.records.record import GameRecord, RecordError, allocate_copies
from big2.rules import OPTIONS, PRESETS, InvalidRulesError, Rules
from big2.variant import variant
from big2.view import Action

# Tags the notation gives a meaning; any other tag is kept as text. "Starter"
# (who held the first deck's copy of the lowest card) was written by earlier
# versions; the card names now decide who leads, so it is read and dropped.
_OWN_TAGS = ("Rules", "Set", "Players", "Seed", "Dealer", "Leader", "Starter", "Totals",
             "Result", "Scores")
_OPTIONS = {o.name: o for o in OPTIONS}

_TAG = re.compile(r'\[([A-Za-z][A-Za-z0-9_]*)\s+("(?:[^"\\]|\\.)*")\s*\]')
_HAND = re.compile(r"[Ss](\d+)\s*:(.*)")
_SEAT = re.compile(r"[Ss](\d+)")
_NUMBER = re.compile(r"\d+\.")
_WRAP = 78


# ------------------------------------------------------------------ writing

def write(records: GameRecord | Iterable[GameRecord]) -> str:
    """The notation of one record, or of several separated by blank lines."""
    if isinstance(records, GameRecord):
        records = [records]
    return "\n".join(_write_one(r) for r in records)


# Characters str.splitlines() breaks on that JSON leaves unescaped.
_LINE_BREAKS = {ord(ch): f"\\u{ord(ch):04x}" for ch in "\x1c\x1d\x1e\x85\u2028\u2029"}


def _tag(name: str, value: object) -> str:
    text = json.dumps(str(value), ensure_ascii=False).translate(_LINE_BREAKS)
    return f"[{name} {text}]"


def _cards(mask: Mask, rules: Rules) -> str:
    return " ".join(CARD_NAMES[c] for c in sorted(cards_of(mask), key=rules.strength))


def _option_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (tuple, list)):
        return ",".join(map(str, value))
    return str(value)


def closest_preset(rules: Rules) -> tuple[str, dict[str, Any]]:
    """The preset nearest *rules* and the options that differ from it
    (``players`` aside), fewest differences first, earlier presets on a tie.

    >>> closest_preset(Rules.preset("taiwan", match_deals=2, players=3))
    ('taiwan', {'match_deals': 2})
    """
    mine = rules.to_dict()
    best: tuple[str, dict[str, Any]] | None = None
    for name in PRESETS:
        base = Rules.preset(name).to_dict()
        diff = {k: v for k, v in mine.items() if k != "players" and base[k] != v}
        if best is None or len(diff) < len(best[1]):
            best = (name, diff)
    assert best is not None
    return best


def _write_one(rec: GameRecord) -> str:
    rules = rec.rules
    lines = [_tag(k, v) for k, v in rec.tags.items()]
    preset, diff = closest_preset(rules)
    lines.append(_tag("Rules", preset))
    lines += [_tag("Set", f"{k}={_option_text(v)}") for k, v in diff.items()]
    lines.append(_tag("Players", variant(rules).players))
    lines += [_tag(f"Seat{s}", name) for s, name in enumerate(rec.names)]
    if rec.seed is not None:
        lines.append(_tag("Seed", rec.seed))
    lines.append(_tag("Dealer", rec.dealer))
    if rec.leader is not None:
        lines.append(_tag("Leader", rec.leader))
    if rec.totals:
        lines.append(_tag("Totals", " ".join(f"{t:+d}" for t in rec.totals)))
    lines.append(_tag("Result", "*" if rec.winner is None else f"S{rec.winner}"))
    if rec.scores is not None:
        lines.append(_tag("Scores", " ".join(f"{s:+d}" for s in rec.scores)))
    lines.append("")
    lines += [f"S{s}: {_cards(h, rules)}" for s, h in enumerate(rec.hands)]
    if rec.actions:
        lines.append("")
        lines += _plays_lines(rec)
    return "\n".join(lines) + "\n"


def _plays_lines(rec: GameRecord) -> list[str]:
    """One numbered line per trick (wrapped when long)."""
    starts = _trick_starts(rec)
    tricks: list[list[str]] = []
    for i, a in enumerate(rec.actions):
        what = _cards(a.cards, rec.rules) if a.cards else "pass"
        if i in starts or not tricks:
            tricks.append([])
        tricks[-1].append(f"S{a.seat} {what}")
    out = []
    for number, items in enumerate(tricks, 1):
        line = f"{number}."
        for item in items:
            if len(line) + 2 + len(item) > _WRAP and not line.endswith("."):
                out.append(line)
                line = " " * len(f"{number}.")
            line += (" " if line.endswith(".") else "  ") + item
        out.append(line)
    return out


def _trick_starts(rec: GameRecord) -> set[int]:
    """Indexes of the actions that begin a trick (every one, past a bad play)."""
    starts: set[int] = set()
    try:
        game = rec.new_game()
        for i, a in enumerate(rec.actions):
            if not game.trick:
                starts.add(i)
            if a.seat != game.to_move:
                raise ValueError("out of turn")
            game.play(a.cards)
    except ValueError:
        return starts | set(range(len(rec.actions)))
    return starts


# ------------------------------------------------------------------ reading

@dataclass
class _Chunk:
    """The lines of one record, sorted into tags, hands and action lines."""

    start: int
    tags: dict[str, tuple[str, int]] = field(default_factory=dict)
    sets: list[tuple[str, int]] = field(default_factory=list)
    hands: dict[int, tuple[list[str], int]] = field(default_factory=dict)
    actions: list[tuple[int, list[str], int]] = field(default_factory=list)  # [] passes
    end: int = 0


def read(text: str) -> list[GameRecord]:
    """Every record in *text*, each replayed and checked.

    Raises :class:`RecordError` naming the line of the first problem.
    """
    return [_build(chunk) for chunk in _chunks(text)]


def read_one(text: str) -> GameRecord:
    """The single record in *text* (an error if there are none or several)."""
    records = read(text)
    if len(records) != 1:
        raise RecordError(f"expected one record, found {len(records)}")
    return records[0]


def _chunks(text: str) -> list[_Chunk]:
    chunks: list[_Chunk] = []
    in_body = False
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if line.startswith("["):
            if not chunks or in_body:
                chunks.append(_Chunk(number))
                in_body = False
            _tag_line(chunks[-1], line, number)
            chunks[-1].end = number
            continue
        line = line.split(";", 1)[0].strip()
        if not line:
            continue
        if not chunks:
            raise RecordError("a record must start with tag lines such as [Rules \"classic\"]",
                              number)
        in_body = True
        hand = _HAND.fullmatch(line)
        if hand:
            _hand_line(chunks[-1], int(hand.group(1)), hand.group(2), number)
        else:
            _plays_line(chunks[-1], line, number)
        chunks[-1].end = number
    return chunks


def _tag_line(chunk: _Chunk, line: str, number: int) -> None:
    m = _TAG.fullmatch(line)
    if not m:
        raise RecordError(f'bad tag line {line!r}: write [Name "value"]', number)
    name = m.group(1)
    try:
        value = json.loads(m.group(2))
    except json.JSONDecodeError:
        raise RecordError(f"bad escape in the value of tag {name}", number) from None
    if name == "Set":
        chunk.sets.append((value, number))
        return
    if name in chunk.tags:
        raise RecordError(f"tag {name} given twice (first on line {chunk.tags[name][1]})", number)
    chunk.tags[name] = (value, number)


def _hand_line(chunk: _Chunk, seat: int, text: str, number: int) -> None:
    if seat in chunk.hands:
        raise RecordError(f"S{seat} dealt twice", number)
    tokens = text.split()
    _parse_cards(tokens, number, 2)  # the card names are checked at once
    chunk.hands[seat] = (tokens, number)


def _parse_cards(tokens: list[str], number: int, copies: int = 1) -> Mask:
    """The cards named by *tokens*; with ``copies=2`` a card named twice is both copies."""
    mask = 0
    for token in tokens:
        try:
            card = parse_card(token)
        except InvalidCardError:
            raise RecordError(f"unknown card {token!r} (write rank then suit, e.g. 3D, TS)",
                              number) from None
        if mask >> card & 1 and copies > 1:
            card += DECK_SIZE
        if mask >> card & 1:
            raise RecordError(f"card {token!r} given twice" if copies == 1 else
                              f"card {token!r} given more than {copies} times", number)
        mask |= 1 << card
    return mask


def _plays_line(chunk: _Chunk, line: str, number: int) -> None:
    seat: int | None = None
    tokens: list[str] = []

    def flush() -> None:
        if seat is None:
            return
        if not tokens:
            raise RecordError(f"S{seat} has no play: give cards or 'pass'", number)
        if len(tokens) == 1 and tokens[0].lower() in ("pass", "p", "-"):
            chunk.actions.append((seat, [], number))
        else:
            _parse_cards(tokens, number, 2)  # the card names are checked at once
            chunk.actions.append((seat, list(tokens), number))

    for token in line.split():
        m = _SEAT.fullmatch(token)
        if m:
            flush()
            seat, tokens = int(m.group(1)), []
        elif _NUMBER.fullmatch(token) and not tokens:
            continue
        elif seat is None:
            raise RecordError(f"expected a seat such as S0 before {token!r}", number)
        else:
            tokens.append(token)
    flush()


def _int(chunk: _Chunk, name: str, low: int = 0, high: int | None = None) -> int | None:
    if name not in chunk.tags:
        return None
    value, line = chunk.tags[name]
    try:
        out = int(value)
    except ValueError:
        raise RecordError(f"[{name}] must be a whole number, not {value!r}", line) from None
    if out < low or (high is not None and out > high):
        top = "" if high is None else f"..{high}"
        raise RecordError(f"[{name}] must be in {low}{top}, not {out}", line)
    return out


def _seat_numbers(chunk: _Chunk, name: str, n: int) -> tuple[int, ...] | None:
    if name not in chunk.tags:
        return None
    value, line = chunk.tags[name]
    try:
        out = tuple(int(v) for v in value.split())
    except ValueError:
        raise RecordError(f"[{name}] must be {n} whole numbers, not {value!r}", line) from None
    if len(out) != n:
        raise RecordError(f"[{name}] must give {n} numbers, one per seat", line)
    return out


def _option(text: str, line: int) -> tuple[str, Any]:
    name, eq, value = text.partition("=")
    name = name.strip().replace("-", "_")
    value = value.strip()
    if not eq or name not in _OPTIONS:
        raise RecordError(f"[Set {text!r}]: expected option=value with an option of "
                          f"`big2 rules`", line)
    option = _OPTIONS[name]
    parsed: Any = value
    if option.multi:
        parsed = tuple(v for v in value.split(",") if v)
    elif isinstance(option.default, bool):
        if value.lower() not in ("true", "false"):
            raise RecordError(f"[Set {text!r}]: {name} is true or false", line)
        parsed = value.lower() == "true"
    elif isinstance(option.default, int):
        try:
            parsed = int(value)
        except ValueError:
            raise RecordError(f"[Set {text!r}]: {name} is a whole number", line) from None
    try:
        return name, option.check(parsed)
    except InvalidRulesError as exc:
        raise RecordError(str(exc), line) from None


def _rules(chunk: _Chunk) -> Rules:
    preset, line = chunk.tags.get("Rules", ("classic", chunk.start))
    overrides = dict(_option(text, at) for text, at in chunk.sets)
    players = _int(chunk, "Players", 2, 8)
    if players is None:
        players = len(chunk.hands) or None
    if players is not None:
        overrides["players"] = players
    try:
        return Rules.preset(preset, **overrides)
    except InvalidRulesError as exc:
        raise RecordError(str(exc), line) from None


def _build(chunk: _Chunk) -> GameRecord:
    rules = _rules(chunk)
    v = variant(rules)
    n = v.players
    dealer = _int(chunk, "Dealer", 0, n - 1) or 0
    leader = _int(chunk, "Leader", 0, n - 1)
    seed = _int(chunk, "Seed")
    for seat, (_, line) in chunk.hands.items():
        if seat >= n:
            raise RecordError(f"no seat S{seat} with {n} players", line)
    copies = v.deck.decks
    actions = [(Action(seat, _parse_cards(tokens, line, copies) if tokens else 0), line)
               for seat, tokens, line in chunk.actions]
    if chunk.hands:
        missing = [s for s in range(n) if s not in chunk.hands]
        if missing:
            first = min(line for _, line in chunk.hands.values())
            raise RecordError(f"no hand dealt to S{missing[0]}", first)
        named = [_parse_cards(chunk.hands[s][0], chunk.hands[s][1], copies) for s in range(n)]
        if copies > 1:
            named = list(allocate_copies(rules, named,
                                         min(line for _, line in chunk.hands.values())))
        hands = tuple(named)
        seen = 0
        for s in range(n):
            mask, line = hands[s], chunk.hands[s][1]
            if mask & seen:
                dup = " ".join(CARD_NAMES[c] for c in cards_of(mask & seen))
                raise RecordError(f"S{s} is dealt {dup}, already dealt to another seat", line)
            seen |= mask
    elif seed is not None:
        hands = tuple(deal_hands(rules, random.Random(seed), dealer))
    else:
        raise RecordError("no deal: give each seat's hand (S0: 3D 4C ...) or a [Seed]",
                          chunk.start)
    for action, line in actions:
        if action.seat >= n:
            raise RecordError(f"no seat S{action.seat} with {n} players", line)
    for tag, (_, line) in chunk.tags.items():
        if re.fullmatch(r"Seat\d+", tag) and int(tag[4:]) >= n:
            raise RecordError(f"[{tag}] names a seat beyond the {n} players", line)
    names = tuple(chunk.tags[f"Seat{s}"][0] if f"Seat{s}" in chunk.tags else f"Player {s + 1}"
                  for s in range(n))
    if "Result" not in chunk.tags:
        raise RecordError('no [Result] tag (write [Result "*"] for an unfinished deal)',
                          chunk.start)
    result, result_line = chunk.tags["Result"]
    winner: int | None = None
    if result.strip() != "*":
        m = _SEAT.fullmatch(result.strip())
        if not m or int(m.group(1)) >= n:
            raise RecordError(f"[Result] must be a seat S0..S{n - 1} or *, not {result!r}",
                              result_line)
        winner = int(m.group(1))
    scores = _seat_numbers(chunk, "Scores", n)
    if winner is not None and scores is None:
        raise RecordError("a finished deal needs its [Scores]", result_line)
    if winner is None and scores is not None:
        raise RecordError('[Scores] given for an unfinished deal ([Result "*"])',
                          chunk.tags["Scores"][1])
    tags = {k: v for k, (v, _) in chunk.tags.items()
            if k not in _OWN_TAGS and not re.fullmatch(r"Seat\d+", k)}
    record = GameRecord(
        rules=rules, hands=hands, actions=tuple(a for a, _ in actions), names=names,
        dealer=dealer, leader=leader, seed=seed, winner=winner, scores=scores,
        totals=_seat_numbers(chunk, "Totals", n) or (), tags=tags,
        action_lines=tuple(line for _, line in actions), line=chunk.start,
        result_line=result_line,
    )
    record.check()
    return record


__all__ = ["closest_preset", "read", "read_one", "write"]
