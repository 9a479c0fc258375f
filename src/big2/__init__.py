"""big2: Big Two (Big 2, Deuces, Pusoy Dos, Capsa, Dai Di, 大老二) done properly.

The core, in dependency order: :mod:`big2.cards` (cards as ints, sets as
masks; :mod:`big2.log`, the records of a deal's log) → :mod:`big2.rules` (the
rule set) → :mod:`big2.variant` (a rule set compiled once: deck, play engine,
turn order, scorer, house rules; :mod:`big2.combos` keeps the short spellings
``classify`` and ``beats``) → :mod:`big2.view` (what one seat may know) →
:mod:`big2.game` (a deal, over :mod:`big2.position`) → :mod:`big2.match`.
Records, renderers, bots, the environment and front ends sit on top and are
never imported by the core; no module-level import forms a circle.

>>> import big2
>>> g = big2.Game(seed=1)
>>> len(g.legal_plays()) > 0
True
"""

from typing import TYPE_CHECKING

from big2.cards import Card, CardSet, InvalidCardError, Mask, format_cards, parse_card, parse_cards
from big2.combos import Combo, Kind, beats, classify
from big2.game import PASS, Game, IllegalPlayError, Outcome, deal
from big2.match import Match
from big2.rules import InvalidRulesError, Rules
from big2.scoring import score
from big2.view import Action, PlayerView

if TYPE_CHECKING:
    __version__: str
    """The installed package's version (pyproject.toml's, through the distribution's metadata)."""
else:
    def __getattr__(name: str) -> str:
        """``__version__``, read when first asked: the one place the version is written is
        pyproject.toml's [project] version, and the installed distribution's metadata
        carries it here and to ``big2 --version`` (importing :mod:`importlib.metadata`
        when ``big2`` is imported cost every ``big2`` command 40 ms of CPU)."""
        if name != "__version__":
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        from importlib.metadata import PackageNotFoundError, version

        try:
            found = version("big2")
        except PackageNotFoundError:  # pragma: no cover - a source tree imported uninstalled
            found = "0+unknown"
        globals()["__version__"] = found
        return found

__all__ = [
    "PASS", "Action", "Card", "CardSet", "Combo", "Game", "IllegalPlayError",
    "InvalidCardError", "InvalidRulesError", "Kind", "Mask", "Match", "Outcome",
    "PlayerView", "Rules", "beats", "classify", "deal", "format_cards", "parse_card",
    "parse_cards", "score",
]
