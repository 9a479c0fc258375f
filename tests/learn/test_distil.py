"""Distillation: the teacher labels the student's own positions, labels
accumulate in chunks, and fine-tuning moves the policy towards the teacher."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

torch = pytest.importorskip("torch")  # the training extra; `make test` installs it

from big2.bots import Bot, make_bot  # noqa: E402
from big2.bots.pnet import PolicyNet, load_policy  # noqa: E402
from big2.cards import Mask  # noqa: E402
from big2.learn.__main__ import main  # noqa: E402
from big2.learn.distil import (  # noqa: E402
    finetune,
    label_deals,
    load_labels,
    next_chunk,
    save_chunk,
)
from big2.learn.imitate import agreement  # noqa: E402
from big2.learn.ppo_model import actor_from_numpy  # noqa: E402
from big2.observation import card_vectors, encode_view  # noqa: E402
from big2.view import PlayerView  # noqa: E402


class Recording(Bot):
    """``greedy``, remembering every view it was asked about and its answer."""

    name = "recording"

    def __init__(self) -> None:
        super().__init__(seed=0)
        self.inner = make_bot("greedy")
        self.asked: list[tuple[PlayerView, Mask]] = []

    def choose(self, view: PlayerView) -> Mask:
        choice = self.inner.choose(view)
        self.asked.append((view, choice))
        return choice


def test_labels_are_the_teachers_choices_at_the_students_positions() -> None:
    teacher = Recording()
    student = PolicyNet.random(np.random.default_rng(1))
    data = label_deals(teacher, student, ["classic"], deals=3, seed=4, share=0.5)
    assert len(data) == len(teacher.asked) > 20
    for row, (view, choice) in enumerate(teacher.asked):
        assert len(view.legal) > 1  # forced plays are not labelled
        assert (data.obs[row] == encode_view(view)).all()
        start = int(data.starts[row])
        assert (data.cards[start:start + int(data.counts[row])] == card_vectors(view.legal)).all()
        assert view.legal[int(data.pick[row])] == choice
    # the deal goes on with the student's play, not the teacher's (DAgger):
    # the seat's next action in the history is not always the label
    differs = 0
    for (view, choice), (later, _) in zip(teacher.asked, teacher.asked[1:]):
        if len(later.history) > len(view.history):
            played = later.history[len(view.history)]
            if played.seat == view.seat and played.cards != choice:
                differs += 1
    assert differs > 0


def test_chunks_accumulate_and_load_as_one(tmp_path: Path) -> None:
    student = PolicyNet.random(np.random.default_rng(2))
    a = label_deals("greedy", student, ["classic"], deals=1, seed=1)
    b = label_deals("greedy", student, ["selfplay-2018"], deals=1, seed=2)
    assert next_chunk(tmp_path) == 0
    assert save_chunk(a, tmp_path, {"teacher": "greedy"}).name == "labels-00000.npz"
    assert save_chunk(b, tmp_path).name == "labels-00001.npz"
    assert next_chunk(tmp_path) == 2
    both = load_labels(tmp_path)
    assert len(both) == len(a) + len(b)
    assert (both.pick == np.concatenate([a.pick, b.pick])).all()
    assert (both.cards == np.concatenate([a.cards, b.cards])).all()
    assert set(both.family.tolist()) == {0, 1}
    assert not list(tmp_path.glob(".*"))  # no temporary file left behind
    with pytest.raises(FileNotFoundError):
        load_labels(tmp_path / "none")


def test_two_writers_never_take_one_name(tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    import big2.learn.distil as distil

    data = label_deals("greedy", PolicyNet.random(np.random.default_rng(2)), ["classic"],
                       deals=1, seed=1)
    monkeypatch.setattr(distil, "next_chunk", lambda folder: 0)  # both see the same next index
    first = save_chunk(data, tmp_path)
    second = save_chunk(data, tmp_path)
    assert (first.name, second.name) == ("labels-00000.npz", "labels-00001.npz")


def test_actor_from_numpy_computes_what_the_policy_computes() -> None:
    net = PolicyNet.random(np.random.default_rng(3))
    back = actor_from_numpy(net).to_numpy()
    for name, w in net.w.items():
        assert np.array_equal(w, back.w[name]), name


def test_finetuning_moves_the_policy_towards_the_teacher() -> None:
    student = PolicyNet.random(np.random.default_rng(5))
    data = label_deals("greedy", student, ["classic"], deals=40, seed=6)
    actor, before, after = finetune(data, student, epochs=8, lr=1e-3, holdout=300,
                                    log=lambda _: None)
    assert after > before + 0.1
    held = agreement(actor.to_numpy(), data)
    assert held > agreement(student, data) + 0.1


def test_the_commands_label_then_distil(tmp_path: Path) -> None:
    runner = CliRunner()
    labels = tmp_path / "labels"
    got = runner.invoke(main, ["label", "--teacher", "greedy", "--families", "classic",
                               "--deals", "3", "--chunk", "2", "--out", str(labels)])
    assert got.exit_code == 0, got.output
    assert sorted(p.name for p in labels.iterdir()) == ["labels-00000.npz", "labels-00001.npz"]
    out = tmp_path / "p.npz"
    got = runner.invoke(main, ["distil", str(labels), "--epochs", "1", "--holdout", "10",
                               "--out", str(out)])
    assert got.exit_code == 0, got.output
    assert "agreement" in got.output
    assert load_policy(out).meta["distil_decisions"] == str(len(load_labels(labels)))


def test_the_commands_refuse_bad_input(tmp_path: Path) -> None:
    runner = CliRunner()
    got = runner.invoke(main, ["label", "--teacher", "nosuchbot", "--out", str(tmp_path)])
    assert got.exit_code == 2 and "nosuchbot" in got.output
    got = runner.invoke(main, ["label", "--share", "1", "--out", str(tmp_path)])
    assert got.exit_code == 2
    got = runner.invoke(main, ["distil", str(tmp_path / "empty"), "--out", "x.npz"])
    assert got.exit_code == 1 and "no labels" in got.output


class Valuing(Bot):
    """A stand-in search whose value of a play is its card count (plus a
    tenth per card of the seat's hand), so the gaps are known in advance."""

    name = "valuing"

    def __init__(self) -> None:
        super().__init__(seed=0)
        self.asked: list[tuple[PlayerView, Mask]] = []

    def value(self, view: PlayerView, m: Mask) -> float:
        return m.bit_count() + 0.1 * int(view.hand).bit_count()

    def choose(self, view: PlayerView) -> Mask:
        return self.analyse(view)[0][0]

    def analyse(self, view: PlayerView, include: tuple[Mask, ...] = ()
                ) -> list[tuple[Mask, float, float]]:
        self.asked.append((view, include[0]))
        rows = [(m, 0.0, self.value(view, m)) for m in view.legal]
        return sorted(rows, key=lambda r: -r[2])


def test_labels_by_gap_keep_the_students_play_unless_the_search_clearly_beats_it() -> None:
    teacher = Valuing()
    student = PolicyNet.random(np.random.default_rng(7))
    data = label_deals(teacher, student, ["classic"], deals=4, seed=8, share=0.25, gap=2.0)
    assert data.weight is not None and len(data) == len(teacher.asked) > 20
    labelled = 0
    for row, (view, own) in enumerate(teacher.asked):
        start = int(data.starts[row])
        p = student.probabilities(data.obs[row], data.cards[start:start + int(data.counts[row])],
                                  family=0)
        assert view.legal[int(p.argmax())] == own  # the student's most probable play
        best = max(view.legal, key=lambda m: teacher.value(view, m))
        worth = teacher.value(view, best) - teacher.value(view, own)
        if worth >= 2.0:
            labelled += 1
            assert view.legal[int(data.pick[row])] == best
            assert data.weight[row] == pytest.approx(worth)
        else:
            assert view.legal[int(data.pick[row])] == own and data.weight[row] == 0
    assert 0 < labelled < len(data)


def test_finetuning_on_gap_labels_learns_where_they_label(tmp_path: Path) -> None:
    student = PolicyNet.random(np.random.default_rng(9))
    data = label_deals(Valuing(), student, ["classic"], deals=40, seed=10, gap=1.0)
    save_chunk(data, tmp_path)
    save_chunk(label_deals("greedy", student, ["classic"], deals=1, seed=11), tmp_path)
    both = load_labels(tmp_path)  # hard labels weigh 1 beside the gap labels
    assert both.weight is not None and (both.weight[len(data):] == 1).all()
    assert (both.weight[:len(data)] == data.weight).all()
    actor, before, after = finetune(data, student, epochs=8, lr=1e-3, holdout=300,
                                    log=lambda _: None)
    assert after > before + 0.1


def test_labels_by_gap_need_a_search(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="cannot value plays"):
        label_deals("greedy", PolicyNet.random(np.random.default_rng(1)), ["classic"],
                    deals=1, gap=1.0)
    got = CliRunner().invoke(main, ["label", "--teacher", "greedy", "--gap", "1",
                                    "--out", str(tmp_path)])
    assert got.exit_code == 2 and "cannot value plays" in got.output


def test_the_label_command_labels_by_gap_with_the_search(tmp_path: Path) -> None:
    got = CliRunner().invoke(main, ["label", "--teacher", "expert-v1:budget=40", "--families",
                                    "classic", "--deals", "1", "--gap", "0.5",
                                    "--out", str(tmp_path)])
    assert got.exit_code == 0, got.output
    chunk = np.load(tmp_path / "labels-00000.npz")
    assert str(chunk["meta_gap"]) == "0.5" and len(chunk["weight"]) == len(chunk["pick"])
    assert ((chunk["weight"] == 0) | (chunk["weight"] >= 0.5)).all()
