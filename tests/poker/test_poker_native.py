"""The compiled poker core against the Python reference: values, batches, equity, bad input.

``big2.poker.native.EXTENSION`` is the core whether or not ``BIG2_ENGINE`` puts
big2.poker on it, so these checks hold under either setting; they need the
extension built (``pip install -e .``) and fail, never skip, without it.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from big2.poker.batch import py_evaluate5_batch, py_evaluate7_batch
from big2.poker.equity import equity
from big2.poker.evaluate import py_evaluate, py_evaluate5, py_evaluate6, py_evaluate7
from big2.poker.native import EXTENSION

SRC = Path(__file__).resolve().parents[2] / "src"


@pytest.fixture(scope="module")
def core():  # type: ignore[no-untyped-def]
    assert EXTENSION is not None, "the compiled core is not built (pip install -e .)"
    return EXTENSION


def hands(n: int, size: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    return [rng.sample(range(52), size) for _ in range(n)]


@pytest.mark.parametrize("size", [5, 6, 7])
def test_scalar_entry_points_equal_the_reference_on_random_hands(core, size: int) -> None:  # type: ignore[no-untyped-def]
    native = {5: core.evaluate5, 6: core.evaluate6, 7: core.evaluate7}[size]
    ref = {5: py_evaluate5, 6: py_evaluate6, 7: py_evaluate7}[size]
    for h in hands(60_000 if size != 6 else 20_000, size, size):
        assert native(*h) == ref(*h) == core.evaluate(h) == py_evaluate(h), h


@pytest.mark.parametrize("size", [8, 9])
def test_sequence_entry_point_equals_the_reference_on_eight_and_nine(core, size: int) -> None:  # type: ignore[no-untyped-def]
    for h in hands(5_000, size, size):
        assert core.evaluate(h) == py_evaluate(h) == core.evaluate(tuple(h)), h


def test_flush_heavy_hands_equal_the_reference(core) -> None:  # type: ignore[no-untyped-def]
    """Hands drawn from two suits, so flushes, straight flushes and their kickers abound."""
    rng = random.Random(11)
    two_suits = [c for c in range(52) if c & 3 in (1, 3)]
    for _ in range(20_000):
        h5, h7 = rng.sample(two_suits, 5), rng.sample(two_suits, 7)
        assert core.evaluate5(*h5) == py_evaluate5(*h5), h5
        assert core.evaluate7(*h7) == py_evaluate7(*h7), h7


@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.int64, np.uint64])
def test_batches_equal_the_numpy_reference(core, dtype: type) -> None:  # type: ignore[no-untyped-def]
    n = 100_000 if dtype is np.uint8 else 5_000  # the other dtypes test the conversion
    five = np.array(hands(n, 5, 1), dtype=dtype)
    seven = np.array(hands(n, 7, 2), dtype=dtype)
    assert np.array_equal(core.evaluate5_batch(five), py_evaluate5_batch(five))
    assert np.array_equal(core.evaluate7_batch(seven), py_evaluate7_batch(seven))
    assert core.evaluate5_batch(five).dtype == np.int32
    assert core.evaluate7_batch(seven[:0]).shape == (0,)


def test_batch_takes_views_that_are_not_contiguous(core) -> None:  # type: ignore[no-untyped-def]
    seven = np.array(hands(2_000, 7, 3), dtype=np.uint8)
    fortran = np.asfortranarray(seven)
    assert np.array_equal(core.evaluate7_batch(fortran), py_evaluate7_batch(seven))
    assert np.array_equal(core.evaluate5_batch(seven[:, ::-1][:, 2:]),
                          py_evaluate5_batch(seven[:, ::-1][:, 2:]))


@pytest.mark.parametrize(("args", "error", "message"), [
    ((1, 2, 3, 4, 4), ValueError, "distinct"),
    ((1, 2, 3, 4, 52), ValueError, "0-51"),
    ((1, 2, 3, 4, -1), ValueError, "0-51"),
    ((1, 2, 3, 4, 2**70), ValueError, "0-51"),
    ((1, 2, 3, 4, "5"), TypeError, "int"),
    ((1, 2, 3, 4, 5.0), TypeError, "int"),
    ((1, 2, 3, 4), TypeError, "takes 5 cards"),
])
def test_scalar_bad_input_raises(core, args: tuple[object, ...], error: type, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(error, match=message):
        core.evaluate5(*args)


def test_numpy_integers_are_cards(core) -> None:  # type: ignore[no-untyped-def]
    row = np.array([47, 43, 39, 35, 31, 0, 1], dtype=np.int16)
    assert core.evaluate(row) == core.evaluate7(*row) == core.evaluate5(*row[:5]) == 7462


def test_sequence_bad_input_raises(core) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match="5 to 9 cards, got 2"):
        core.evaluate([1, 2])
    with pytest.raises(ValueError, match="distinct"):
        core.evaluate([1, 2, 3, 4, 5, 6, 1])
    with pytest.raises(TypeError, match="sequence"):
        core.evaluate(12345)
    with pytest.raises(TypeError, match="one sequence"):
        core.evaluate()


@pytest.mark.parametrize(("hands_", "error", "message"), [
    (np.zeros((3, 4), dtype=np.uint8), ValueError, r"\(n, 5\)"),
    (np.zeros(5, dtype=np.uint8), ValueError, r"\(n, 5\)"),
    (np.array([[1, 2, 3, 4, 5.0]]), TypeError, "integers"),
    (np.array([[1, 2, 3, 4, 5], [1, 2, 3, 4, 60]], dtype=np.uint8), ValueError, "row 1: card 60"),
    (np.array([[1, 2, 3, 4, -5]]), ValueError, "row 0: card -5"),
    (np.array([[7, 2, 3, 4, 7]]), ValueError, "row 0: a card given twice"),
    (np.array([[1, 2, 3, 4, 2**63]], dtype=np.uint64), ValueError, "0-51"),
])
def test_batch_bad_input_raises(core, hands_: np.ndarray, error: type, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(error, match=message):
        core.evaluate5_batch(hands_)


@pytest.mark.parametrize("size", [5, 7])
@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.int64])
def test_batch_names_the_first_bad_row_wherever_it_lies(core, size: int, dtype: type) -> None:  # type: ignore[no-untyped-def]
    """The checks run in blocks beside the evaluation (issue 43): a bad row anywhere (the
    first row, the last, either side of a block's edge, inside a vector window or in the
    rows the vector pass leaves) is found, and the first of several is the one named."""
    rng = random.Random(size * 7 + np.dtype(dtype).itemsize)
    evaluate = core.evaluate5_batch if size == 5 else core.evaluate7_batch
    too_big = [52, 60, 255] if dtype == np.uint8 else [52, 255, 300, -1, -300]
    for n in (1, 3, 255, 256, 257, 2049):  # the core checks blocks of 256 rows
        rows = np.array(hands(n, size, n), dtype=dtype)
        assert np.array_equal(evaluate(rows), py_evaluate7_batch(rows) if size == 7
                              else py_evaluate5_batch(rows))
        for _ in range(12):
            bad = rows.copy()
            at = sorted(rng.sample(range(n), min(n, rng.choice([1, 2, 3]))))
            at[0] = rng.choice([at[0], 0, n - 1, min(255, n - 1), min(256, n - 1),
                                min(1791, n - 1)])
            at.sort()
            first = at[0]
            for r in at:
                i, j = rng.sample(range(size), 2)
                if rng.random() < 0.5:
                    bad[r, i] = bad[r, j]
                else:
                    bad[r, i] = rng.choice(too_big)
            row = [int(v) for v in bad[first]]
            wrong = [v for v in row if not 0 <= v <= 51]
            why = f"card {wrong[0]} is not" if wrong else "a card given twice"
            with pytest.raises(ValueError, match=f"^row {first}: {why}"):
                evaluate(bad)


def test_flush_heavy_batches_equal_the_scalar_core(core) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(12)
    two_suits = [c for c in range(52) if c & 3 in (0, 2)]
    for size, batch, one in ((5, core.evaluate5_batch, core.evaluate5),
                             (7, core.evaluate7_batch, core.evaluate7)):
        rows = np.array([rng.sample(two_suits, size) for _ in range(5_000)], dtype=np.uint8)
        assert batch(rows).tolist() == [one(*map(int, r)) for r in rows]


def test_batch_writes_into_out(core) -> None:  # type: ignore[no-untyped-def]
    seven = np.array(hands(3_000, 7, 4), dtype=np.uint8)
    out = np.full(3_000, -1, dtype=np.int32)
    got = core.evaluate7_batch(seven, out=out)
    assert got is out and np.array_equal(out, py_evaluate7_batch(seven))
    for wrong, error in ((np.zeros(3_000, np.int64), ValueError),
                         (np.zeros(2_999, np.int32), ValueError),
                         (np.zeros((3_000, 1), np.int32), ValueError),
                         (np.zeros(6_000, np.int32)[::2], ValueError),
                         ([0] * 3_000, TypeError)):
        with pytest.raises(error, match="out must be"):
            core.evaluate7_batch(seven, out=wrong)
    frozen = np.zeros(3_000, np.int32)
    frozen.flags.writeable = False
    with pytest.raises(ValueError, match="writeable"):
        core.evaluate7_batch(seven, out=frozen)


def _exact_both(core, holes: list[list[int]], board: list[int], dead: list[int]):  # type: ignore[no-untyped-def]
    used = 0
    for c in [c for h in holes for c in h] + board + dead:
        used |= 1 << c
    args = (np.array(board, dtype=np.uint8), np.array(holes, dtype=np.uint8), used)
    return core.holdem_exact(*args), core.holdem_exact_each(*args)


def test_exact_equity_by_board_class_equals_every_board_heads_up(core) -> None:  # type: ignore[no-untyped-def]
    """Issue 43: boards alike up to the suits nobody can flush in are counted together; the
    counts equal the plain enumeration's (one showdown per board) exactly, preflop."""
    rng = random.Random(43)
    setups = []
    for _ in range(40):
        cards = rng.sample(range(52), 4)
        setups.append([cards[:2], cards[2:]])
    for _ in range(20):  # suited hands sharing a suit, and pocket pairs: flush-heavy classes
        s = rng.randrange(4)
        suited = rng.sample([c for c in range(52) if c & 3 == s], 4)
        r = rng.randrange(13)
        setups.append([suited[:2], suited[2:]] if rng.random() < 0.5
                      else [suited[:2], [4 * r + (s + 1) % 4, 4 * r + (s + 2) % 4]])
    for holes in setups:
        (t1, d1, _), (t2, d2, _) = _exact_both(core, holes, [], [])
        assert d1 == d2 == 1_712_304
        assert np.array_equal(t1, t2), holes


