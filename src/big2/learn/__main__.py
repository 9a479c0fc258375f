"""``python -m big2.learn train|export-policy|slim|graft|plot``: the PPO
trainer (:mod:`big2.learn.ppo`) behind the shipped policy, and the tools
around its checkpoints; ``train-dmc``: the Deep Monte-Carlo trainer of a league
agent (:mod:`big2.learn.dmc`; ``slim`` serves its runs too). Expert iteration on
the policy is a research tool outside the package (``research/exit``,
``python -m research.exit``)."""

from __future__ import annotations

import csv
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import click

from big2.bots.policy.pnet import FAMILIES
from big2.learn.ppo import PPOConfig, Trainer, export_policy, graft_actor, slim_checkpoint

if TYPE_CHECKING:
    from big2.learn.dmc import Precision
    from big2.learn.dmc_collect import Reward


@click.group()
def main() -> None:
    """Train, export and plot the learned Big Two bots."""


def _bot_names(ctx: click.Context, param: click.Parameter, value: str) -> tuple[str, ...]:
    """A comma-separated list of bot names, each checked (a usage error names a bad one)."""
    from big2.bots import make_bot

    names = tuple(n.strip() for n in value.split(",") if n.strip())
    for name in names:
        try:
            make_bot(name)
        except ValueError as exc:
            raise click.BadParameter(str(exc)) from None
    return names


def run_options(command: Callable[..., None]) -> Callable[..., None]:
    """The options every trainer takes: its run directory, families, scoring, seed, hours."""
    for option in reversed((
            click.option("--out", required=True, help="run directory (checkpoint.pt, log.csv, "
                         "stats.csv); resumes if present"),
            click.option("--families", default=",".join(FAMILIES), show_default=True,
                         help="the rule families one network learns (preset names)"),
            click.option("--scoring", default="count", show_default=True),
            click.option("--seed", default=0, show_default=True),
            click.option("--hours", default=1.0, show_default=True,
                         help="wall time of this invocation"))):
        command = option(command)
    return command


@main.command("train")
@run_options
@click.option("--lr", default=5e-4, show_default=True)
@click.option("--entropy", default=0.01, show_default=True, help="entropy bonus")
@click.option("--batch", default=8192, show_default=True, help="decisions per update")
@click.option("--minibatch", default=2048, show_default=True, type=click.IntRange(1),
              help="decisions per gradient step")
@click.option("--epochs", default=4, show_default=True, type=click.IntRange(1),
              help="passes over each batch")
@click.option("--features", default="full", show_default=True,
              type=click.Choice(["full", "plain"]),
              help="the networks' inputs: with the engineered columns and the heuristic's "
                   "hints, or the plain encoding (cards only)")
@click.option("--precision", default="fp32", show_default=True,
              type=click.Choice(["fp32", "bf16"]),
              help="the update's passes in float32 or bfloat16 (autocast)")
@click.option("--self-play", "self_play", default=96, show_default=True,
              help="self-play games per family")
@click.option("--pool", default=16, show_default=True, help="games per family against past selves")
@click.option("--bots", default=8, show_default=True,
              help="games per family against each fixed bot")
@click.option("--opponents", default="heuristic,greedy", show_default=True,
              callback=_bot_names,
              help="the fixed bots played in training (comma-separated bot names)")
@click.option("--eval-minutes", default=15.0, show_default=True)
@click.option("--eval-deals", default=200, show_default=True)
@click.option("--checkpoint-minutes", default=5.0, show_default=True)
@click.option("--threads", default=0, show_default=True, help="PyTorch threads (0: every core)")
@click.option("--device", default="auto", show_default=True, help="auto, cpu or cuda")
@click.option("--collectors", default=0, show_default=True, type=click.IntRange(0),
              help="collector processes beside the learner (0: collect in this process)")
@click.option("--ray", "ray_address", is_flag=False, flag_value="local", default=None,
              help="collect on Ray actors (--collectors of them, 0: one per CPU of the "
                   "cluster): bare --ray starts a local instance, --ray auto joins the "
                   "running cluster, or give its address")
@click.option("--collector", default="native", show_default=True,
              type=click.Choice(["native", "python"]),
              help="play the games in the compiled core (NumPy where it cannot) or in NumPy")
