"""Expert iteration: the search (``guided-search``) plays itself and the
policy network learns toward its choices; a round is kept only if it beats
the last on duplicate deals (docs/research.md, "Expert iteration").

- :mod:`research.exit.data`: self-play deals, every searched decision recorded;
- :mod:`research.exit.train`: the targets and the learning step;
- :mod:`research.exit.gate`: the duplicate-deal gate;
- :mod:`research.exit.pool`: where the deals run (this process, worker
  processes, Ray);
- :mod:`research.exit.run`: the rounds, checkpointed;
- ``python -m research.exit``: the command (needs the training extra).

It reads the search through its public parts alone: :meth:`SearchBot.decide
<big2.bots.search.bot.SearchBot.decide>` for the play with its tally, and
:class:`research.exit.data.Paired`, an evaluator wrapper, for each
candidate's paired difference from the favourite.
"""
