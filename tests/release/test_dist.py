"""The release files (issue 56 item 1): `make dist`'s wheel installs where no compiler can
be used and plays; its sdist builds and installs.

Both build the compiled core (minutes on two busy cores), so they run in the nightly set
(`make test-nightly`), and not in .ci/run's slice of it (marker `release`).
The wheel is built once for the module, by `make dist` itself into a folder of the test's.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["version"]
NO_COMPILER = {"CC": "/nonexistent/cc", "CXX": "/nonexistent/c++"}
"""A compiler that is not there: a build from source would fail at once."""
IN_MAKE_VENV = Path(sys.prefix).resolve() == (ROOT / ".venv").resolve()

pytestmark = [pytest.mark.nightly, pytest.mark.release,
              pytest.mark.skipif(not IN_MAKE_VENV, reason="make dist builds with .venv's tools")]


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(["make", "--no-print-directory", "dist", f"DIST={out / 'dist'}",
                    f"DIST_BUILD={out / 'build'}"], cwd=ROOT, check=True, timeout=3600,
                   capture_output=True)
    return out / "dist"


def venv(where: Path) -> Path:
    subprocess.run([sys.executable, "-m", "venv", str(where)], check=True, timeout=300)
    return where / "bin"


def run(args: list[str], *, env: dict[str, str] | None = None, cwd: Path | None = None,
        stdin: str = "", timeout: float = 600) -> str:
    r = subprocess.run(args, input=stdin, capture_output=True, text=True, timeout=timeout,
                       env={**os.environ, **(env or {})}, cwd=cwd, check=False)
    assert r.returncode == 0, (args, r.stdout[-2000:], r.stderr[-2000:])
    return r.stdout


def plays(bindir: Path, cwd: Path) -> None:
    """`big2 --version`, a game through a pipe and the compiled core imported, from outside
    the checkout (so the installed package runs, not src/)."""
    assert run([str(bindir / "big2"), "--version"], cwd=cwd).split()[-1] == VERSION
    game = run([str(bindir / "big2"), "play", "--seed", "1", "--deals", "1", "--bot", "easy"],
               cwd=cwd, stdin="1\np\n" * 300)
    assert "=== Deal 1 of 1 ===" in game and "went out first." in game and "Why:" in game
    check = ("import big2, big2._native, big2._policy, json;"
             "print(json.dumps([big2.__file__, big2.__version__, big2._native.build_info()]))")
    where, version, info = json.loads(run([str(bindir / "python"), "-c", check], cwd=cwd))
    assert not Path(where).is_relative_to(ROOT) and version == VERSION
    import big2._native as here  # the checkout's own build: the same CPU, the same choice

    assert info["clones"] is True and info["level"] == here.build_info()["level"], info


def test_the_wheel_is_manylinux_2_17_and_installs_without_a_compiler(dist: Path,
                                                                     tmp_path: Path) -> None:
    wheels = sorted(dist.glob("*.whl"))
    assert len(wheels) == 1 and "manylinux_2_17_x86_64" in wheels[0].name, wheels
    names = zipfile.ZipFile(wheels[0]).namelist()
    assert "big2/i18n/catalogue.json" in names and "big2/server/static/i18n.js" in names
    assert any(n.startswith("big2/_native.") for n in names)
    bindir = venv(tmp_path / "venv")
    run([str(bindir / "pip"), "install", "--quiet", "--only-binary=:all:", "--no-build-isolation",
         str(wheels[0])], env=NO_COMPILER)
    plays(bindir, tmp_path)


def test_the_sdist_builds_and_installs(dist: Path, tmp_path: Path) -> None:
    sdists = sorted(dist.glob("*.tar.gz"))
    assert [s.name for s in sdists] == [f"big2-{VERSION}.tar.gz"]
    bindir = venv(tmp_path / "venv")
    run([str(bindir / "pip"), "install", "--quiet", str(sdists[0])], timeout=3000)
    plays(bindir, tmp_path)
