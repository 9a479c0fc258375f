"""docs/env.md's python blocks run as written: each block alone, in a fresh
namespace (a reader copies one block), a ``>>>`` block as a doctest."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

DOC = Path(__file__).parents[2] / "docs" / "env.md"
BLOCKS = re.findall(r"^```python\n(.*?)^```", DOC.read_text(encoding="utf-8"), re.MULTILINE | re.DOTALL)


def test_the_page_has_python_blocks() -> None:
    assert len(BLOCKS) >= 5  # the extraction found them (an empty list would test nothing)


@pytest.mark.parametrize("code", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_block_runs_as_written(code: str, capsys: pytest.CaptureFixture[str]) -> None:
    if code.lstrip().startswith(">>>"):
        parser = doctest.DocTestParser()
        test = parser.get_doctest(code, {}, DOC.name, str(DOC), 0)
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        runner.run(test)
        assert runner.failures == 0 and runner.tries > 0
        return
    namespace: dict[str, object] = {"__name__": "docs_env"}
    exec(compile(code, str(DOC), "exec"), namespace)  # noqa: S102 -- the page's own code
    # a block that says what it prints prints it
    out = capsys.readouterr().out
    for said in re.findall(r"print\(\w+\)\s+# (.+)", code):
        assert said.strip() in out