def test_exact_equity_by_board_class_equals_every_board_multiway(core) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(4343)
    for _ in range(150):
        players = rng.choice([2, 3, 4, 6, 9])
        nboard = rng.choice([0, 0, 3, 3, 4, 5])
        ndead = rng.choice([0, 0, 1, 4])
        if rng.random() < 0.3:  # a suit crowded onto the board and the holes
            s = rng.randrange(4)
            pool = [c for c in range(52) if c & 3 == s]
            rest = [c for c in range(52) if c & 3 != s]
            cards = rng.sample(pool, 6) + rng.sample(rest, 2 * players + 5 + ndead)
            rng.shuffle(cards)
        else:
            cards = rng.sample(range(52), 2 * players + nboard + ndead)
        holes = [cards[2 * i:2 * i + 2] for i in range(players)]
        board = cards[2 * players:2 * players + nboard]
        dead = cards[2 * players + nboard:2 * players + nboard + ndead]
        (t1, d1, _), (t2, d2, _) = _exact_both(core, holes, board, dead)
        assert d1 == d2 and np.array_equal(t1, t2), (holes, board, dead)


def test_exact_omaha_in_the_core_equals_the_numpy_enumeration(core) -> None:  # type: ignore[no-untyped-def]
    """Issue 43: exact Omaha high runs in the core by board class; every answer equals
    the NumPy enumeration's (one valuation per board): deals, wins and ties exactly, the
    equity to the last bits (the core sums integer counts, NumPy the shares)."""
    from big2.cards import CARD_NAMES

    rng = random.Random(434)
    cases = []
    for _ in range(60):
        preflop = len(cases) < 2  # the NumPy reference takes about 0.2 s a preflop deal
        players = 2 if preflop else rng.choice([2, 3, 4, 6])
        nboard = 0 if preflop else rng.choice([3, 3, 4, 4, 5])
        if rng.random() < 0.4:  # suited holes and boards: flushes matter
            s = rng.randrange(4)
            pool = [c for c in range(52) if c & 3 == s]
            cards = rng.sample(pool, 7)
            cards += rng.sample([c for c in range(52) if c not in cards], 4 * players + 5)
            rng.shuffle(cards)
        else:
            cards = rng.sample(range(52), 4 * players + 5)
        names = [CARD_NAMES[c] for c in cards]
        hands_ = [" ".join(names[4 * i:4 * i + 4]) for i in range(players)]
        board = " ".join(names[4 * players:4 * players + nboard])
        cases.append((hands_, board))
    for hands_, board in cases:
        fast = equity(hands_, board=board, game="omaha", exact=True, engine="native")
        slow = equity(hands_, board=board, game="omaha", exact=True, engine="python")
        assert fast.deals == slow.deals, (hands_, board)
        for a, b in zip(fast.hands, slow.hands):
            assert (a.win, a.tie) == (b.win, b.tie), (hands_, board)
            assert a.equity == pytest.approx(b.equity, rel=1e-12, abs=1e-15), (hands_, board)


