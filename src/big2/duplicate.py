"""Duplicate replay: a recorded deal dealt again with the strongest bot in your seat.

As in duplicate bridge, the same cards are played again: the seat under study
is taken by the level :data:`big2.bots.STRONGEST_LEVEL` names (``expert``), and
every other seat by the bot that played it, with the same seed (the record's
``Bots`` tag, which ``big2 play --save`` and the server's records write: one
entry a seat, ``level`` or ``level@seed``, ``-`` for a person; a seat the tag
does not name is played by ``medium``; a bot saved without a seed, as the
server saves its bots, starts from its seat's number). :func:`duplicate` gives both deals'
scores for the seat side by side, and marks **your decisions where the expert
chooses differently**: at each of your decisions with a choice, the expert is
asked for its play in that very position (your deal's), so the marks read along
your own deal.

>>> from big2 import Game
>>> from big2.bots import make_bot
>>> g = Game(seed=4)
>>> bots = [make_bot("greedy")] + [make_bot("medium", seed=s) for s in (1, 2, 3)]
>>> while not g.is_over():
...     g.play(bots[g.to_move].choose(g.view(g.to_move)))
>>> from big2.records import GameRecord
>>> rec = GameRecord.from_game(g, tags={"Bots": bots_tag(["-", "medium@1", "medium@2",
...                                                        "medium@3"])})
>>> d = duplicate(rec, 0, budget=40)
>>> d.original == rec.scores[0], d.record.hands == rec.hands
(True, True)
>>> all(x.made != x.expert for x in d.differences)
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from big2.bots.base import BOT_LEVELS, STRONGEST_LEVEL, Bot, make_bot
from big2.cards import Mask
from big2.records import GameRecord

__all__ = ["BOTS_TAG", "DEFAULT_BOT", "Difference", "Duplicate", "bots_tag", "duplicate",
           "parse_bots", "report"]

BOTS_TAG = "Bots"
"""The record tag that names each seat's bot (``level`` or ``level@seed``; ``-``: a person)."""
DEFAULT_BOT = "medium"
"""The bot that plays a seat the ``Bots`` tag does not name (or names a person for)."""
BUDGET = 400
"""The expert's play-outs a decision (the review's: a deal in a few seconds)."""


def bots_tag(entries: Sequence[str]) -> str:
    """The ``Bots`` tag's text for one entry a seat (``"-,medium@11,medium@12"``)."""
    for e in entries:
        if "," in e or not e.strip():
            raise ValueError(f"a bot entry may not be empty or hold a comma: {e!r}")
    return ",".join(entries)


def parse_bots(text: str, players: int) -> list[tuple[str, int | None] | None]:
    """Each seat's ``(level, seed)`` from a ``Bots`` tag (``None``: a person or
    unnamed); ``ValueError`` saying what is wrong."""
    parts = [p.strip() for p in text.split(",")] if text else []
    if len(parts) > players:
        raise ValueError(f"the Bots tag names {len(parts)} seats; the deal has {players}")
    out: list[tuple[str, int | None] | None] = []
    for part in parts + ["-"] * (players - len(parts)):
        if part == "-":
            out.append(None)
            continue
        name, _, seed = part.partition("@")
        try:
            out.append((name, int(seed) if seed else None))
        except ValueError:
            raise ValueError(f"the Bots tag's seed must be a whole number: {part!r}") from None
    return out


@dataclass(frozen=True)
class Difference:
    """A decision of yours (*ply*, 1-based) where the expert, in the same position,
    plays *expert* where you played *made* (``0``: a pass)."""

    ply: int
    made: Mask
    expert: Mask


@dataclass(frozen=True)
class Duplicate:
    """A duplicate replay of one seat's deal.

    Attributes:
        seat: the seat studied.
        record: the deal played again, the expert in *seat*.
        original, replayed: the seat's score in the deal as played and as replayed.
        differences: your decisions where the expert chose another play.
        decisions: your decisions with a choice (the ones compared).
        bots: the bots that played the other seats (names, by seat; ``""`` for *seat*).
    """

    seat: int
    record: GameRecord
    original: int
    replayed: int
    differences: tuple[Difference, ...]
    decisions: int
    bots: tuple[str, ...]


