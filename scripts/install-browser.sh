#!/usr/bin/env bash
# Install the browser the end-to-end tests drive: Debian's chromium (and chromium-driver),
# plus fonts with chess and draughts symbols, and the other test peers: GNU Go (gnugo, the
# Go proof in tests/test_go.py drives it over GTP) and GNU Chess (gnuchess, the opponent of
# scripts/gnuchess_match.py, over UCI).  Does nothing when they are already there.
# Needs root (or sudo) and apt-get; the Python side (playwright) is a pip test dependency.
set -euo pipefail

packages=()
command -v chromium >/dev/null 2>&1 || packages+=(chromium)
command -v chromedriver >/dev/null 2>&1 || packages+=(chromium-driver)
[ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || packages+=(fonts-dejavu-core)
{ command -v gnugo || [ -x /usr/games/gnugo ]; } >/dev/null 2>&1 || packages+=(gnugo)  # Debian: /usr/games
{ command -v gnuchess || [ -x /usr/games/gnuchess ]; } >/dev/null 2>&1 || packages+=(gnuchess)

if [ ${#packages[@]} -eq 0 ]; then
    echo "install-browser: chromium, chromium-driver, fonts, gnugo and gnuchess already installed"
    exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-browser: apt-get not found; install ${packages[*]} by hand" >&2
    exit 1
fi

as_root=()
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        as_root=(sudo)
    else
        echo "install-browser: need root or sudo to install ${packages[*]}" >&2
        exit 1
    fi
fi

echo "install-browser: installing ${packages[*]}"
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" apt-get install -y -qq --no-install-recommends "${packages[@]}"
chromium --version 2>/dev/null || true