def test_omaha_exact_bad_input_raises(core) -> None:  # type: ignore[no-untyped-def]
    board = np.array([], dtype=np.uint8)
    with pytest.raises(ValueError, match=r"\(n, 4\)"):
        core.omaha_exact(board, np.array([[0, 1], [2, 3]], dtype=np.uint8), 0b1111)
    with pytest.raises(ValueError, match="2 to 11 players"):
        core.omaha_exact(board, np.arange(4, dtype=np.uint8).reshape(1, 4), 0b1111)
    with pytest.raises(ValueError, match="twice"):
        core.omaha_exact(board, np.array([[0, 1, 2, 3], [3, 4, 5, 6]]), 0b1111111)


def test_equity_loops_bad_input_raises(core) -> None:  # type: ignore[no-untyped-def]
    board = np.array([], dtype=np.uint8)
    holes = np.array([[0, 1], [2, 3]], dtype=np.uint8)
    with pytest.raises(ValueError, match="used"):
        core.holdem_exact(board, holes, 0b11)
    with pytest.raises(ValueError, match="twice"):
        core.holdem_exact(board, np.array([[0, 1], [1, 3]]), 0b1011)
    with pytest.raises(ValueError, match="2 to 23 players"):
        core.holdem_exact(board, holes[:1], 0b11)
    with pytest.raises(ValueError, match="outside 0-51"):
        core.holdem_exact(np.array([60]), holes, 0b1111)
    with pytest.raises(TypeError, match="int mask"):
        core.holdem_exact(board, holes, "0b1111")
    with pytest.raises(ValueError, match="has none"):
        core.holdem_monte_carlo(board, [holes[:1], holes[:0]], 0, 10, 100, 1)
    with pytest.raises(TypeError, match="combos 1: expected a NumPy array, got list"):
        core.holdem_monte_carlo(board, [holes[:1], [[5, 6]]], 0, 10, 100, 1)
    with pytest.raises(TypeError, match="board: card numbers must be integers"):
        core.holdem_exact(np.array([1.5]), holes, 0b1111)
    with pytest.raises(ValueError, match="combos 1"):
        core.holdem_monte_carlo(board, [holes[:1], np.array([[5, 99]])], 0, 10, 100, 1)


