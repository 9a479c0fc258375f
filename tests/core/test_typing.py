"""The package type-checks under mypy --strict (the pyproject's [tool.mypy] settings)."""

import subprocess
import sys
from pathlib import Path


def test_mypy_strict_is_clean() -> None:
    root = Path(__file__).resolve().parents[2]
    r = subprocess.run([sys.executable, "-m", "mypy", "src/big2"], cwd=root,
                       capture_output=True, text=True, timeout=600, check=False)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