def train_cmd(out: str, families: str, scoring: str, seed: int, hours: float, lr: float,
              entropy: float, batch: int, minibatch: int, epochs: int,
              features: Literal["full", "plain"], precision: Literal["fp32", "bf16"],
              self_play: int, pool: int, bots: int,
              opponents: tuple[str, ...], eval_minutes: float, eval_deals: int, checkpoint_minutes: float,
              threads: int, device: str, collectors: int, ray_address: str | None,
              collector: str) -> None:
    """Train (or resume) the policy network by PPO self-play (big2.learn.ppo)."""
    cfg = PPOConfig(out=out, families=tuple(families.split(",")), scoring=scoring, seed=seed,
                    hours=hours, lr=lr, entropy=entropy, batch=batch, minibatch=minibatch,
                    epochs=epochs, features=features, precision=precision,
                    self_play=self_play,
                    pool=pool, bots=bots, opponents=opponents,
                    eval_minutes=eval_minutes, eval_deals=eval_deals,
                    checkpoint_minutes=checkpoint_minutes, threads=threads, device=device,
                    collectors=collectors, ray=ray_address, collector=collector)
    Trainer(cfg, log=lambda msg: click.echo(msg, err=True)).run()


@main.command("train-dmc")
@run_options
@click.option("--hidden", default="512,256,256", show_default=True,
              help="the hidden layers' widths (a run keeps them)")
@click.option("--lr", default=3e-4, show_default=True)
@click.option("--epsilon", default=0.05, show_default=True,
              help="the chance a decision is a random legal play")
@click.option("--games", default=64, show_default=True, type=click.IntRange(1),
              help="deals of each family an iteration plays")
@click.option("--minibatch", default=1024, show_default=True, type=click.IntRange(1),
              help="decisions per gradient step")
@click.option("--epochs", default=1, show_default=True, type=click.IntRange(1),
              help="passes over an iteration's decisions")
@click.option("--eval-minutes", default=15.0, show_default=True)
@click.option("--eval-deals", default=200, show_default=True)
@click.option("--eval-opponents", default="heuristic,greedy", show_default=True,
              callback=_bot_names, help="the bots each evaluation plays (comma-separated)")
@click.option("--checkpoint-minutes", default=5.0, show_default=True)
@click.option("--threads", default=1, show_default=True,
              help="PyTorch's and NumPy's threads (0: every core)")
@click.option("--reward", default="score", show_default=True, type=click.Choice(["score", "win"]),
              help="what Q predicts: the seat's final score, or whether it wins the deal "
                   "(a run keeps it)")
@click.option("--precision", default="auto", show_default=True,
              type=click.Choice(["auto", "fp32", "bf16"]),
              help="the update's products (bf16: bfloat16 mixed precision, faster with "
                   "AVX-512; auto: bf16 where PyTorch has it)")
@click.option("--collectors", default=2, show_default=True, type=click.IntRange(0),
              help="processes that play the next iteration's deals while this one learns, "
                   "some shares of play each, at most families x shards (0: in turn here; "
                   "the same run either way)")
@click.option("--shards", default=1, show_default=True, type=click.IntRange(1),
              help="shares of play of each family's games, for more collectors (the deals "
                   "depend on it: resume with the same for the same run)")
@click.option("--device", default="auto", show_default=True, help="auto, cpu or cuda")
def train_dmc_cmd(out: str, families: str, scoring: str, seed: int, hours: float, hidden: str,
                  lr: float, epsilon: float, games: int, minibatch: int, epochs: int,
                  eval_minutes: float, eval_deals: int, eval_opponents: tuple[str, ...],
                  checkpoint_minutes: float, threads: int, reward: Reward,
                  precision: Precision, collectors: int, shards: int, device: str) -> None:
    """Train (or resume) a Deep Monte-Carlo Q network by self-play on the plain
    encoding (big2.learn.dmc): a league agent for the gauntlet."""
    from big2.learn.dmc import DMCConfig, DMCTrainer

    try:
        widths = tuple(int(w) for w in hidden.split(",") if w.strip())
    except ValueError:
        raise click.BadParameter(f"{hidden!r}: comma-separated whole numbers",
                                 param_hint="--hidden") from None
    cfg = DMCConfig(out=out, families=tuple(families.split(",")), scoring=scoring, seed=seed,
                    hours=hours, hidden=widths, lr=lr, epsilon=epsilon, games=games,
                    minibatch=minibatch, epochs=epochs, eval_minutes=eval_minutes,
                    eval_deals=eval_deals, eval_opponents=eval_opponents,
                    checkpoint_minutes=checkpoint_minutes, threads=threads, reward=reward,
                    precision=precision, collectors=collectors, shards=shards,
                    device=device)
    try:
        trainer = DMCTrainer(cfg, log=lambda msg: click.echo(msg, err=True))
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None
    trainer.run()