SPOTS = [
    (["AS AH", "KS KH"], "2C 7D 9H"),
    (["AS KD", "QH QC", "JS TS"], "JD 8S 2C"),
    (["7S 6S", "AD KD", "2H 2C", "9C 9D"], "5S 4D KH 2S"),
    (["AS KS", "AD KD"], "QS JD TC"),          # chopped straights: ties
    (["QQ+", "AKs"], "2C 7D 9H"),              # ranges
    (["AA", "KK", "QQ"], "2C 7D 9H 3S"),
    (["AS AD", "KH KS"], ""),                  # preflop, 1,712,304 boards
]


@pytest.mark.parametrize(("hands_", "board"), SPOTS)
def test_exact_equity_equals_the_numpy_reference(hands_: list[str], board: str) -> None:
    native = equity(hands_, board=board, exact=True, engine="native")
    ref = equity(hands_, board=board, exact=True, engine="python")
    assert native.deals == ref.deals
    for a, b in zip(native.hands, ref.hands):
        assert (a.win, a.tie, a.equity) == pytest.approx((b.win, b.tie, b.equity), abs=1e-12)


def test_monte_carlo_equity_is_within_its_interval_and_reproducible() -> None:
    spot = {"hands": ["AS KD", "QH QC", "JS TS"], "board": "JD 8S 2C"}
    exact = equity(**spot, exact=True, engine="python")  # type: ignore[arg-type]
    mc = equity(**spot, trials=300_000, seed=5, engine="native")  # type: ignore[arg-type]
    again = equity(**spot, trials=300_000, seed=5, engine="native")  # type: ignore[arg-type]
    assert not mc.exact and mc.deals == 300_000 and mc == again
    for m, e in zip(mc.hands, exact.hands):
        assert m.ci is not None and abs(m.equity - e.equity) < 1.5 * m.ci


