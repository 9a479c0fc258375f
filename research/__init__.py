"""Research tools kept beside the package, not shipped in it.

They build on ``big2``'s public parts and are tested with the suite
(tests/research), but no level plays what they make and nothing in
``big2`` imports them. docs/research.md records what they found.
"""