@main.command("export-policy")
@click.argument("run")
@click.argument("dest")
@click.option("--critic", default=None, help="also write the critic to this .npz")
def export_policy_cmd(run: str, dest: str, critic: str | None) -> None:
    """Write RUN's policy network to DEST (a float16 .npz the bots load)."""
    net = export_policy(run, dest, critic)
    click.echo(f"{dest}: {Path(dest).stat().st_size / 1e6:.2f} MB, {net.meta}")


@main.command("slim")
@click.argument("checkpoint")
@click.argument("dest")
def slim_cmd(checkpoint: str, dest: str) -> None:
    """Write CHECKPOINT without the optimiser state and past-self pool to DEST
    (the small form the repository keeps; a resume from it starts Adam afresh).
    A DMC run's checkpoint becomes a NumPy .npz: the bot dmc:weights=DEST plays
    it, and a run resumes from it as OUT/checkpoint.npz."""
    try:
        size = slim_checkpoint(checkpoint, dest)
    except (OSError, KeyError) as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"{dest}: {size / 1e6:.1f} MB")


@main.command("graft")
@click.argument("run")
@click.argument("policy")
def graft_cmd(run: str, policy: str) -> None:
    """Make POLICY (a policy .npz) RUN's actor; training goes on
    from it with RUN's critic, counters and pool (the old checkpoint is kept as
    checkpoint.prev.pt)."""
    from big2.bots.policy.pnet import load_policy

    if not (Path(run) / "checkpoint.pt").exists():
        raise click.ClickException(f"{run} holds no checkpoint.pt")
    try:
        state = graft_actor(run, load_policy(policy))
    except (OSError, ValueError) as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"{run}: actor from {policy} at {state['steps']:,} steps "
               f"(graft {state['grafted']})")


@main.command("plot")
@click.argument("runs", nargs=-1, required=True)
@click.option("-o", "--output", required=True, help="PNG to write")
def plot_cmd(runs: tuple[str, ...], output: str) -> None:
    """Plot points/deal against each evaluation bot over training (steps for a
    PPO run, one panel per rule family; wall time for a DMC run)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels: list[tuple[str, str, dict[str, list[tuple[float, float, float]]]]] = []
    for run in runs:
        by_panel: dict[str, dict[str, list[tuple[float, float, float]]]] = defaultdict(
            lambda: defaultdict(list))
        with (Path(run) / "log.csv").open() as fh:
            rows = list(csv.DictReader(fh))
        ppo = bool(rows) and "steps" in rows[0]
        for row in rows:
            x = float(row["steps"]) / 1e6 if ppo else float(row["wall_s"]) / 60
            panel = f"{Path(run).name}: {row['family']}" if ppo else Path(run).name
            by_panel[panel][row["opponent"]].append((x, float(row["points"]),
                                                     float(row["ci95"])))
        xlabel = "environment steps (millions)" if ppo else "training wall time (minutes)"
        panels += [(title, xlabel, series) for title, series in by_panel.items()]
    if not panels:
        raise click.ClickException("no evaluation lines in the runs' log.csv yet")
    fig, axes = plt.subplots(1, len(panels), figsize=(6 * len(panels), 4), squeeze=False)
    for ax, (title, xlabel, series) in zip(axes[0], panels):
        for opp, pts in sorted(series.items()):
            t, p, c = zip(*pts)
            ax.plot(t, p, label=f"vs 3 {opp}")
            ax.fill_between(t, [a - b for a, b in zip(p, c)], [a + b for a, b in zip(p, c)],
                            alpha=0.2)
        ax.axhline(0, color="grey", lw=0.5)
        ax.set_title(title)
        ax.set_xlabel(xlabel)
        ax.set_ylabel("points/deal, seat 0 (95% CI)")
        ax.legend()
    fig.tight_layout()
    fig.savefig(output, dpi=100)
    click.echo(f"wrote {output}")


if __name__ == "__main__":
    main()
