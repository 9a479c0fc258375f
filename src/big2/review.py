"""The game review: a recorded deal's decisions judged by the strongest bot's search.

The judge is the level :data:`big2.bots.STRONGEST_LEVEL` names (``expert``)
with the review's play-outs (:func:`judge`), so the review follows when that
level's bot changes; :func:`judge_label` says which bot it is, and the report
and the server's review name it. For each decision of one seat that had a
choice, :func:`review` asks :meth:`big2.bots.SearchBot.analyse` for the
candidate plays' values (the seat's expected points at the deal's end, over
sampled deals of the cards it could not see) with the play made searched on
the same samples as the best play found. The gap between them marks the play:

- an **inaccuracy** when the play made is :data:`INACCURACY` points or more
  below the best play found,
- a **mistake** when it is :data:`MISTAKE` points or more below,

with one sentence of why where a simple fact of the two plays says it
(:func:`big2.bots.rules_based.reasons.why_better`). Decisions with one legal play are
not reviewed. ``big2 replay FILE --review`` prints it (:func:`report`).

The values are estimates: a few hundred play-outs a decision put a value
within about a point (one standard error) of the search's own, so a gap
under :data:`INACCURACY` is not told apart from noise.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from big2.bots.base import BOT_LEVELS, STRONGEST_LEVEL, make_bot
from big2.bots.rules_based.reasons import Why, describe, why_better
from big2.bots.search.bot import SearchBot
from big2.cards import Mask
from big2.i18n import current, kind_label, t, width, wrap
from big2.records import GameRecord
from big2.view import PlayerView

INACCURACY = 3.0
"""Points below the best play found from which a play is an inaccuracy."""
MISTAKE = 8.0
"""Points below the best play found from which a play is a mistake."""
REVIEW_BUDGET = 400
"""Play-outs a decision: a 13-card deal's review in a few seconds on two cores."""


@dataclass(frozen=True)
class Decision:
    """One reviewed decision: *ply* (1-based action number) by *seat*.

    Attributes:
        made, made_value: the play made (``0``: a pass) and its value.
        best, best_value: the best play found and its value (points).
        choices: how many legal plays there were.
        why: a sentence of why *best* is better, when a simple fact says it.
    """

    ply: int
    seat: int
    made: Mask
    made_value: float
    best: Mask
    best_value: float
    choices: int
    why: str | None = None

    @property
    def loss(self) -> float:
        """Points the play made gives up against the best play found (0 or more)."""
        return max(0.0, self.best_value - self.made_value)

    @property
    def mark(self) -> str | None:
        """``"mistake"``, ``"inaccuracy"`` or ``None``."""
        if self.made == self.best:
            return None
        if self.loss >= MISTAKE:
            return "mistake"
        if self.loss >= INACCURACY:
            return "inaccuracy"
        return None


def judge(budget: int = REVIEW_BUDGET, seed: int = 0) -> SearchBot:
    """The review's judge: the strongest level's bot (:data:`~big2.bots.STRONGEST_LEVEL`)
    with *budget* play-outs a decision.

    Raises:
        TypeError: the level's bot is not a search (it must value the plays).
    """
    bot = make_bot(STRONGEST_LEVEL, seed=seed, budget=budget)
    if not isinstance(bot, SearchBot):
        raise TypeError(f"the review needs a search bot; {STRONGEST_LEVEL!r} plays "
                        f"{BOT_LEVELS.get(STRONGEST_LEVEL)!r}")
    return bot


def judge_label(budget: int = REVIEW_BUDGET) -> str:
    """Which bot judges a review, as the report and the server name it:
    ``expert: guided-search, 400 play-outs``."""
    return f"{STRONGEST_LEVEL}: {BOT_LEVELS[STRONGEST_LEVEL]}, {budget:,} play-outs"


def _choice_views(record: GameRecord, seat: int) -> Iterator[tuple[int, PlayerView]]:
    """Each ply (1-based) at which *seat* had more than one legal play, with its view."""
    for i, action in enumerate(record.actions):
        if action.seat == seat and len((view := record.view(seat, i)).legal) > 1:
            yield i + 1, view


def choice_plies(record: GameRecord, seat: int) -> list[int]:
    """The plies (1-based) at which *seat* had more than one legal play: the
    decisions a review judges, without judging them."""
    return [ply for ply, _ in _choice_views(record, seat)]


