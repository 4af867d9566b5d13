#!/bin/bash
# The box in a virtual machine: a real Debian 13 (Trixie, what Raspberry Pi OS
# Trixie is without the Pi's kernel and firmware) that installs Showclock with
# the project's own install.sh, as the README tells a user, and boots it with
# real systemd, apt, users, kernel and page cache. Everything but the GPIO pins.
# Beside its disk it has a second, empty one (/dev/vdb: the data place of a
# read-only box), a hardware watchdog (i6300esb, which resets the machine), and a
# sound card (HDA) whose output QEMU records to audio.wav in the state directory.
#
#   scripts/box-vm.sh build        a fresh box: the cached base image, then `npm run package`
#                                  and install.sh inside the machine; ends with the machine down
#   scripts/box-vm.sh build --no-install
#                                  the same up to the release unpacked in /root; the machine
#                                  is left running (to run install.sh by hand, or cut it short)
#   scripts/box-vm.sh up           boots it headless (virtual HDMI, QMP), waits until the service
#                                  answers, prints SHOWCLOCK_URL=... and the three keys, leaves it
#                                  running; exit 3 when install.sh never finished in it
#   scripts/box-vm.sh shot F.png [X Y W H]  what the virtual HDMI output shows now (a part of it, enlarged)
#   scripts/box-vm.sh run CMD...   runs CMD as root inside the machine (its output and exit status)
#   scripts/box-vm.sh cut          pulls the power: the emulator killed, nothing synced
#   scripts/box-vm.sh down         an orderly poweroff
#
# The disk outlives cut and down, so the next `up` boots the same box; `build`
# starts afresh. The base image (Debian and the packages install.sh wants) is
# cached in SHOWCLOCK_BOX_CACHE (default /var/cache/showclock-box), keyed by
# what goes into it, so only the first build on a machine downloads and
# assembles it. The machine's state (disk, ports, pid) is in SHOWCLOCK_BOX_DIR
# (default .box/ in the checkout); SHOWCLOCK_BOX_RELEASE names a release tarball
# to install instead of packing one. The emulator runs with TCG (no KVM needed);
# SHOWCLOCK_BOX_ACCEL=kvm uses KVM where it works.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
STATE=${SHOWCLOCK_BOX_DIR:-$ROOT/.box}
CACHE=${SHOWCLOCK_BOX_CACHE:-/var/cache/showclock-box}
ACCEL=${SHOWCLOCK_BOX_ACCEL:-tcg}
MEMORY_MB=${SHOWCLOCK_BOX_MEMORY_MB:-2048}
# What the base image holds: a booting Debian with ssh (the `run` channel), and
# what install.sh installs itself when missing (so a build needs no download once cached).
# overlayroot (install.sh --read-only) comes in a step of its own, after the kernel: its
# initramfs hook copies cryptsetup, which apt may not have unpacked yet when the kernel's own
# postinst builds the initramfs in the same transaction. Its boot script runs with busybox's
# grep: without busybox in the initramfs the overlay silently never comes up.
PACKAGES=systemd-sysv,udev,dbus,systemd-resolved,linux-image-amd64,initramfs-tools,openssh-server,ca-certificates,iproute2,procps,nodejs,npm,g++,make,python3,cage,chromium,fonts-dejavu-core,e2fsprogs,busybox,systemd-timesyncd,polkitd,cryptsetup-bin,v4l-utils,alsa-utils
# Bumped when the way the base image is made changes, so an old cache is not used.
BASE_RECIPE=2

say() { printf 'box: %s\n' "$*" >&2; }
die() {
  printf 'box: %s\n' "$*" >&2
  exit 1
}

# die, with the end of what the machine's console said (its whole text stays in the file).
die_with_console() {
  printf 'box: %s; the end of its console (%s):\n' "$1" "$STATE/console.log" >&2
  tail -n 40 "$STATE/console.log" 2>/dev/null | tr -d '\r' | sed 's/^/  | /' >&2
  exit 1
}

ssh_opts=(-q -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o ConnectTimeout=5)

base_name() {
  printf '%s' "$BASE_RECIPE $PACKAGES $(cat /usr/local/share/ca-certificates/*.crt 2>/dev/null | sha256sum)" | sha256sum | cut -c1-16
}

