"""Records as JSON: one object per deal, a list of them for a match.

The object holds every rule option in full, so it needs no preset table to
read::

    {"format": "big2-record", "version": 1,
     "rules": {...every option...}, "names": ["Ann", ...],
     "dealer": 0, "leader": null, "seed": 7,
     "hands": ["3D 4C ...", ...],
     "actions": [[3, "3D 4D 5D 6C 7H"], [0, "pass"], ...],
     "winner": 2, "scores": [-3, -22, 33, -8], "totals": [],
     "tags": {"Date": "2025.01.31"}}

>>> from big2 import Game
>>> g = Game(seed=2)
>>> g.play(g.legal_masks()[0])
>>> rec = GameRecord.from_game(g)
>>> from_json(to_json(rec)) == [rec]
True
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from big2.cards import CARD_NAMES, InvalidCardError, Mask, cards_of, parse_cards
from big2.records.record import GameRecord, RecordError, allocate_copies
from big2.rules import InvalidRulesError, Rules
from big2.variant import variant
from big2.view import Action

FORMAT = "big2-record"
VERSION = 1


def _cards(mask: Mask) -> str:
    return " ".join(CARD_NAMES[c] for c in cards_of(mask))


def to_dict(record: GameRecord) -> dict[str, Any]:
    """One record as a JSON-friendly dict."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules": record.rules.to_dict(),
        "names": list(record.names),
        "dealer": record.dealer,
        "leader": record.leader,
        "seed": record.seed,
        "hands": [_cards(h) for h in record.hands],
        "actions": [[a.seat, _cards(a.cards) if a.cards else "pass"] for a in record.actions],
        "winner": record.winner,
        "scores": None if record.scores is None else list(record.scores),
        "totals": list(record.totals),
        "tags": dict(record.tags),
    }


def to_json(records: GameRecord | Iterable[GameRecord], *, indent: int | None = 1) -> str:
    """JSON text: an object for one record, a list for several."""
    if isinstance(records, GameRecord):
        return json.dumps(to_dict(records), indent=indent, ensure_ascii=False)
    return json.dumps([to_dict(r) for r in records], indent=indent, ensure_ascii=False)


def from_dict(data: Any, where: str = "record") -> GameRecord:
    """A record from :func:`to_dict`'s shape, replayed and checked."""
    if not isinstance(data, dict):
        raise RecordError(f"{where}: expected an object")
    if data.get("format", FORMAT) != FORMAT or data.get("version", VERSION) != VERSION:
        raise RecordError(f"{where}: not a {FORMAT} version {VERSION} object")
    try:
        rules = Rules.from_dict(data["rules"])
        v = variant(rules)
        copies = v.deck.decks
        hands = tuple(int(parse_cards(h, copies)) for h in data["hands"])
        actions = []
        for i, item in enumerate(data.get("actions", [])):
            seat, cards = item
            if not isinstance(seat, int) or not 0 <= seat < v.players:
                raise RecordError(f"{where}: actions[{i}]: no seat {seat!r}")
            actions.append(Action(seat, 0 if cards == "pass" else int(parse_cards(cards, copies))))
        # any "starter" key (written by earlier versions: who held the first
        # deck's copy of the lowest card) is ignored: the card names decide the lead
        hands = allocate_copies(rules, hands)
        scores = data.get("scores")
        record = GameRecord(
            rules=rules, hands=hands, actions=tuple(actions),
            names=tuple(data.get("names") or ()), dealer=int(data.get("dealer", 0)),
            leader=data.get("leader"), seed=data.get("seed"), winner=data.get("winner"),
            scores=None if scores is None else tuple(int(s) for s in scores),
            totals=tuple(int(t) for t in data.get("totals", ())),
            tags={str(k): str(v) for k, v in data.get("tags", {}).items()},
        )
    except KeyError as exc:
        raise RecordError(f"{where}: missing {exc.args[0]!r}") from None
    except (InvalidRulesError, InvalidCardError) as exc:
        raise RecordError(f"{where}: {exc}") from None
    except (TypeError, ValueError) as exc:
        if isinstance(exc, RecordError):
            raise RecordError(f"{where}: {exc.reason}") from None
        raise RecordError(f"{where}: malformed: {exc}") from None
    try:
        record.check()
    except RecordError as exc:
        raise RecordError(f"{where}: {exc.reason}") from None
    return record


def from_json(text: str) -> list[GameRecord]:
    """Every record in JSON *text* (one object or a list of them)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"bad JSON: {exc.msg}", exc.lineno) from None
    if isinstance(data, list):
        return [from_dict(d, f"record {i + 1}") for i, d in enumerate(data)]
    return [from_dict(data)]


__all__ = ["FORMAT", "VERSION", "from_dict", "from_json", "to_dict", "to_json"]