def _others(record: GameRecord, seat: int) -> tuple[list[Bot | None], tuple[str, ...]]:
    named = parse_bots(record.tags.get(BOTS_TAG, ""), record.num_players)
    bots: list[Bot | None] = []
    labels: list[str] = []
    for s, entry in enumerate(named):
        if s == seat:
            bots.append(None)
            labels.append("")
            continue
        level, seed = entry or (DEFAULT_BOT, None)
        seed = s if seed is None else seed
        try:
            bots.append(make_bot(level, seed=seed))
        except ValueError as exc:
            raise ValueError(f"seat {s}: {exc}") from None
        labels.append(f"{level}@{seed}")
    return bots, tuple(labels)


def duplicate(record: GameRecord, seat: int, *, budget: int = BUDGET, seed: int = 0,
              progress: Callable[[int], None] | None = None) -> Duplicate:
    """Play *record*'s deal again with the expert (*budget* play-outs a decision,
    seeded *seed*) in *seat* (see the module doc); *progress* is called with each
    ply played. ``ValueError`` for a seat outside the deal, an unfinished deal, a
    bad ``Bots`` tag or a rule set the expert's search cannot read."""
    if not 0 <= seat < record.num_players:
        raise ValueError(f"seats are 0..{record.num_players - 1}")
    if record.scores is None:
        raise ValueError("the deal is not finished")
    if record.rules.extended_deck:
        raise ValueError("the expert's search reads one 52-card deck: no jokers, no second deck")
    bots, labels = _others(record, seat)
    expert = make_bot(STRONGEST_LEVEL, seed=seed, budget=budget)
    game = record.to_game(ply=0)
    while not game.is_over():
        mover = game.to_move
        assert mover is not None
        bot = expert if mover == seat else bots[mover]
        assert bot is not None
        game.play(bot.choose(game.view(mover)))
        if progress:
            progress(len(game.history))
    replayed = GameRecord.from_game(game, tags={**record.tags})
    expert = make_bot(STRONGEST_LEVEL, seed=seed, budget=budget)  # the marks' own, fresh
    differences = []
    decisions = 0
    for i, action in enumerate(record.actions):
        if action.seat != seat:
            continue
        view = record.view(seat, i)
        if len(view.legal) < 2:
            continue
        decisions += 1
        choice = expert.choose(view)
        if choice != action.cards:
            differences.append(Difference(i + 1, action.cards, choice))
    outcome = game.outcome()
    assert outcome is not None and replayed.scores is not None
    return Duplicate(seat, replayed, record.scores[seat], outcome.scores[seat],
                     tuple(differences), decisions, labels)


def report(record: GameRecord, seat: int, *, number: int = 1, budget: int = BUDGET,
           seed: int = 0, say: Callable[[str], None] = print) -> Duplicate:
    """Print a duplicate replay of *seat*'s deal: who played, both scores side by side,
    the expert's deal action by action, and your decisions it would have made otherwise."""
    from big2.game import kind_name

    d = duplicate(record, seat, budget=budget, seed=seed)
    name = record.names[seat] if record.names else f"S{seat}"
    rules = record.rules

    def shown(play: Mask) -> str:
        from big2.cards import format_cards

        return "pass" if not play else f"{kind_name(play, rules)} {format_cards(play)}"

    say(f"=== Duplicate of deal {number} · S{seat} {name} ===")
    say(f"Your seat played again by {STRONGEST_LEVEL} ({BOT_LEVELS[STRONGEST_LEVEL]}, "
        f"{budget:,} play-outs a decision);")
    say("the others by " + ", ".join(f"S{s} {b}" for s, b in enumerate(d.bots) if s != seat)
        + ".")
    say(f"Score: you {d.original:+d} · {STRONGEST_LEVEL} {d.replayed:+d} "
        f"(the same cards, {d.replayed - d.original:+d}).")
    say(f"{STRONGEST_LEVEL}'s deal:")
    for i, action in enumerate(d.record.actions, 1):
        who = STRONGEST_LEVEL if action.seat == seat else f"S{action.seat}"
        say(f"  {i:3d}. {who}: {shown(action.cards)}")
    say(f"Your decisions where {STRONGEST_LEVEL} chooses otherwise (same position): "
        f"{len(d.differences)} of {d.decisions}.")
    say("(Each asked in your deal's position; its own deal above went its own way.)")
    for x in d.differences:
        say(f"  {x.ply:3d}. you: {shown(x.made)}  ·  {STRONGEST_LEVEL}: {shown(x.expert)}")
    return d
