"""Issue 23: the variant is the only place a rule option is interpreted.

Code above the core asks :func:`big2.variant.variant` (deal sizes, the deck,
the kinds allowed, environment and network support, the match plan) instead of
reading ``rules.<option>``. :mod:`option_reads` counts the reads left outside
``rules.py``, ``presets.py``, ``variant/`` and ``house/``; each remaining one
is listed with its reason in docs/architecture.md.
"""

from __future__ import annotations

from pathlib import Path

from option_reads import SRC, option_reads, report

from big2.rules import Rules
from big2.variant import Kind, MatchPlan, variant

LIMIT = 60
"""The most option reads allowed outside the variant (issue 23)."""


def test_option_reads_outside_the_variant_are_at_most_60() -> None:
    reads = option_reads()
    print(report(reads))
    assert len(reads) <= LIMIT, report(reads)


def test_each_file_still_reading_options_is_listed_with_its_reason() -> None:
    doc = (SRC.parents[1] / "docs" / "architecture.md").read_text(encoding="utf-8")
    for path in sorted({p for p, _, _ in option_reads()}):
        assert f"`{path}`" in doc, f"{path} reads options; say why in docs/architecture.md"


def test_counter_finds_every_spelling(tmp_path: Path) -> None:
    (tmp_path / "mod.py").write_text(
        "def f(rules, game, d, r):\n"
        "    return (rules.players, game.rules.decks, d['rules'].jokers, r.players,\n"
        "            rules.lowest_card, game.rules.name)\n")
    (tmp_path / "variant").mkdir()
    (tmp_path / "variant" / "x.py").write_text("def g(rules):\n    return rules.players\n")
    assert sorted(name for _, _, name in option_reads(tmp_path)) == ["decks", "jokers", "players"]


def test_variant_answers_deal_sizes_and_support() -> None:
    two = variant(Rules(players=4, decks=2))
    assert two.deal_counts == (26, 26, 26, 26) and two.players == 4
    assert not two.supports_env and two.env_unsupported == ("decks=2",)
    assert not two.supports_network
    classic = variant(Rules())
    assert classic.deal_counts == (13,) * 4 and classic.supports_env and classic.supports_network
    assert variant(Rules(players=3)).deal_counts == (17, 17, 17)
    assert variant(Rules(players=3, deal="13-each")).deal_counts == (13, 13, 13)


def test_variant_answers_kinds_and_longest_play() -> None:
    classic = variant(Rules())
    assert Kind.TRIPLE in classic.kinds and Kind.TWO_PAIRS not in classic.kinds
    assert Kind.FOUR_KICKER in classic.kinds and Kind.DRAGON not in classic.kinds
    assert classic.longest_play == 5 and not classic.odd_straights
    assert Kind.TRIPLE not in variant(Rules(triples=False)).kinds
    smack = variant(Rules(smack_down="2S"))
    assert {Kind.PAIR_RUN, Kind.FOUR_OF_A_KIND} <= smack.kinds and not smack.supports_env
    dragon = variant(Rules(dragon=True))
    assert dragon.longest_play == 13 and dragon.odd_straights and Kind.DRAGON in dragon.kinds
    assert variant(Rules(straight_max=7)).longest_play == 7
    assert [q for q, _ in variant(Rules(straight_order="indonesia")).straight_sequences][-1] == (
        "JQKA2")


def test_match_plan() -> None:
    plan = variant(Rules()).plan
    assert plan == MatchPlan(deals=4, penalty_target=None, winner_leads=False, exchange=False,
                             exchange_from_dealt=False)
    assert not plan.endless and plan.ends(4, [0, 0, 0, 0]) and not plan.ends(3, [-99, 0, 0, 0])
    penalty = variant(Rules(scoring="penalty", match_deals=0)).plan
    assert penalty.penalty_target == 100 and not penalty.endless
    assert not penalty.ends(50, [-99, 0, 0, 0]) and penalty.ends(1, [-100, 0, 0, 0])
    assert variant(Rules(match_deals=0, scoring="penalty")).plan.ends(2, [0] * 4, deals=2)
    president = variant(Rules(scoring="ranking", exchange="before")).plan
    assert president.exchange and president.exchange_from_dealt and not president.winner_leads
