#!/usr/bin/env bash
# Try the Raspberry Pi install for real on this (x86-64) machine: an arm64 Debian bookworm root
# (what Raspberry Pi OS bookworm is built on) run under qemu user-mode emulation, the wheel
# installed by hardware/pi/install.sh with the locked dependencies (arm64 wheels from PyPI), then
# the headless demo played there.
#
#   sudo hardware/pi/try-arm64.sh [--wheel FILE.whl] [--keep]
#
# Without --wheel the checkout is copied to /home/pi/sekigahara-companion there and install.sh
# builds the wheel from it, as on a Pi; --wheel FILE installs that wheel instead. --keep leaves
# the root it installed into ($SEKIGAHARA_ARM64_CACHE/try) to look around in.
# Needs root and Debian's packages: apt-get install debootstrap qemu-user-static binfmt-support
# The base root (debootstrap, both stages) is kept in $SEKIGAHARA_ARM64_CACHE (default
# /var/cache/sekigahara-arm64) so a second try skips it; each try installs into a fresh copy of
# it. Prints "timing: STEP SECONDS" for each step (tests/packaging/test_packaging_pi_emulated.py
# runs it: pytest -m emulated tests/packaging).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cache=${SEKIGAHARA_ARM64_CACHE:-/var/cache/sekigahara-arm64}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
base=$cache/bookworm-arm64
root=$cache/try
wheel=""
keep=0

while [ $# -gt 0 ]; do
    case $1 in
        --wheel) wheel=$(realpath "$2"); shift 2 ;;
        --keep) keep=1; shift ;;
        *) echo "usage: $0 [--wheel FILE.whl] [--keep]" >&2; exit 2 ;;
    esac
done

say() { printf '== %s\n' "$*"; }
timing() { printf 'timing: %s %d\n' "$1" $(( $(date +%s) - $2 )); }

[ "$(id -u)" = 0 ] || { echo "run as root (debootstrap and chroot need it)" >&2; exit 1; }
for tool in debootstrap chroot update-binfmts; do
    command -v "$tool" >/dev/null || {
        echo "$tool is missing: apt-get install debootstrap qemu-user-static binfmt-support" >&2
        exit 1
    }
done

# arm64 programs run through the kernel's binfmt_misc handing them to qemu-aarch64. A container
# may start without binfmt_misc mounted; mounting it and enabling Debian's qemu entry is enough.
no_binfmt() {
    echo "arm64 programs cannot run here: $1 (a container needs the privilege to mount" \
        "binfmt_misc, or its host must register qemu-aarch64 with the F flag)" >&2
    exit 1
}
if [ ! -e /proc/sys/fs/binfmt_misc/status ]; then
    mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc \
        || no_binfmt "binfmt_misc is not mounted and cannot be"
fi
if [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
    update-binfmts --enable qemu-aarch64 || no_binfmt "update-binfmts --enable qemu-aarch64 failed"
fi

mounted=()
cleanup() {
    for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -R -l "${mounted[i]}" || true; done
    if [ "$keep" = 0 ] && [ -d "$root" ]; then rm -rf "$root"; fi
}
trap cleanup EXIT

# 1. The base root: Debian's minimal system with python3, as Raspberry Pi OS Lite has it.
if [ ! -e "$base/.complete" ]; then
    say "debootstrap bookworm arm64 into $base (minutes: the second stage runs emulated)"
    start=$(date +%s)
    rm -rf "$base"
    mkdir -p "$cache"
    debootstrap --arch=arm64 --foreign --variant=minbase --include=python3,ca-certificates \
        bookworm "$base" "$mirror"
    # Kernels without binfmt's F flag look for the interpreter inside the root.
    cp /usr/bin/qemu-aarch64-static "$base/usr/bin/"
    chroot "$base" /debootstrap/debootstrap --second-stage
    echo "deb $mirror bookworm main" > "$base/etc/apt/sources.list"
    chroot "$base" useradd --create-home --shell /bin/bash pi
    touch "$base/.complete"
    timing debootstrap "$start"
else
    say "base root cached in $base"
fi
[ "$(chroot "$base" uname -m)" = aarch64 ] || { echo "the root does not run as arm64" >&2; exit 1; }

# 2. A fresh copy of the base root; /proc and /dev for pip and SDL, the host's resolver for apt
# and PyPI.
rm -rf "$root"
cp -a "$base" "$root"
mount -t proc proc "$root/proc"
mounted+=("$root/proc")
for fs in dev sys; do  # with /dev/pts, /dev/shm
    mount --rbind "/$fs" "$root/$fs"
    mount --make-rslave "$root/$fs"
    mounted+=("$root/$fs")
done
cp /etc/resolv.conf "$root/etc/resolv.conf"
# This machine's trusted certificates for pip there: a TLS proxy trusted here (a company network,
# a sandbox) is trusted there too.
cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/host-ca-certificates.crt"
inside_env=(PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 HOME=/root
            PIP_CERT=/etc/ssl/certs/host-ca-certificates.crt)

# 3. What the Pi would have, then install.sh as docs/touchscreen.md says: by default the
# checkout (its files as they are here, tracked or new) in /home/pi/sekigahara-companion, the
# wheel built there; with --wheel, hardware/pi and that wheel.
if [ -z "$wheel" ]; then
    checkout=/home/pi/sekigahara-companion
    mkdir -p "$root$checkout"
    git -C "$repo" ls-files -z --cached --others --exclude-standard \
        | tar -C "$repo" --null --ignore-failed-read -T - -cf - 2>/dev/null \
        | tar -C "$root$checkout" -xf -
    chroot "$root" chown -R pi:pi "$checkout"
    install=("$checkout/hardware/pi/install.sh")
else
    mkdir -p "$root/tmp/companion"
    cp -r "$here" "$root/tmp/companion/pi"
    cp "$wheel" "$root/tmp/companion/"
    install=(/tmp/companion/pi/install.sh --wheel "/tmp/companion/$(basename "$wheel")")
fi
say "${install[*]} in the arm64 root"
start=$(date +%s)
chroot "$root" /usr/bin/env -i "${inside_env[@]}" /bin/bash "${install[@]}" --user pi
timing install "$start"

say "the headless demo in the arm64 root"
start=$(date +%s)
chroot "$root" /usr/sbin/runuser -u pi -- /usr/bin/env -i "${inside_env[@]}" HOME=/home/pi \
    SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy PYGAME_HIDE_SUPPORT_PROMPT=1 \
    /home/pi/sekigahara-companion/.venv/bin/companion run --headless --demo --weeks 1 --seed 3 \
    --size 800x480 --db /tmp/demo.sqlite
timing demo "$start"
say "machine: $(chroot "$root" uname -m), $(chroot "$root" python3 --version)"
