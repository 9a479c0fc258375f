"""The command-line front ends above the wings: ``big2 arena``, ``big2 svg``,
``big2 replay`` and the checks every command makes on its arguments.

They import the wings they drive (the arena, records, review, SVG); no wing
imports them, so the dependency points one way (docs/architecture.md). The
``big2`` group itself (:mod:`big2.cli`) imports each command only when used.
"""
