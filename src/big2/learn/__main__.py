"""``python -m big2.learn train|export-policy|graft|plot`` (PPO, :mod:`big2.learn.ppo`),
``imitate`` (:mod:`big2.learn.imitate`), ``label|distil`` (:mod:`big2.learn.distil`) and
``train-dmc|export`` (the older Deep Monte-Carlo Q network, :mod:`big2.learn.train`)."""

from __future__ import annotations

import csv
from collections import defaultdict
from pathlib import Path

import click

from big2.bots.pnet import FAMILIES
from big2.learn.ppo import PPOConfig, Trainer, export_policy, graft_actor
from big2.learn.train import TrainConfig, export, train


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
def train_cmd(out: str, families: str, scoring: str, seed: int, hours: float, lr: float,
              entropy: float, batch: int, self_play: int, pool: int, bots: int,
              opponents: tuple[str, ...], eval_minutes: float, eval_deals: int, checkpoint_minutes: float,
              threads: int, device: str, collectors: int) -> None:
    """Train (or resume) the policy network by PPO self-play (big2.learn.ppo)."""
    cfg = PPOConfig(out=out, families=tuple(families.split(",")), scoring=scoring, seed=seed,
                    hours=hours, lr=lr, entropy=entropy, batch=batch, self_play=self_play,
                    pool=pool, bots=bots, opponents=opponents,
                    eval_minutes=eval_minutes, eval_deals=eval_deals,
                    checkpoint_minutes=checkpoint_minutes, threads=threads, device=device,
                    collectors=collectors)
    Trainer(cfg, log=lambda msg: click.echo(msg, err=True)).run()


@main.command("export-policy")
@click.argument("run")
@click.argument("dest")
@click.option("--critic", default=None, help="also write the critic to this .npz")
def export_policy_cmd(run: str, dest: str, critic: str | None) -> None:
    """Write RUN's policy network to DEST (a float16 .npz the bots load)."""
    net = export_policy(run, dest, critic)
    click.echo(f"{dest}: {Path(dest).stat().st_size / 1e6:.2f} MB, {net.meta}")


@main.command("imitate")
@click.option("--teacher", default="heuristic", show_default=True,
              help="the bot whose choices are imitated (any bot name)")
@click.option("--families", default=",".join(FAMILIES), show_default=True)
@click.option("--deals", default=10_000, show_default=True, help="deals per family")
@click.option("--epochs", default=6, show_default=True)
@click.option("--seed", default=0, show_default=True)
@click.option("--raw", is_flag=True, help="zero the engineered inputs (what do they add?)")
@click.option("--compare", "compare", multiple=True,
              help="also report this policy .npz's agreement with the teacher; repeatable")
@click.option("--out", default=None, help="write the fitted policy to this .npz")
def imitate_cmd(teacher: str, families: str, deals: int, epochs: int, seed: int, raw: bool,
                compare: tuple[str, ...], out: str | None) -> None:
    """Fit a fresh policy network to TEACHER's choices and report how well it
    agrees on held-out decisions (a check of what the network can represent,
    and a way to distil a search into it)."""
    import torch
    from tqdm import tqdm  # type: ignore[import-untyped]

    from big2.bots.pnet import load_policy
    from big2.learn.imitate import agreement, fit, teacher_decisions

    torch.set_num_threads(1)
    names = families.split(",")
    with tqdm(total=deals * len(names), desc=f"{teacher} deals", unit="deal") as bar:
        data = teacher_decisions(teacher, names, deals, seed, progress=bar.update)
    click.echo(f"{len(data):,} decisions with a choice", err=True)
    for path in compare:
        click.echo(f"{path}: agreement {agreement(load_policy(path), data):.1%}")
    actor, _ = fit(data, epochs=epochs, raw=raw, seed=seed, holdout=min(10_000, len(data) // 5),
                   log=click.echo)
    if out:
        net = actor.to_numpy({"families": families, "teacher": teacher, "deals": str(deals),
                              "epochs": str(epochs)})
        net.save(out)
        click.echo(f"wrote {out}")


@main.command("graft")
@click.argument("run")
@click.argument("policy")
def graft_cmd(run: str, policy: str) -> None:
    """Make POLICY (a .npz, e.g. from ``distil``) RUN's actor; training goes on
    from it with RUN's critic, counters and pool (the old checkpoint is kept as
    checkpoint.prev.pt)."""
    from big2.bots.pnet import load_policy

    if not (Path(run) / "checkpoint.pt").exists():
        raise click.ClickException(f"{run} holds no checkpoint.pt")
    try:
        state = graft_actor(run, load_policy(policy))
    except (OSError, ValueError) as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"{run}: actor from {policy} at {state['steps']:,} steps "
               f"(graft {state['grafted']})")


