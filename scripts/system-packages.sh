#!/usr/bin/env sh
# Installs the Debian packages a make target needs and the machine lacks, or says how.
#
#   sh scripts/system-packages.sh play    what `make play` needs: python3-venv, g++
#   sh scripts/system-packages.sh test    what `make test` needs besides: chromium-headless-shell,
#                                         fonts-liberation, fonts-noto-cjk, postgresql, nginx,
#                                         tmux
#
# As root (or with sudo that asks no password) it installs what is missing with
# apt-get, after one line saying what and why; otherwise it installs nothing, prints
# one line with the exact command to run, and exits 1 before any test runs.
# Nothing is done on a machine that has everything (or that is not Debian-like, where
# it only says what it could not check).
set -eu

want=${1:-play}
missing=""
why=""

need() {  # need PACKAGE WHY  (when the caller found it missing)
    missing="$missing $1"
    why="$why; $1: $2"
}

# the game: a virtual environment and a C++ compiler for the compiled core
python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || need python3-venv "creates .venv"
command -v c++ >/dev/null 2>&1 || command -v g++ >/dev/null 2>&1 \
    || need g++ "builds the compiled core (big2._native, C++17)"

if [ "$want" = test ]; then
    command -v chromium-headless-shell >/dev/null 2>&1 \
        || need chromium-headless-shell "renders the svg tests' PNGs and runs the browser tests"
    if command -v dpkg >/dev/null 2>&1; then
        dpkg -s fonts-liberation >/dev/null 2>&1 \
            || need fonts-liberation "the fonts the cards and pages are drawn with"
        dpkg -s fonts-noto-cjk >/dev/null 2>&1 \
            || need fonts-noto-cjk "draws the Chinese labels the browser tests check"
    fi
    ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1 \
        || need postgresql "the server tests run against a real PostgreSQL"
    # not in a user's PATH (/usr/sbin) on Debian: dpkg says whether it is installed
    if command -v dpkg >/dev/null 2>&1; then
        dpkg -s nginx >/dev/null 2>&1 \
            || need nginx "the server is tested behind nginx with docs/deploy.md's configuration"
    fi
    command -v tmux >/dev/null 2>&1 \
        || need tmux "runs big2 play and big2 puzzle in a real terminal in each language's tests"
fi

[ -z "$missing" ] && exit 0
why=${why#; }
if ! command -v apt-get >/dev/null 2>&1; then
    echo "make: this machine lacks$missing ($why); install them with its package manager" >&2
    exit 1
fi
if [ "$(id -u)" = 0 ]; then
    sudo=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true >/dev/null 2>&1; then
    sudo="sudo"
else
    echo "make: missing Debian packages ($why); run: sudo apt-get install -y$missing" >&2
    exit 1
fi
echo "make: installing$missing with apt-get ($why)"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq$missing >/dev/null