def test_monte_carlo_ranges_skip_clashes_like_the_reference() -> None:
    """Ranges sharing cards: both paths draw every non-clashing pair of combos alike."""
    spot = {"hands": ["AA", "AKs"], "board": "2C 7D 9H"}
    exact = equity(**spot, exact=True, engine="python")  # type: ignore[arg-type]
    mc = equity(**spot, trials=400_000, seed=2, engine="native")  # type: ignore[arg-type]
    for m, e in zip(mc.hands, exact.hands):
        assert m.ci is not None and abs(m.equity - e.equity) < 1.5 * m.ci


def test_progress_reaches_the_total_on_the_native_path() -> None:
    calls: list[tuple[int, int]] = []
    equity(["AS KD", "QH QC"], board="JS TH", engine="native",
           progress=lambda d, t: calls.append((d, t)))
    assert calls[-1] == (15_180, 15_180)
    calls.clear()
    equity(["AS KD", "QH QC"], trials=1_500_000, seed=1, engine="native",
           progress=lambda d, t: calls.append((d, t)))
    assert len(calls) == 2 and calls[-1] == (1_500_000, 1_500_000)


def _run(code: str, **env: str) -> str:
    environ = {k: v for k, v in os.environ.items() if k != "BIG2_ENGINE"} | env
    environ["PYTHONPATH"] = os.pathsep.join([str(SRC), environ.get("PYTHONPATH", "")])
    out = subprocess.run([sys.executable, "-c", code], env=environ, capture_output=True,
                         text=True, check=True)
    return out.stdout.strip()


PROBE = """
import big2.poker as p, big2.poker.native as n
from big2.poker.evaluate import py_evaluate5
print(n.native_reason(), p.evaluate5 is py_evaluate5, p.evaluate5(47, 43, 39, 35, 31),
      p.evaluate7_batch([[47, 43, 39, 35, 31, 0, 1]]).tolist(),
      round(p.equity(["AS AH", "KS KH"], board="2C 7D 9H").hands[0].equity, 4))
"""


def test_python_engine_asked_for_in_the_environment() -> None:
    assert _run(PROBE, BIG2_ENGINE="python") == "BIG2_ENGINE=python True 7462 [7462] 0.9162"


def test_missing_extension_falls_back_to_python() -> None:
    blocked = "import sys; sys.modules['big2._native'] = None\n" + PROBE
    assert _run(blocked) == "the extension is not built True 7462 [7462] 0.9162"
    assert _run(PROBE).startswith("None False 7462 [7462] 0.9162")


def test_unknown_engine_is_an_equity_error() -> None:
    from big2.poker import EquityError

    with pytest.raises(EquityError, match="engine"):
        equity(["AS KD", "QH QC"], engine="gpu")