# The base image: Debian 13 made with mmdebstrap from Debian's packages, a root
# file system on one ext4 disk (no partition table: root=/dev/vda), its kernel
# and initrd beside it, and the ssh key that `run` uses.
make_base() {
  local name dir tree
  name=$(base_name)
  dir=$CACHE/$name
  if [ -f "$dir/base.qcow2" ]; then
    say "base image $name from the cache"
    echo "$dir"
    return
  fi
  command -v mmdebstrap >/dev/null || die "mmdebstrap is missing: apt-get install mmdebstrap"
  say "making the base image $name (Debian 13 with mmdebstrap; a few minutes, once)"
  mkdir -p "$CACHE"
  tree=$(mktemp -d "$CACHE/tree.XXXXXX")
  local building=$dir.building
  rm -rf "$building"
  mkdir -p "$building"
  ssh-keygen -q -t ed25519 -N '' -C showclock-box -f "$building/key"
  # The hooks run in mmdebstrap's own shell, where $1 is the new root: single quotes on purpose.
  # shellcheck disable=SC2016
  mmdebstrap --variant=apt --include="$PACKAGES" \
    --customize-hook='echo showclock > "$1/etc/hostname"' \
    --customize-hook='printf "/dev/vda / ext4 rw,errors=remount-ro 0 1\n" > "$1/etc/fstab"' \
    --customize-hook='mkdir -p "$1/etc/systemd/network" && printf "[Match]\nName=en*\n[Network]\nDHCP=yes\n" > "$1/etc/systemd/network/50-dhcp.network"' \
    --customize-hook='chroot "$1" systemctl enable systemd-networkd systemd-resolved ssh serial-getty@ttyS0.service' \
    --customize-hook='chroot "$1" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends overlayroot' \
    trixie "$tree" >"$building/mmdebstrap.log" 2>&1 || {
    tail -20 "$building/mmdebstrap.log" >&2
    die "mmdebstrap failed (log: $building/mmdebstrap.log)"
  }
  install -d -m 700 "$tree/root/.ssh"
  install -m 600 "$building/key.pub" "$tree/root/.ssh/authorized_keys"
  # The machine trusts what this one trusts, so it reaches the same package registries
  # (a TLS-inspecting proxy's CA, where there is one) for install.sh's apt and npm.
  if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
    cp /usr/local/share/ca-certificates/*.crt "$tree/usr/local/share/ca-certificates/"
    chroot "$tree" update-ca-certificates >/dev/null 2>&1
    printf 'cafile=/etc/ssl/certs/ca-certificates.crt\n' >"$tree/etc/npmrc"
  fi
  cp "$tree"/boot/vmlinuz-* "$building/vmlinuz"
  cp "$tree"/boot/initrd.img-* "$building/initrd"
  truncate -s 8G "$building/base.raw"
  mke2fs -q -t ext4 -L showclock -d "$tree" "$building/base.raw"
  qemu-img convert -O qcow2 "$building/base.raw" "$building/base.qcow2"
  rm -f "$building/base.raw"
  rm -rf "$tree"
  mv "$building" "$dir"
  echo "$dir"
}

# As Raspberry Pi OS's cmdline.txt has it: the root file system mounted read-only first and
# checked, errors a power cut left repaired without asking (fsck.repair=yes), then remounted
# read-write by systemd from fstab. panic=5 is the emulator's, not the Pi's: under TCG with
# two virtual CPUs the kernel at times takes an int3 Oops while it patches its own code
# (seen here in about one boot in 30, at 1-2 s, "Oops: int3" in sched_clock_cpu: code
# changed by one emulated CPU and run stale by the other), and a machine that sat panicked
# would fail whatever test booted it; with panic=5 it starts again by itself. The test counts
# these restarts in the consoles (console.log, console-earlier.log).
KERNEL_CMDLINE="root=/dev/vda rootfstype=ext4 fsck.repair=yes rootwait console=ttyS0 quiet panic=5"

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

load_state() {
  [ -f "$STATE/machine.env" ] || die "no box: run scripts/box-vm.sh build first"
  # shellcheck disable=SC1091 # written by build
  . "$STATE/machine.env"
}

running() {
  [ -f "$STATE/qemu.pid" ] && kill -0 "$(cat "$STATE/qemu.pid")" 2>/dev/null
}

in_box() {
  # BASE comes from machine.env (load_state), SSH_PORT from ports.env (boot).
  # shellcheck disable=SC2153
  ssh "${ssh_opts[@]}" -i "$BASE/key" -p "$SSH_PORT" root@127.0.0.1 "$@"
}

wait_for() {
  local what=$1 seconds=$2
  shift 2
  local start=$SECONDS
  until "$@" >/dev/null 2>&1; do
    if ((SECONDS - start > seconds)); then return 1; fi
    running || die "the machine stopped while waiting for $what (console: $STATE/console.log)"
    sleep 1
  done
  say "$what after $((SECONDS - start)) s"
}

healthy() {
  [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 3 "http://127.0.0.1:$HTTP_PORT/healthz")" = 200 ]
}

boot() {
  load_state
  if running; then
    say "already running"
    # shellcheck disable=SC1091
    . "$STATE/ports.env"
    wait_for "ssh" 300 in_box true || die_with_console "the machine did not answer on ssh within 300 s"
    return
  fi
  SSH_PORT=$(free_port)
  HTTP_PORT=$(free_port)
  printf 'SSH_PORT=%s\nHTTP_PORT=%s\n' "$SSH_PORT" "$HTTP_PORT" >"$STATE/ports.env"
  rm -f "$STATE/qmp.sock"
  # The serial console of every boot is kept (earlier boots in console-earlier.log): when a
  # boot after a cut goes wrong, what the machine said is what tells why.
  if [ -f "$STATE/console.log" ]; then
    {
      printf '\n===== boot before %s =====\n' "$(date -u +%FT%TZ)"
      cat "$STATE/console.log"
    } >>"$STATE/console-earlier.log"
    rm -f "$STATE/console.log"
  fi
  local cpu=(-accel tcg -cpu max)
  if [ "$ACCEL" = kvm ]; then cpu=(-accel kvm -cpu host); fi
  qemu-system-x86_64 "${cpu[@]}" -m "$MEMORY_MB" -smp 2 \
    -kernel "$BASE/vmlinuz" -initrd "$BASE/initrd" -append "$KERNEL_CMDLINE" \
    -drive "file=$STATE/disk.qcow2,if=virtio,format=qcow2,cache=writeback" \
    -drive "file=$STATE/data.qcow2,if=virtio,format=qcow2,cache=writeback" \
    -device virtio-vga -display none \
    -device i6300esb -action watchdog=reset \
    -audiodev "wav,id=hdmi,path=$STATE/audio.wav" -device intel-hda -device hda-output,audiodev=hdmi \
    -qmp "unix:$STATE/qmp.sock,server,nowait" \
    -netdev "user,id=n0,hostfwd=tcp:127.0.0.1:$SSH_PORT-:22,hostfwd=tcp:127.0.0.1:$HTTP_PORT-:8080" \
    -device virtio-net-pci,netdev=n0 \
    -serial "file:$STATE/console.log" \
    -daemonize -pidfile "$STATE/qemu.pid"
  wait_for "ssh" 300 in_box true || die_with_console "the machine did not answer on ssh within 300 s"
}

cmd_build() {
  local install=yes
  case "${1:-}" in
    "") ;;
    --no-install) install=no ;;
    *) die "usage: scripts/box-vm.sh build [--no-install]" ;;
  esac
  local base
  base=$(make_base)
  if running; then
    load_state
    cmd_cut
  fi
  rm -rf "$STATE"
  mkdir -p "$STATE/release"
  printf 'BASE=%s\n' "$base" >"$STATE/machine.env"
  qemu-img create -q -f qcow2 -F qcow2 -b "$base/base.qcow2" "$STATE/disk.qcow2"
  # A second, empty disk (/dev/vdb): the writable data place of a read-only box
  # (install.sh --read-only /dev/vdb), as a second partition or a USB stick is on a Pi.
  qemu-img create -q -f qcow2 "$STATE/data.qcow2" 256M
  if [ -n "${SHOWCLOCK_BOX_RELEASE:-}" ]; then
    cp "$SHOWCLOCK_BOX_RELEASE" "$STATE/release/"
  else
    say "packing the release (npm run package)"
    (cd "$ROOT" && node scripts/package.mjs --out "$STATE/release" >"$STATE/package.log" 2>&1) || die "npm run package failed (log: $STATE/package.log)"
  fi
  boot
  # shellcheck disable=SC1091
  . "$STATE/ports.env"
  local tarball name
  tarball=$(ls "$STATE"/release/showclock-*.tar.gz)
  name=$(basename "$tarball" .tar.gz)
  scp "${ssh_opts[@]}" -i "$BASE/key" -P "$SSH_PORT" "$tarball" root@127.0.0.1:/root/
  in_box "cd /root && tar xzf $name.tar.gz && sync"
  if [ "$install" = no ]; then
    say "the release is unpacked in /root/$name, install.sh not run; the machine is running"
    return
  fi
  say "running install.sh inside the machine, as the README says"
  local started=$SECONDS
  in_box "cd /root/$name && ./install.sh" | tee "$STATE/install.log" >&2
  printf '%s\n' "$((SECONDS - started))" >"$STATE/install-seconds"
  say "install.sh took $((SECONDS - started)) s"
  cmd_down
}

cmd_up() {
  boot
  # shellcheck disable=SC1091
  . "$STATE/ports.env"
  local enabled=0
  in_box systemctl is-enabled --quiet showclock.service || enabled=$?
  if [ "$enabled" -eq 255 ]; then die_with_console "ssh to the machine failed"; fi
  if [ "$enabled" -ne 0 ]; then
    say "showclock is not installed in this machine (install.sh did not finish): scripts/box-vm.sh run 'cd /root/showclock-*/ && ./install.sh'"
    exit 3
  fi
  wait_for "the service (/healthz)" 300 healthy || die_with_console "the service did not answer within 300 s"
  local keys
  keys=$(in_box cat /var/lib/showclock/keys.json)
  printf 'SHOWCLOCK_URL=http://127.0.0.1:%s\n' "$HTTP_PORT"
  printf '%s' "$keys" | python3 -c 'import json,sys; k=json.load(sys.stdin); print("SHOWCLOCK_API_KEY=%s\nSHOWCLOCK_VIEWER_KEY=%s\nSHOWCLOCK_AUDIENCE_KEY=%s" % (k["apiKey"], k["viewerKey"], k["audienceKey"]))'
}

