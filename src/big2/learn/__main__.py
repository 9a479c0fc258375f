"""``python -m big2.learn train|expert-iteration|export-policy|slim|graft|plot``:
the PPO trainer (:mod:`big2.learn.ppo`) behind the shipped policy, and expert
iteration on it (:mod:`big2.learn.exit_run`). The earlier trainers (the
Deep Monte-Carlo Q network, imitation, distillation) were retired in issue 44;
git history keeps them (docs/research.md says where)."""

from __future__ import annotations

import csv
from collections import defaultdict
from pathlib import Path

import click

from big2.bots.base import LEVEL_OPTIONS
from big2.bots.policy.pnet import FAMILIES
from big2.learn.ppo import PPOConfig, Trainer, export_policy, graft_actor, slim_checkpoint


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


@main.command("train")
@click.option("--out", required=True,
              help="run directory (checkpoint.pt, log.csv, stats.csv); resumes if present")
@click.option("--families", default=",".join(FAMILIES), show_default=True,
              help="the rule families one network learns (preset names)")
@click.option("--scoring", default="count", show_default=True)
@click.option("--seed", default=0, show_default=True)
@click.option("--hours", default=1.0, show_default=True, help="wall time of this invocation")
@click.option("--lr", default=5e-4, show_default=True)
@click.option("--entropy", default=0.01, show_default=True, help="entropy bonus")
@click.option("--batch", default=8192, show_default=True, help="decisions per update")
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
              entropy: float, batch: int, self_play: int, pool: int, bots: int,
              opponents: tuple[str, ...], eval_minutes: float, eval_deals: int, checkpoint_minutes: float,
              threads: int, device: str, collectors: int, ray_address: str | None,
              collector: str) -> None:
    """Train (or resume) the policy network by PPO self-play (big2.learn.ppo)."""
    cfg = PPOConfig(out=out, families=tuple(families.split(",")), scoring=scoring, seed=seed,
                    hours=hours, lr=lr, entropy=entropy, batch=batch, self_play=self_play,
                    pool=pool, bots=bots, opponents=opponents,
                    eval_minutes=eval_minutes, eval_deals=eval_deals,
                    checkpoint_minutes=checkpoint_minutes, threads=threads, device=device,
                    collectors=collectors, ray=ray_address, collector=collector)
    Trainer(cfg, log=lambda msg: click.echo(msg, err=True)).run()


@main.command("expert-iteration")
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
    """Expert iteration (big2.learn.exit_run): the hard search plays itself, the
    policy learns toward its choices, and each round is kept only if it beats
    the last on duplicate deals."""
    from big2.learn.exit_run import ExItConfig, ExpertIteration

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
    (the small form the repository keeps; a resume from it starts Adam afresh)."""
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
