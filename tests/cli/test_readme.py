"""README's library examples run as written."""

import doctest
from pathlib import Path


def test_readme_examples() -> None:
    readme = Path(__file__).resolve().parents[2] / "README.md"
    result = doctest.testfile(str(readme), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 5 and result.failed == 0