cmd_run() {
  load_state
  running || die "the machine is not running: scripts/box-vm.sh up"
  # shellcheck disable=SC1091
  . "$STATE/ports.env"
  in_box "$@"
}

cmd_shot() {
  [ "$#" -eq 1 ] || [ "$#" -eq 5 ] || die "usage: scripts/box-vm.sh shot FILE.png [X Y W H]"
  load_state
  running || die "the machine is not running: scripts/box-vm.sh up"
  python3 "$ROOT/scripts/box-screen.py" "$STATE/qmp.sock" "$@"
}

cmd_cut() {
  load_state
  if running; then
    local pid
    pid=$(cat "$STATE/qemu.pid")
    kill -KILL "$pid"
    while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
    say "power cut"
  fi
  rm -f "$STATE/qemu.pid"
}

cmd_down() {
  load_state
  running || return 0
  # shellcheck disable=SC1091
  . "$STATE/ports.env"
  in_box 'systemctl poweroff' || true
  local pid start=$SECONDS
  pid=$(cat "$STATE/qemu.pid")
  while kill -0 "$pid" 2>/dev/null; do
    if ((SECONDS - start > 120)); then
      say "no poweroff within 120 s: cutting the power"
      cmd_cut
      return
    fi
    sleep 0.5
  done
  rm -f "$STATE/qemu.pid"
  say "powered off"
}

case "${1:-}" in
  build)
    shift
    cmd_build "$@"
    ;;
  up) cmd_up ;;
  run)
    shift
    cmd_run "$@"
    ;;
  shot)
    shift
    cmd_shot "$@"
    ;;
  cut) cmd_cut ;;
  down) cmd_down ;;
  *)
    # The header comment.
    sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d' | sed 's/^# \{0,1\}//' >&2
    exit 64
    ;;
esac