@main.command("label")
@click.option("--teacher", default="expert-v1", show_default=True,
              help="the bot whose choices are learned (a seat spec: expert-v1:budget=400)")
@click.option("--student", default=None,
              help="the policy .npz that plays (default: the shipped policy)")
@click.option("--families", default=",".join(FAMILIES), show_default=True)
@click.option("--deals", default=100, show_default=True,
              help="deals per family in this invocation")
@click.option("--chunk", default=10, show_default=True,
              help="deals per family between writes (a stop loses at most one chunk)")
@click.option("--others", default="heuristic", show_default=True,
              help="the bot at the seats the student does not hold")
@click.option("--share", default=0.25, show_default=True,
              help="each seat's chance to be OTHERS (at least one seat is the student)")
@click.option("--seed", default=0, show_default=True,
              help="with the chunk's number, seeds its deals (label in parallel: one seed each)")
@click.option("--gap", type=click.FloatRange(min=0), default=None,
              help="label by value gap: the search's best play where it is worth at least "
                   "GAP points more than the student's own, weighted by the gap")
@click.option("--out", required=True, help="labels directory (chunks accumulate there)")
def label_cmd(teacher: str, student: str | None, families: str, deals: int, chunk: int,
              others: str, share: float, seed: int, gap: float | None, out: str) -> None:
    """Label the student's own positions with TEACHER's choices (DAgger), in
    chunks that accumulate in OUT across invocations."""
    from tqdm import tqdm

    from big2.arena import parse_seat
    from big2.bots import make_bot
    from big2.bots.pnet import WEIGHTS_DIR, load_policy
    from big2.learn.distil import label_deals, next_chunk, require_values, save_chunk

    if deals < 1 or chunk < 1 or not 0 <= share < 1:
        raise click.BadParameter("--deals and --chunk must be at least 1, --share in [0, 1)")
    name, options = parse_seat(teacher)
    try:
        coach = make_bot(name, seed=seed * 7919 + next_chunk(out), **options)
        make_bot(others)
        if gap is not None:
            require_values(coach)
    except (ValueError, TypeError) as exc:
        raise click.BadParameter(str(exc)) from None
    net = load_policy(student or WEIGHTS_DIR / "policy.npz")
    names = families.split(",")
    done = 0
    with tqdm(total=deals * len(names), desc=f"{teacher} labels", unit="deal") as bar:
        while done < deals:
            n = min(chunk, deals - done)
            # every chunk its own deals, across invocations and --seed values
            data = label_deals(coach, net, names, n, seed=1_000_003 * next_chunk(out) + seed,
                               others=others, share=share, progress=bar.update, gap=gap)
            path = save_chunk(data, out, {"teacher": teacher, "student": student or "shipped",
                                          "steps": net.meta.get("steps", "?"),
                                          "gap": "none" if gap is None else str(gap)})
            labelled = "" if gap is None or data.weight is None else \
                f", {int((data.weight > 0).sum())} by gap"
            bar.set_postfix_str(f"{path.name}: {len(data)} decisions{labelled}")
            done += n


@main.command("distil")
@click.argument("labels")
@click.option("--init", "init", default=None,
              help="the policy .npz to start from (default: the shipped policy)")
@click.option("--epochs", default=3, show_default=True)
@click.option("--lr", default=1e-4, show_default=True)
@click.option("--holdout", default=2000, show_default=True,
              help="decisions kept out of training to measure agreement")
@click.option("--anchor", default=0.1, show_default=True,
              help="with labels by gap: the weight of a decision where the student's play "
                   "was kept")