def decisions(record: GameRecord, seat: int, *, budget: int = REVIEW_BUDGET, seed: int = 0,
              bot: SearchBot | None = None) -> Iterator[Decision]:
    """Each of *seat*'s decisions in *record* that had a choice, reviewed in turn.

    Raises:
        ValueError: a seat outside the record, or rules the search cannot read
            (jokers, two decks).
    """
    if not 0 <= seat < record.num_players:
        raise ValueError(f"seats are 0..{record.num_players - 1}")
    if record.rules.extended_deck:
        raise ValueError("the review's search reads one 52-card deck: no jokers, no second deck")
    searcher = bot or judge(budget, seed)
    for ply, view in _choice_views(record, seat):
        action = record.actions[ply - 1]
        rows = searcher.analyse(view, include=(action.cards,))
        best, _, best_value = rows[0]
        made_value = next(v for m, _, v in rows if m == action.cards)
        why = why_better(view, best, action.cards) if best != action.cards else None
        yield Decision(ply, seat, action.cards, made_value, best, best_value,
                       len(view.legal), why)


def review(record: GameRecord, seat: int, *, budget: int = REVIEW_BUDGET,
           seed: int = 0) -> list[Decision]:
    """Every reviewed decision of *seat* in *record* (see :func:`decisions`)."""
    return list(decisions(record, seat, budget=budget, seed=seed))


def _said(view: PlayerView, play: Mask) -> str:
    """:func:`describe`'s play in the current language (its kind's name translated)."""
    english = describe(view, play)
    if current() == "en":
        return english
    if not play:
        return t("termPass")
    from big2.variant import variant

    combo = variant(view.rules).engine.classify(play)
    if combo is None or not english.startswith(combo.kind.label):
        return english
    return (kind_label(combo.kind.name) or combo.kind.label) + english[len(combo.kind.label):]


def _pad(text: str, columns: int) -> str:
    return text + " " * max(0, columns - width(text))


def report(record: GameRecord, seat: int, *, number: int = 1, budget: int = REVIEW_BUDGET,
           seed: int = 0, say: Callable[[str], None] = print) -> list[Decision]:
    """Print the review of *seat*'s decisions a line to three each (the play
    made; the best found; why), as they are judged, and two closing lines
    with the count of marks and the time taken."""
    start = time.perf_counter()
    name = record.names[seat]
    say(t("termReviewHead", number, seat, name))
    say(t("termReviewJudge", judge_label(budget)))
    say(t("termReviewValues"))
    say(t("termReviewMarks", f"{INACCURACY:g}", f"{MISTAKE:g}"))
    out: list[Decision] = []
    view_of = record.view
    forced = sum(1 for i, a in enumerate(record.actions)
                 if a.seat == seat and len(view_of(seat, i).legal) < 2)
    for d in decisions(record, seat, budget=budget, seed=seed):
        out.append(d)
        view = view_of(seat, d.ply - 1)
        made = _said(view, d.made)
        verb = t("termReviewPasses") if not d.made else t("termReviewPlays", made)
        head = f"{d.ply:4d}. {verb}"
        if d.made == d.best:
            say(f"{_pad(head, 50)} {d.made_value:+6.1f}  {t('reviewBest')}")
            continue
        loss = f"{d.made_value - d.best_value:+.1f}"  # a loss: -
        mark = "  " + t("mark_" + d.mark, loss) if d.mark else ""
        say(f"{_pad(head, 50)} {d.made_value:+6.1f}{mark}")
        line = f"      {t('reviewBestFound')} {_said(view, d.best)}"
        say(f"{_pad(line, 50)} {d.best_value:+6.1f}")
        if d.why and d.mark:
            said = d.why.said(view.rules) if isinstance(d.why, Why) else d.why
            for line in wrap(t("termReviewWhy", said), 73, indent="  "):
                say("      " + line)
    counts = {m: sum(1 for d in out if d.mark == m) for m in ("inaccuracy", "mistake")}
    plural = {"inaccuracy": "inaccuracies", "mistake": "mistakes"}
    marks = ", ".join(f"{n} {m if n == 1 else plural[m]}" for m, n in counts.items())
    if current() == "en":
        say(f"S{seat} {name}: {len(out)} decision{'s' * (len(out) != 1)} reviewed: {marks}.")
    else:
        say(t("reviewSummary", f"S{seat} {name}", len(out), counts["inaccuracy"],
              counts["mistake"]))
    say(t("termReviewForced", forced, f"{time.perf_counter() - start:.1f}"))
    return out


__all__ = ["INACCURACY", "MISTAKE", "REVIEW_BUDGET", "Decision", "choice_plies", "decisions",
           "judge", "judge_label", "report", "review"]
