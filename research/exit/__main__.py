"""``python -m research.exit``: expert iteration from a PPO checkpoint
(:mod:`research.exit.run`; needs the training extra, PyTorch)."""

from __future__ import annotations

from pathlib import Path

import click

from big2.bots.base import LEVEL_OPTIONS
from big2.bots.policy.pnet import FAMILIES
from research.exit.run import ExItConfig, ExpertIteration


@click.command("expert-iteration")
@click.option("--out", default="training/exit", show_default=True,
              help="run directory (checkpoint.pt, policy.npz, rounds.csv, log.txt, work/); "
                   "resumes if present")
@click.option("--start", default="training/ppo/checkpoint.pt", show_default=True,
              help="the PPO checkpoint a new run starts from")
@click.option("--families", default=",".join(FAMILIES), show_default=True,
              help="the rule families played (preset names)")
@click.option("--scoring", default="count", show_default=True)
@click.option("--seed", default=0, show_default=True)
@click.option("--budget", default=100, show_default=True, type=click.IntRange(1),
              help="the search's play-outs a decision in self-play")
@click.option("--gate-budget", default=LEVEL_OPTIONS["hard"]["budget"], show_default=True,
              type=click.IntRange(1), help="hard's play-outs a decision in the gate (the level's)")
@click.option("--deals", default=300, show_default=True, type=click.IntRange(1),
              help="self-play deals per family a round")
@click.option("--gate-deals", default=1000, show_default=True, type=click.IntRange(2),
              help="duplicate deals per family of a gate's paired runs against heuristic")
@click.option("--gate-h2h-deals", default=250, show_default=True, type=click.IntRange(2),
              help="duplicate deals per family of a gate's head to head (four searching "
                   "seats: about four times a paired deal)")
@click.option("--target", type=click.Choice(["values", "shares"]), default="values",
              show_default=True, help="learn toward the search's values (softmax) or its "
                                      "play-out shares")
@click.option("--temperature", default=1.0, show_default=True,
              help="the values' softmax temperature, in points")
@click.option("--favour", default=1.0, show_default=True,
              help="points credited to the policy's favourite before the softmax "
                   "(the search's margin)")
@click.option("--significance", default=0.0, show_default=True, type=click.FloatRange(0),
              help="above 0: only decisions where the search overturned the policy by more "
                   "than this many standard errors teach; the others keep the policy's "
                   "probabilities as their target")
@click.option("--loss", type=click.Choice(["ce", "kl"]), default="ce", show_default=True,
              help="cross-entropy (forward KL) or reverse KL to the targets")
@click.option("--optimizer", type=click.Choice(["adam", "sgd"]), default="adam",
              show_default=True, help="Adam, or SGD with momentum 0.9 (steps in proportion "
                                      "to the gradient; give it a larger --lr, e.g. 1e-2)")
@click.option("--epochs", default=3, show_default=True, type=click.IntRange(1))
@click.option("--lr", default=3e-4, show_default=True)
@click.option("--replay", default=2, show_default=True, type=click.IntRange(1),
              help="rounds of self-play learnt from (this one and those before)")
@click.option("--holdout", default=0.1, show_default=True, type=click.FloatRange(0, 0.5),
              help="share of the decisions held out of the learning to measure it")
@click.option("--rounds", default=0, show_default=True, type=click.IntRange(0),
              help="rounds this invocation plays at most (0: no limit)")
@click.option("--patience", default=2, show_default=True, type=click.IntRange(1),
              help="losing rounds in a row that stop the run")
@click.option("--hours", default=1.0, show_default=True, help="wall time of this invocation")
@click.option("--workers", default=0, show_default=True, type=click.IntRange(0),
              help="local worker processes (0: one per core; 1: this process); with "
                   "--ray, Ray actors (0: one per CPU of the cluster)")
@click.option("--ray", "ray_address", is_flag=False, flag_value="local", default=None,
              help="play on Ray actors: bare --ray starts a local instance, --ray auto "
                   "joins the running cluster, or give its address")
@click.option("--checkpoint-minutes", default=5.0, show_default=True,
              help="self-play is written to disk this often")
@click.option("--threads", default=1, show_default=True, type=click.IntRange(1),
              help="PyTorch threads of the learning step")
def expert_iteration_cmd(out: str, start: str, families: str, scoring: str, seed: int,
                         budget: int, gate_budget: int, deals: int, gate_deals: int,
                         gate_h2h_deals: int, target: str,
                         temperature: float, favour: float, significance: float, loss: str, optimizer: str,
                         epochs: int, lr: float,
                         replay: int, holdout: float, rounds: int, patience: int, hours: float, workers: int,
                         ray_address: str | None, checkpoint_minutes: float,
                         threads: int) -> None:
    """Expert iteration (research.exit.run): the hard search plays itself, the
    policy learns toward its choices, and each round is kept only if it beats
    the last on duplicate deals."""
    if not (Path(out) / "checkpoint.pt").exists() and not Path(start).exists():
        raise click.ClickException(f"no checkpoint to start from: {start}")
    if temperature <= 0:
        raise click.BadParameter("must be above 0", param_hint="--temperature")
    cfg = ExItConfig(out=out, start=start, families=tuple(families.split(",")),
                     scoring=scoring, seed=seed, budget=budget, gate_budget=gate_budget, deals=deals,
                     gate_deals=gate_deals,
                     gate_h2h_deals=gate_h2h_deals, target=target, temperature=temperature,
                     favour=favour, significance=significance, loss=loss,
                     optimizer=optimizer, epochs=epochs, lr=lr, replay=replay,
                     holdout=holdout,
                     rounds=rounds, patience=patience, hours=hours, workers=workers,
                     ray=ray_address, checkpoint_minutes=checkpoint_minutes, threads=threads)
    why = ExpertIteration(cfg, log=lambda msg: click.echo(msg, err=True)).run()
    click.echo(why)


if __name__ == "__main__":
    expert_iteration_cmd()
