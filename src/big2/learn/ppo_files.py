"""A run's files: the slim checkpoint the repository keeps, a policy grafted
into a run, and the run's actor and critic exported as the package's weights;
and what every trainer writes (:func:`save_checkpoint`, :func:`append_log`,
:func:`append_stats`; the PPO and the DMC trainers share them).

They read and write ``RUN/checkpoint.pt`` as :class:`big2.learn.ppo.Trainer`
saves it; :mod:`big2.learn.ppo` re-exports them, and ``python -m big2.learn``
calls them (``slim``, ``graft``, ``export-policy``).
"""

from __future__ import annotations

import contextlib
import csv
import os
import signal
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

import numpy as np

from big2.bots.policy.pnet import PolicyNet

LOG_COLUMNS: Final = ("wall_s", "iteration", "steps", "deals", "family", "opponent", "points",
                      "ci95", "win_rate")
"""The columns of a run's ``log.csv``: one evaluation of one family against one bot."""


def save_checkpoint(path: Path, payload: Mapping[str, Any]) -> None:
    """Write *payload* to *path* with ``torch.save``, atomically: through
    ``.tmp``, the file before kept as ``.prev.pt`` (a crash between the renames
    leaves that one, which the trainers resume from)."""
    import torch

    tmp = path.with_suffix(".tmp")
    torch.save(dict(payload), tmp)
    if path.exists():
        os.replace(path, path.with_suffix(".prev.pt"))
    os.replace(tmp, path)


def append_log(path: Path, rows: Sequence[Sequence[object]]) -> None:
    """Add evaluation *rows* (:data:`LOG_COLUMNS`) to the log file *path*,
    writing the header first into a new file."""
    new = not path.exists()
    with path.open("a", newline="") as fh:
        w = csv.writer(fh)
        if new:
            w.writerow(LOG_COLUMNS)
        w.writerows(rows)


def append_stats(path: Path, row: Mapping[str, object]) -> None:
    """Add one iteration's *row* to the stats file *path*, in its header's
    columns (:func:`stats_columns`)."""
    fields = stats_columns(path, list(row))
    new = not path.exists()
    with path.open("a", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=fields)
        if new:
            w.writeheader()
        w.writerow(row)


def stats_columns(path: Path, wanted: list[str]) -> list[str]:
    """The columns a row of *wanted* fields is written in to the stats file *path*: its
    header's order when it names the same fields (a row once followed the dict's order
    under an older header, and the columns after ``clipped`` were shifted), else
    *wanted*, after the old file is moved aside to ``stats.before-N.csv`` (N: its
    rows), so a header never describes rows it does not fit."""
    if not path.exists():
        return wanted
    with path.open(newline="") as fh:
        header = next(csv.reader([fh.readline()]), [])
        if sorted(header) == sorted(wanted):
            return header
        lines = sum(1 for _ in fh)
    os.replace(path, path.with_name(f"stats.before-{lines}.csv"))
    return wanted


def checkpoint_kind(saved: Mapping[str, Any]) -> str:
    """Which trainer wrote a loaded checkpoint: ``"dmc"`` or ``"ppo"`` (a PPO
    checkpoint carries no kind)."""
    return str(saved.get("kind", "ppo"))


def slim_checkpoint(src: str | Path, dest: str | Path) -> int:
    """Write *src*'s checkpoint without the optimiser state and the past-self
    pool to *dest* (the form the repository keeps; see :mod:`big2.learn.ppo` for
    how a resume from it differs). A DMC run's checkpoint becomes a NumPy
    ``.npz`` (:func:`big2.bots.policy.dmc.slim_arrays`: the bot ``dmc`` plays it and
    :mod:`big2.learn.dmc` resumes from it). Returns the bytes written."""
    import torch

    saved = torch.load(Path(src), weights_only=False, map_location="cpu")
    if checkpoint_kind(saved) == "dmc":
        from big2.bots.policy.dmc import slim_arrays

        with Path(dest).open("wb") as fh:  # (a name not ending .npz stays as given)
            np.savez_compressed(fh, **slim_arrays(saved))  # type: ignore[arg-type]
        return Path(dest).stat().st_size
    saved.pop("opt", None)
    saved["state"] = {**saved["state"], "pool": []}
    torch.save(saved, Path(dest))
    return Path(dest).stat().st_size


