#!/bin/sh
# Regenerate hardware/pi/requirements-lock.txt: every runtime dependency of the companion with its
# `ui` and `usb` extras, pinned with hashes, for the Raspberry Pi (Raspberry Pi OS bookworm:
# arm64, Python 3.11). hardware/pi/install.sh installs exactly these with --require-hashes.
#
#   hardware/pi/lock.sh              keep the pins, add or drop what pyproject.toml changed
#   hardware/pi/lock.sh --upgrade    move every pin to the newest release allowed
#
# uv comes with the dev extra (python3 dev.py test installs it); any uv on PATH does too.
# tests/hardware/test_pi_lock.py fails while the lock and pyproject.toml's dependencies differ.
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
uv=${UV:-$repo/.venv/bin/uv}
[ -x "$uv" ] || uv=$(command -v uv) || { echo "uv is missing: pip install uv" >&2; exit 1; }
cd "$repo"
exec "$uv" pip compile pyproject.toml --extra ui --extra usb \
    --python-platform aarch64-unknown-linux-gnu --python-version 3.11 \
    --generate-hashes --custom-compile-command hardware/pi/lock.sh --quiet --output-file hardware/pi/requirements-lock.txt "$@"