@click.option("--out", required=True, help="write the fitted policy to this .npz")
def distil_cmd(labels: str, init: str | None, epochs: int, lr: float, holdout: int,
               anchor: float, out: str) -> None:
    """Fit the policy to every label in LABELS (``label``'s chunks), from INIT."""
    import torch

    from big2.bots.pnet import WEIGHTS_DIR, load_policy
    from big2.learn.distil import finetune, load_labels

    torch.set_num_threads(1)
    try:
        data = load_labels(labels)
    except FileNotFoundError as exc:
        raise click.ClickException(str(exc)) from None
    start = load_policy(init or WEIGHTS_DIR / "policy.npz")
    click.echo(f"{len(data):,} labelled decisions")
    actor, before, after = finetune(data, start, epochs=epochs, lr=lr, holdout=holdout,
                                    anchor=anchor, log=click.echo)
    meta = {**start.meta, "distilled": labels, "distil_epochs": str(epochs),
            "distil_decisions": str(len(data))}
    actor.to_numpy(meta).save(out)
    click.echo(f"agreement {before:.1%} -> {after:.1%}; wrote {out}")


@main.command("train-dmc")
@click.option("--out", required=True, help="run directory (checkpoint.pt, log.csv); resumes if present")
@click.option("--rules", default="classic", show_default=True, help="a preset name")
@click.option("--scoring", default="count", show_default=True)
@click.option("--seed", default=0, show_default=True)
@click.option("--hours", default=1.0, show_default=True, help="wall time of this invocation")
@click.option("--hidden", default="256,256", show_default=True, help="hidden layer sizes")
@click.option("--lr", default=3e-4, show_default=True)
@click.option("--updates", default=8, show_default=True, help="minibatches per iteration")
@click.option("--replay", default=200_000, show_default=True, help="samples kept for training")
@click.option("--epsilon", default=0.05, show_default=True)
@click.option("--self-play", "self_play", default=96, show_default=True, help="self-play games")
@click.option("--pool", default=32, show_default=True, help="games against earlier snapshots")
@click.option("--bots", default=32, show_default=True, help="games against fixed bots")
@click.option("--eval-every", default=100, show_default=True, help="iterations between evaluations")
@click.option("--eval-deals", default=200, show_default=True)
@click.option("--eval-opponents", default="heuristic-v1,greedy", show_default=True,
              help="bot levels seat 0 is evaluated against")
@click.option("--opponents", default="heuristic,greedy", show_default=True,
              help="fixed bots of the training games against bots")
@click.option("--checkpoint-every", default=50, show_default=True, help="iterations")
@click.option("--ray", "use_ray", is_flag=True, help="run the actors on Ray")
@click.option("--actors", default=2, show_default=True, help="Ray actors")
@click.option("--threads", default=1, show_default=True, help="PyTorch threads")
def train_dmc_cmd(out: str, rules: str, scoring: str, seed: int, hours: float, hidden: str, lr: float,
              updates: int, replay: int, epsilon: float, self_play: int, pool: int, bots: int, eval_every: int,
              eval_deals: int, eval_opponents: str, opponents: str, checkpoint_every: int,
              use_ray: bool, actors: int, threads: int) -> None:
    """Train (or resume) the older Q(state, play) network by Deep Monte-Carlo self-play."""
    cfg = TrainConfig(out=out, rules=rules, scoring=scoring, seed=seed, hours=hours,
                      hidden=tuple(int(h) for h in hidden.split(",")), lr=lr, epsilon=epsilon,
                      updates=updates, replay=replay,
                      self_play=self_play, pool=pool, bots=bots, eval_every=eval_every,
                      eval_deals=eval_deals, eval_opponents=tuple(eval_opponents.split(",")),
                      opponents=tuple(opponents.split(",")),
                      checkpoint_every=checkpoint_every, ray=use_ray,
                      actors=actors, threads=threads)
    train(cfg, log=lambda msg: click.echo(msg, err=True))


@main.command("export")
@click.argument("run")
@click.argument("dest")
def export_cmd(run: str, dest: str) -> None:
    """Write RUN's network to DEST (a float16 .npz the bots load)."""
    net = export(run, dest)
    click.echo(f"{dest}: {Path(dest).stat().st_size / 1e6:.2f} MB, {net.meta}")


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
