"""The host side of the bot protocol: :class:`ExternalBot`, a :class:`~big2.bots.Bot`
played by an external program over JSON lines (see :mod:`big2.protocol` and
docs/protocol.md; the wire format is :mod:`big2.protocol_wire`), so the arena can seat it (``--seats 'cmd:python mybot.py',...``)."""

from __future__ import annotations

import contextlib
import json
import queue
import shlex
import subprocess
import threading
from collections.abc import Sequence
from typing import Any

from big2.bots import Bot
from big2.cards import Mask, match_copies
from big2.protocol_wire import ProtocolError, format_play, parse_play
from big2.variant import variant
from big2.view import Action, PlayerView


class ExternalBotError(RuntimeError):
    """The external program failed: it exited, timed out or broke the protocol."""


class ExternalBot(Bot):
    """A bot played by an external program over the protocol.

    Args:
        command: the program's command line (split like a shell would).
        seed: unused by the host; kept for the bot interface.
        timeout: seconds to wait for each reply before giving up.

    After a failure (a timeout, an exit, an error reply to ``go``) the program
    is stopped and every later :meth:`choose` raises :class:`ExternalBotError`
    at once, so a broken bot cannot hang its host.
    """

    name = "cmd"

    def __init__(self, command: str | Sequence[str], seed: int | None = None,
                 timeout: float = 10.0, **options: Any) -> None:
        super().__init__(seed=seed, **options)
        self.command = shlex.split(command) if isinstance(command, str) else list(command)
        self.timeout = timeout
        self._proc: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._sent: list[Action] = []
        self._deal_key: tuple[Any, ...] | None = None
        self._failed: str | None = None
        self.transcript: list[tuple[str, str]] = []
        """Every line exchanged: ``("host", line)`` or ``("bot", line)``."""

    def _start(self) -> None:
        try:
            proc = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL, text=True, bufsize=1)
        except OSError as exc:
            self._fail(f"cannot start {self.command!r}: {exc}")
        self._proc = proc
        out = proc.stdout
        assert out is not None

        def pump() -> None:
            for line in out:
                self._lines.put(line)
            self._lines.put(None)

        threading.Thread(target=pump, daemon=True).start()
        reply = self.send({"type": "hello"})
        if reply.get("type") != "ready":
            self._fail(f"expected 'ready' after hello, got {reply}")

    def _fail(self, why: str) -> None:
        self._failed = why
        self.close()
        raise ExternalBotError(why)

    def send(self, msg: dict[str, Any]) -> dict[str, Any]:
        """Send one message and return the reply (raises on timeout or exit)."""
        if self._failed:
            raise ExternalBotError(self._failed)
        if self._proc is None:
            self._start()
        proc = self._proc
        assert proc is not None and proc.stdin is not None
        line = json.dumps(msg)
        self.transcript.append(("host", line))
        try:
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
        except (BrokenPipeError, OSError):
            self._fail("the bot program exited")
        while True:
            try:
                got = self._lines.get(timeout=self.timeout)
            except queue.Empty:
                self._fail(f"no reply within {self.timeout} s to {msg.get('type')!r}")
            if got is None:
                self._fail("the bot program exited")
            assert got is not None
            if got.strip():
                break
        self.transcript.append(("bot", got.rstrip("\n")))
        try:
            reply = json.loads(got)
        except json.JSONDecodeError:
            self._fail(f"reply is not JSON: {got.strip()[:80]!r}")
        if not isinstance(reply, dict):
            self._fail(f"reply is not an object: {got.strip()[:80]!r}")
        return reply  # type: ignore[no-any-return]

    def _sync(self, view: PlayerView) -> None:
        """Send a new deal if *view* is of another deal, then the actions
        the program has not seen yet."""
        history = list(view.history)
        played_by = [0] * view.num_players
        for a in history:
            played_by[a.seat] |= a.cards
        dealt_hand = int(view.hand) | played_by[view.seat]
        counts = [c + played_by[s].bit_count() for s, c in enumerate(view.card_counts)]
        key = (view.rules, view.seat, dealt_hand, tuple(counts))
        if key != self._deal_key or history[:len(self._sent)] != self._sent:
            first = history[0].seat if history else view.to_move
            msg = {"type": "new_deal", "rules": view.rules.to_dict(), "seat": view.seat,
                   "hand": format_play(dealt_hand), "counts": counts, "first": first,
                   "must_contain": format_play(int(view.must_contain)) if not history and
                   view.must_contain else ""}
            self._expect_ok(self.send(msg))
            self._deal_key = key
            self._sent = []
        for a in history[len(self._sent):]:
            self._expect_ok(self.send({"type": "action", "seat": a.seat,
                                       "cards": format_play(a.cards)}))
            self._sent.append(a)

    def _expect_ok(self, reply: dict[str, Any]) -> None:
        if reply.get("type") != "ok":
            self._fail(f"expected 'ok', got {reply}")

    def choose(self, view: PlayerView) -> Mask:
        """Send what happened since the last call, then ask for a play."""
        self._sync(view)
        reply = self.send({"type": "go"})
        if reply.get("type") != "play":
            self._fail(f"expected 'play', got {reply}")
        try:
            cards = parse_play(reply.get("cards"), variant(view.rules).deck.decks)
            return match_copies(cards, int(view.hand)) or cards
        except ProtocolError as exc:
            self._fail(f"bad cards in reply: {exc}")
        raise AssertionError("unreachable")

    def end_deal(self, view: PlayerView) -> None:
        """Tell the program how the deal ended (its last actions and scores)."""
        if self._failed or self._proc is None:
            return
        try:
            self._sync(view)
            self._expect_ok(self.send({"type": "end", "scores": list(view.scores or ())}))
            self._deal_key = None
            self._sent = []
        except ExternalBotError:
            pass

    def close(self) -> None:
        """Say ``quit`` and stop the program (killed if it does not exit)."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        try:
            if proc.poll() is None and proc.stdin is not None:
                proc.stdin.write(json.dumps({"type": "quit"}) + "\n")
                proc.stdin.flush()
                proc.stdin.close()
            proc.wait(timeout=min(2.0, self.timeout))
        except (OSError, subprocess.TimeoutExpired, ValueError):
            proc.kill()
            proc.wait()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.close()

__all__ = ["ExternalBot", "ExternalBotError"]
