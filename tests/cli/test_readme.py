"""README's library examples run as written, and print what the README shows."""

import doctest
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def test_readme_examples() -> None:
    result = doctest.testfile(str(README), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 5 and result.failed == 0


def test_no_readme_example_is_skipped() -> None:
    """A skipped line would run when pasted into a REPL and change what the
    lines after it print (issue #17: a skipped play made 51 print as 50)."""
    assert "+SKIP" not in README.read_text(encoding="utf-8")