def graft_actor(run: str | Path, net: PolicyNet) -> dict[str, Any]:
    """Replace the actor of *run*'s checkpoint by *net* (a distilled policy,
    say), keeping the critic, the counters, the pool and every random state;
    the actor's Adam moments restart from zero (they described other weights).
    The run's new ``state`` (with ``grafted`` counting the grafts)."""
    import torch

    from big2.learn.ppo_model import Actor, Critic, actor_from_numpy, widen_checkpoint

    path = Path(run) / "checkpoint.pt"
    saved = torch.load(path, weights_only=False, map_location="cpu")
    widen_checkpoint(saved, Actor(), Critic())
    new = actor_from_numpy(net).state_dict()
    if {k: v.shape for k, v in new.items()} != {k: v.shape for k, v in saved["actor"].items()}:
        raise ValueError("the policy's layers do not match the run's actor")
    saved["actor"] = new
    for index in range(len(new)):  # the actor's parameters come first in the optimiser
        moments = saved["opt"]["state"].get(index) if "opt" in saved else None
        if moments is not None:
            moments["exp_avg"].zero_()
            moments["exp_avg_sq"].zero_()
    saved["state"]["grafted"] = saved["state"].get("grafted", 0) + 1
    tmp = path.with_suffix(".tmp")
    torch.save(saved, tmp)
    os.replace(path, path.with_suffix(".prev.pt"))
    os.replace(tmp, path)
    out: dict[str, Any] = saved["state"]
    return out


def export_policy(run: str | Path, dest: str | Path, critic: str | Path | None = None) -> PolicyNet:
    """Write a run's actor as a package weights file (float16 ``.npz``), and
    its critic beside it when *critic* names a file."""
    import torch

    from big2.learn.ppo_model import Actor, Critic, widen_checkpoint

    saved = torch.load(Path(run) / "checkpoint.pt", weights_only=False, map_location="cpu")
    actor, c = Actor(), Critic()
    widen_checkpoint(saved, actor, c)  # a run from before the engineered features
    actor.load_state_dict(saved["actor"])
    st, cfg = saved["state"], saved["config"]
    net = actor.to_numpy({"families": ",".join(cfg["families"]), "scoring": cfg["scoring"],
                          "steps": str(st["steps"]), "deals": str(st["deals"]),
                          "cpu_s": f"{st['cpu']:.0f}", "iterations": str(st["iteration"])})
    net.save(dest)
    if critic is not None:
        c.load_state_dict(saved["critic"])
        arrays: dict[str, Any] = {}
        for i, m in enumerate(m for m in c.net if isinstance(m, torch.nn.Linear)):
            arrays[f"w{i}"] = m.weight.detach().numpy().T.astype(np.float16)
            arrays[f"b{i}"] = m.bias.detach().numpy().astype(np.float16)
        for key, value in net.meta.items():  # the same provenance as the policy
            arrays[f"meta_{key}"] = np.array(value)
        np.savez_compressed(critic, **arrays)
    return net


@contextlib.contextmanager
def stop_on_signals(log: Callable[[str], None], threads: int) -> Iterator[list[int]]:
    """A trainer's run: a list that SIGTERM or Ctrl+C appends to (the loop ends its
    iteration, checkpoints and stops), NumPy's BLAS held to the trainer's *threads*
    (its threads fight PyTorch's: 8x slower seen on 2 busy cores); the handlers as they
    were afterwards."""
    from threadpoolctl import threadpool_limits

    stop: list[int] = []

    def request_stop(signum: int, frame: object) -> None:
        stop.append(signum)
        log("stopping after this iteration (checkpoint follows)")

    old = {sig: signal.signal(sig, request_stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        with threadpool_limits(threads, user_api="blas"):
            yield stop
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)


__all__ = ["LOG_COLUMNS", "append_log", "append_stats", "checkpoint_kind", "export_policy",
           "graft_actor", "save_checkpoint", "slim_checkpoint", "stats_columns", "stop_on_signals"]
