#!/usr/bin/env bash
# Install the table companion on a Raspberry Pi (Raspberry Pi OS bookworm, arm64) and start it at
# boot on the touchscreen. Run from a checkout (or a copy of hardware/pi with a wheel):
#
#   sudo hardware/pi/install.sh [--wheel FILE.whl] [--user pi] [--dir DIR] [--no-start]
#
# 1. python3-venv from Debian if the venv module is missing;
# 2. a virtual environment in DIR/.venv (default /home/USER/sekigahara-companion), made by USER;
# 3. the dependencies exactly as locked in requirements-lock.txt beside this script (versions and
#    hashes, arm64 wheels only: nothing is compiled on the Pi), then the companion's wheel (built
#    from the checkout when --wheel is not given) without dependencies, then `pip check`;
# 4. the systemd unit sekigahara-companion.service, with USER and DIR filled in, enabled and
#    started (when systemd runs: not in a chroot) unless --no-start.
# Running it again upgrades the companion in place. docs/touchscreen.md, "On a Raspberry Pi".
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
user=pi
dir=""
wheel=""
start=1
build=""
trap '[ -z "$build" ] || rm -rf "$build"' EXIT

while [ $# -gt 0 ]; do
    case $1 in
        --wheel) wheel=$(realpath "$2"); shift 2 ;;
        --user) user=$2; shift 2 ;;
        --dir) dir=$2; shift 2 ;;
        --no-start) start=0; shift ;;
        *) echo "usage: $0 [--wheel FILE.whl] [--user pi] [--dir DIR] [--no-start]" >&2; exit 2 ;;
    esac
done

say() { printf '== %s\n' "$*"; }
die() { printf 'install.sh: %s\n' "$*" >&2; exit 1; }
as_user() { runuser -u "$user" -- "$@"; }

[ "$(id -u)" = 0 ] || die "run it with sudo (it installs a Debian package and a systemd unit)"
id "$user" >/dev/null 2>&1 || die "no user $user: give the one who owns the desktop with --user"
home=$(getent passwd "$user" | cut -d: -f6)
dir=${dir:-$home/sekigahara-companion}
venv=$dir/.venv
lock=$here/requirements-lock.txt

python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
    || die "Python 3.11 or newer is needed (Raspberry Pi OS bookworm has it), this is $(python3 -V)"
if ! python3 -c 'import ensurepip, venv' 2>/dev/null; then
    say "installing python3-venv"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv
fi

if [ -z "$wheel" ]; then
    [ -e "$here/../../pyproject.toml" ] || die "no --wheel and no checkout around $here to build one"
    say "building the wheel from the checkout"
    build=$(mktemp -d)
    chown "$user" "$build"  # built as the user: the checkout gets no files owned by root
    as_user python3 -m venv "$build/venv"
    as_user "$build/venv/bin/pip" wheel --quiet --disable-pip-version-check --no-deps \
        --wheel-dir "$build" "$(cd "$here/../.." && pwd)"
    wheel=$(ls "$build"/sekigahara_companion-*.whl)
fi

# The lock's hashes are PyPI's files: pip's configuration files are left out (Raspberry Pi OS's
# /etc/pip.conf adds piwheels, whose builds of the same versions have other hashes); PIP_*
# variables (a mirror, a certificate) still count.
export PIP_CONFIG_FILE=/dev/null

say "virtual environment in $venv"
install -d -o "$user" -g "$(id -gn "$user")" "$dir"
[ -x "$venv/bin/python" ] || as_user python3 -m venv "$venv"
say "locked dependencies ($lock)"
as_user "$venv/bin/pip" install --quiet --disable-pip-version-check --require-hashes \
    --only-binary=:all: --no-deps -r "$lock"
say "the companion ($(basename "$wheel"))"
as_user "$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps \
    --force-reinstall "$wheel"
as_user "$venv/bin/pip" check --disable-pip-version-check
as_user "$venv/bin/companion" --help >/dev/null

unit=/etc/systemd/system/sekigahara-companion.service
say "systemd unit $unit"
sed -e "s|/home/pi/sekigahara-companion|$dir|g" -e "s|^User=.*|User=$user|" \
    -e "s|^Group=.*|Group=$(id -gn "$user")|" "$here/sekigahara-companion.service" > "$unit"
if [ -d /run/systemd/system ]; then
    systemctl daemon-reload
    if [ "$start" = 1 ]; then
        systemctl enable --now sekigahara-companion
        say "started: journalctl -u sekigahara-companion shows its log"
    else
        systemctl enable sekigahara-companion
    fi
else
    say "systemd is not running here: the unit starts at the next boot after"
    say "  systemctl enable sekigahara-companion"
fi
say "installed: $venv/bin/companion"
