#!/bin/bash
# Installs Showclock on Raspberry Pi OS Trixie (Debian 13), from an unpacked
# release (`npm run package` makes it). Run as root from the release directory:
#
#   sudo ./install.sh               install or update, enable and start
#   sudo ./install.sh --no-kiosk    the same, without the HDMI kiosk (no cage, no Chromium)
#   sudo ./install.sh --uninstall   remove it; keeps /var/lib/showclock (room, keys) and /etc/showclock
#   sudo ./install.sh --uninstall --purge   remove those too
#   sudo ./install.sh --read-only DEVICE    the system read-only from the next boot; the room, keys
#                                           and config on DEVICE (a second partition, a USB stick)
#   sudo ./install.sh --read-write          writable again from the next boot (the data stays on DEVICE)
#
# Running it again changes nothing that is already right: files are only
# written when their content differs, users and packages only added when
# missing, and the service restarted only when something it runs changed.
# SHOWCLOCK_ROOT installs under another directory (the tests use it with
# stand-ins for apt-get, systemctl and friends on PATH); SHOWCLOCK_NODE names
# another node than Debian's /usr/bin/node.
set -euo pipefail

ROOT=${SHOWCLOCK_ROOT:-}
RELEASE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

APP_DIR=/opt/showclock
ETC_DIR=/etc/showclock
DATA_DIR=/var/lib/showclock
# The launcher's code cache (systemd CacheDirectory=): derived from the program, removed with it.
CACHE_DIR=/var/cache/showclock
UNIT_DIR=/etc/systemd/system
SERVICE=showclock.service
KIOSK=showclock-kiosk.service
USER_NAME=showclock
KIOSK_USER=showclock-kiosk
# The polkit rule that lets the service set the clock (README, "Clock").
CLOCK_RULE=/etc/polkit-1/rules.d/50-showclock-clock.rules
# systemd's hardware watchdog settings (README, "Watchdog").
WATCHDOG_CONF=/etc/systemd/system.conf.d/showclock-watchdog.conf
NODE=${SHOWCLOCK_NODE:-/usr/bin/node}
# The read-only system (README, "Read-only system"): Debian's overlayroot (what Raspberry Pi
# OS's own "Overlay File System" is) puts a RAM overlay over the root file system at boot when
# its config says so; the room, keys and config live on a data place of their own, mounted at
# DATA_MOUNT and bound onto DATA_DIR and ETC_DIR, so the service finds them where it always does.
DATA_MOUNT=/srv/showclock
DATA_LABEL=showclock-data
OVERLAY_CONF=/etc/overlayroot.local.conf
# Where overlayroot mounts the real root file system (read-only) under the overlay.
LOWER=/media/root-ro
READ_ONLY_DROPIN=$UNIT_DIR/$SERVICE.d/read-only.conf
JOURNAL_DROPIN=/etc/systemd/journald.conf.d/showclock-read-only.conf
REMOUNT_DROPIN=/etc/systemd/system/systemd-remount-fs.service.d/showclock-read-only.conf

mode=install
kiosk=yes
purge=no
data_device=

say() { printf 'showclock: %s\n' "$*"; }
die() {
  printf 'showclock: %s\n' "$*" >&2
  exit 1
}

usage() {
  sed -n '2,11p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

set_mode() {
  if [ "$mode" != install ]; then die "--$mode and --$1 do not go together: one at a time"; fi
  mode=$1
}

while [ "$#" -gt 0 ]; do
  case "$1" in
    --uninstall) set_mode uninstall ;;
    --read-only)
      set_mode read-only
      if [ "$#" -lt 2 ] || [ "${2#-}" != "$2" ]; then die "--read-only needs the device for the room, keys and config, e.g. sudo $0 --read-only /dev/sda1 (lsblk -o NAME,SIZE,FSTYPE,LABEL,MOUNTPOINTS lists them)"; fi
      data_device=$2
      shift
      ;;
    --read-write) set_mode read-write ;;
    --purge) purge=yes ;;
    --no-kiosk) kiosk=no ;;
    -h | --help)
      usage
      exit 0
      ;;
    *) die "unknown option $1 (see --help)" ;;
  esac
  shift
done
if [ "$purge" = yes ] && [ "$mode" != uninstall ]; then die "--purge goes with --uninstall"; fi
if [ "$kiosk" = no ] && [ "$mode" != install ]; then die "--no-kiosk goes with an install, not with --$mode"; fi
if [ -z "$ROOT" ] && [ "$(id -u)" -ne 0 ]; then die "run it as root: sudo $0 $*"; fi

# Whether the root file system is overlayroot's overlay (made read-only at this boot):
# whatever is written outside the data place now is gone at the next reboot.
overlaid() {
  [ "$(findmnt -n -o FSTYPE --mountpoint / 2>/dev/null)" = overlay ] && mountpoint -q "$ROOT$LOWER"
}

# How to change a read-only system: what install.sh says instead of writing what a reboot would undo.
read_only_way() {
  cat <<EOF
the system is read-only (install.sh --read-only): what is written outside the data place is gone at the next reboot, so install.sh changes nothing now.
  To install, update or remove Showclock, or change the system:
    sudo ./install.sh --read-write, sudo reboot, do the change (sudo ./install.sh ...),
    then sudo ./install.sh --read-only DEVICE, sudo reboot.
  A quick change to the system alone: sudo overlayroot-chroot (a shell on the real root, writable), then sudo reboot.
  Settings need none of this: $ETC_DIR is on the data place; edit $ETC_DIR/config.json and sudo systemctl restart showclock.
EOF
}

if overlaid; then
  case "$mode" in
    install | uninstall) die "$(read_only_way)" ;;
    read-only | read-write) ;;
  esac
fi
if [ "$mode" = install ] && [ -r "$ROOT/etc/os-release" ]; then
  # shellcheck disable=SC1091 # the target system's file, read at run time
  codename=$(. "$ROOT/etc/os-release" && echo "${VERSION_CODENAME:-}")
  if [ "$codename" != trixie ]; then say "note: written for Raspberry Pi OS Trixie (Debian 13); this system is \"${codename:-unknown}\""; fi
fi

# Whether anything the running service uses was written by this run.
service_changed=no
kiosk_changed=no
units_changed=no

# put_file SOURCE TARGET MODE: copies when the content or the mode differs.
# Prints what it wrote; returns 0 when it wrote, 1 when the target was already right.
put_file() {
  local source=$1 target=$ROOT$2 mode=$3
  if [ -f "$target" ] && cmp -s "$source" "$target" && [ "$(stat -c %a "$target")" = "$mode" ]; then
    return 1
  fi
  mkdir -p "$(dirname "$target")"
  # Through a temporary file and a rename, so a running service never reads half a file;
  # the file synced before the rename and its directory after it, so that after a power
  # cut a file is either the old one or the whole new one (ext4 may write a new file's
  # data after its rename, and a rerun would keep an empty config.json as the technician's).
  install -m "$mode" "$source" "$target.new"
  sync "$target.new"
  mv -f "$target.new" "$target"
  sync "$(dirname "$target")"
  say "wrote $2"
  return 0
}

# put_text TARGET MODE < content
put_text() {
  local temp
  temp=$(mktemp)
  cat >"$temp"
  local status=0
  put_file "$temp" "$1" "$2" || status=$?
  rm -f "$temp"
  return "$status"
}

# sync_tree SOURCE_DIR TARGET_DIR: every file of the source, same content and mode; files the
# release no longer has are removed. Returns 0 when something changed.
sync_tree() {
  local source=$1 target=$2 changed=1 file relative
  while IFS= read -r -d '' file; do
    relative=${file#"$source"/}
    if put_file "$file" "$target/$relative" "$(stat -c %a "$file")"; then changed=0; fi
  done < <(find "$source" -type f -print0 | sort -z)
  if [ -d "$ROOT$target" ]; then
    while IFS= read -r -d '' file; do
      relative=${file#"$ROOT$target"/}
      if [ ! -e "$source/$relative" ]; then
        rm -f "$file"
        say "removed $target/$relative"
        changed=0
      fi
    done < <(find "$ROOT$target" -type f -print0 | sort -z)
  fi
  return "$changed"
}

installed() {
  [ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null || true)" = installed ]
}

install_packages() {
  # onoff's native addon (epoll) is compiled on the Pi by npm: g++, make and python3.
  # polkitd: what lets the service set the clock through timedated (the rule below).
  local wanted=(nodejs npm g++ make python3 polkitd) missing=() package
  # v4l-utils: cec-ctl, which switches the screen over HDMI-CEC (README, "Screen (HDMI-CEC)");
  # alsa-utils: aplay -l, which names the sound cards kiosk.audio can choose (README, "Sound").
  if [ "$kiosk" = yes ]; then wanted+=(cage chromium v4l-utils alsa-utils); fi
  for package in "${wanted[@]}"; do
    installed "$package" || missing+=("$package")
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    say "installing ${missing[*]} with apt-get"
    # A power cut during an earlier run's apt-get leaves dpkg half done, and apt-get refuses
    # to go on until it is finished: finish it first (nothing to do when nothing was cut).
    DEBIAN_FRONTEND=noninteractive dpkg --configure -a
    DEBIAN_FRONTEND=noninteractive apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
  fi
  local major
  major=$("$NODE" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
  if [ "$major" -lt 20 ]; then die "Node.js 20 or newer is needed, $NODE is $("$NODE" --version 2>/dev/null || echo missing)"; fi
}

ensure_group() {
  getent group "$1" >/dev/null || {
    groupadd --system "$1"
    say "created group $1"
  }
}

# ensure_user NAME HOME GROUPS...: a system user with its own group, a member of GROUPS that exist.
ensure_user() {
  local name=$1 home=$2 group
  shift 2
  if ! getent passwd "$name" >/dev/null; then
    useradd --system --user-group --home-dir "$home" --no-create-home --shell /usr/sbin/nologin "$name"
    say "created user $name"
  fi
  for group in "$@"; do
    getent group "$group" >/dev/null || continue
    if ! id -nG "$name" | tr ' ' '\n' | grep -qx "$group"; then
      usermod -a -G "$group" "$name"
      say "added $name to group $group"
    fi
  done
}

write_default_config() {
  # Never overwritten: it is the technician's file from the first install on.
  if [ -e "$ROOT$ETC_DIR/config.json" ]; then return; fi
  put_text "$ETC_DIR/config.json" 644 <<'EOF' || true
// Showclock settings. Comments like this one are allowed in this file.
// Check it after an edit with:  sudo showclock config
// then apply it with:           sudo systemctl restart showclock
// A setting left out takes its default; see /opt/showclock/README.md.
{
  // The HTTP port. With 80, people type http://<box>/ . Run install.sh again
  // after moving to or from a port below 1024 (it grants the right to use one).
  "port": 8080,
  // Where to listen: every network. The HDMI kiosk needs 127.0.0.1 included.
  "host": "0.0.0.0",
  "logLevel": "info",

  // OSC (QLab, TouchOSC, lighting desks): off until you remove the // in front of
  // the "osc" lines below. Commands: /showclock/<api key>/start, /adjust 60000, ... (README, "OSC").
  // textPort takes plain-text lines "<api key> start" (QLab's UDP network cues).
  // reply: refused input is answered to its sender at /showclock/error.
  // feedback: where /showclock/state/* (remaining, phase, label, ...) is sent.
  // "osc": {
  //   "port": 7350,
  //   "host": "0.0.0.0",
  //   "textPort": 7351,
  //   "reply": false,
  //   "feedback": [ { "host": "192.168.1.50", "port": 9000 } ]
  // },

  // Tally in (README, "Tally in"): ON AIR follows a vision mixer or Tally Arbiter
  // sending TSL UMD 5.0 or 3.1 to this port (UDP and TCP); off until you remove
  // the // below. indices: this room's display index (TSL 3.1: its address);
  // on: "program" (red, the usual), "preview" (green) or "both".
  // Or OBS (28 and later): "obs": { "url": "ws://192.168.1.20:4455", "password": "..." }.
  // "tally": {
  //   "tsl": { "port": 8900, "indices": [1], "on": "program" }
  // },

  // MQTT (README, "MQTT (Home Assistant)"): state published to a broker, commands
  // from it, and Home Assistant discovery; off until you remove the // below.
  // mqtts:// for TLS; "room" defaults to this machine's host name.
  // "mqtt": {
  //   "url": "mqtt://192.168.1.5:1883", "username": "showclock", "password": "...", "room": "stage-a"
  // },

  // The venue (README, "Venue"): this room's name on the network (the box is found
  // over mDNS as _showclock._tcp; "advertise": false turns that off), and a venue
  // key shared by all the venue's boxes (openssl rand -hex 16), which opens the
  // overview of every room at /venue/<venue key>. "rooms": viewer links of boxes
  // mDNS does not reach (another subnet).
  // "venue": {
  //   "name": "Main hall", "key": "0123456789abcdef0123456789abcdef",
  //   "rooms": [ "http://192.168.2.10:8080/view/PASTE-ITS-VIEWER-LINK-KEY" ]
  // },

  // The HDMI screen's sound (README, "Sound"): the chime goes to the HDMI port the
  // screen is plugged into ("auto"), or to the card you name ("vc4hdmi1": aplay -l
  // lists them), or nowhere ("off"). Applied at the kiosk's next start.
  // "kiosk": { "audio": "auto" },

  // The screen over HDMI-CEC (README, "Screen (HDMI-CEC)"; needs v4l-utils: cec-ctl):
  // on at boot and when a timer starts, standby after a blackout held that many
  // minutes; the console and /api/v1/<api key>/screen/on|standby|active do it by hand.
  // Off until you remove the // below. cec-ctl -A lists the devices (a Raspberry Pi: /dev/cec0).
  // "screen": {
  //   "cec": { "device": "/dev/cec0" },
  //   "onAtBoot": true, "onAtStart": true, "standbyAfterBlackoutMinutes": 10
  // },

  // Lamps and buttons on the 40-pin header, by BCM number: the GPIO numbers of
  // a pinout diagram, not the physical pin numbers. Buttons go from the pin to
  // GND; turn their pull-ups on in /boot/firmware/config.txt, for example:
  //   gpio=5,6,13,19=ip,pu
  // Remove the // in front of the lines you wire up.
  "gpio": {
    // The ON AIR lamp, through a relay board (most switch on a low input: activeLow true).
    // "lamp": { "pin": 17, "activeLow": true, "safeState": "off" },

    // More lamps, each following onAir, running, warning (remaining <= warnAt),
    // overrun (remaining < 0) or blackout.
    // "lamps": [ { "pin": 27, "follows": "overrun", "activeLow": true } ],

    // Buttons: "action" on a short press, "hold" on a long press (after holdMs,
    // default 800). Actions: toggle start pause reset next previous adjust
    // toggle_blackout toggle_onair clear_message. reset only as a hold, unless
    // "allowShortReset": true. adjust takes "ms" (short) or "holdAdjustMs" (hold).
    // "buttons": [
    //   { "pin": 5, "action": "toggle" },
    //   { "pin": 6, "action": "next" },
    //   { "pin": 13, "action": "adjust", "ms": 60000, "hold": "adjust", "holdAdjustMs": 300000 },
    //   { "pin": 19, "hold": "reset" }
    // ]
  }
}
EOF
}

# What the service would run with: the config checked by the service's own code.
config_value() {
  SHOWCLOCK_CONFIG="$ROOT$ETC_DIR/config.json" "$NODE" "$ROOT$APP_DIR/dist/showclock.mjs" config "$1"
}

port_dropin() {
  local port dropin=$UNIT_DIR/$SERVICE.d/port.conf
  port=$(config_value port) || die "$ETC_DIR/config.json has a problem (above); fix it and run install.sh again"
  if [ "$port" -lt 1024 ]; then
    if put_text "$dropin" 644 <<EOF; then
# Written by install.sh: port $port is below 1024, so the service may bind it.
[Service]
CapabilityBoundingSet=CAP_NET_BIND_SERVICE
AmbientCapabilities=CAP_NET_BIND_SERVICE
EOF
      units_changed=yes
      service_changed=yes
    fi
  elif [ -e "$ROOT$dropin" ]; then
    rm -f "$ROOT$dropin"
    rmdir "$ROOT$UNIT_DIR/$SERVICE.d" 2>/dev/null || true
    say "removed $dropin (port $port needs no capability)"
    units_changed=yes
    service_changed=yes
  fi
}

# The installed onoff: 0 when it is the release's version and loads (its native addon with
# it), 1 when it loads but is another version, 2 when it does not load or is missing.
onoff_state() {
  "$NODE" -e '
    const app = process.argv[1];
    const wanted = require(app + "/package.json").dependencies.onoff;
    let have = null;
    try { have = require(app + "/node_modules/onoff/package.json").version; } catch {}
    // Loaded, not only present: a power cut during an earlier npm install can leave the addon
    // truncated or unbuilt, and the service would then run without GPIO until someone noticed.
    let loads = false;
    try { require(app + "/node_modules/onoff"); loads = true; } catch {}
    process.exit(!loads ? 2 : have === wanted ? 0 : 1);
  ' "$ROOT$APP_DIR"
}

install_onoff() {
  # Installed on the Pi, not shipped: npm builds onoff's native addon for this board and Node.
  local state=0
  onoff_state || state=$?
  if [ "$state" -eq 0 ]; then return; fi
  say "installing onoff (GPIO) with npm"
  if [ "$state" -eq 2 ]; then
    # From nothing: after a power cut during npm install, npm calls what it left "up to date"
    # and never builds the addon (found in the booted box), so its files and record go first.
    # A working onoff of another version stays until npm has a new one (an update offline).
    rm -rf "$ROOT$APP_DIR/node_modules" "$ROOT$APP_DIR/package-lock.json"
  fi
  if (cd "$ROOT$APP_DIR" && npm install --omit=dev --no-audit --no-fund --loglevel=error) && onoff_state; then
    service_changed=yes
  else
    say "WARNING: onoff could not be installed; the service runs without lamps and buttons until install.sh runs again with a network"
  fi
}

systemd_running() {
  [ -d "$ROOT/run/systemd/system" ]
}

enable_unit() {
  if ! systemctl is-enabled --quiet "$1" 2>/dev/null; then
    systemctl enable "$1"
    say "enabled $1"
  fi
}

# start_unit UNIT CHANGED: starts it when stopped, restarts it when what it runs changed.
start_unit() {
  if ! systemd_running; then return; fi
  if ! systemctl is-active --quiet "$1"; then
    systemctl start "$1"
    say "started $1"
  elif [ "$2" = yes ]; then
    systemctl restart "$1"
    say "restarted $1"
  fi
}

do_install() {
  install_packages
  ensure_group gpio
  ensure_user "$USER_NAME" "$DATA_DIR" gpio
  if [ "$kiosk" = yes ]; then ensure_user "$KIOSK_USER" /run/showclock-kiosk video render input audio; fi

  if sync_tree "$RELEASE/dist" "$APP_DIR/dist"; then service_changed=yes; fi
  if put_file "$RELEASE/package.json" "$APP_DIR/package.json" 644; then service_changed=yes; fi
  put_file "$RELEASE/README.md" "$APP_DIR/README.md" 644 || true
  if put_file "$RELEASE/systemd/$SERVICE" "$UNIT_DIR/$SERVICE" 644; then
    units_changed=yes
    service_changed=yes
  fi
  install_onoff

  mkdir -p "$ROOT$ETC_DIR"
  write_default_config
  # The data directory is systemd's (StateDirectory=); made here too, so the keys exist before the first start.
  if [ ! -d "$ROOT$DATA_DIR" ]; then
    install -d -m 700 "$ROOT$DATA_DIR"
    chown "$USER_NAME:$USER_NAME" "$ROOT$DATA_DIR"
  fi
  port_dropin

  # The service may not set the clock itself (ProtectClock=yes, no CAP_SYS_TIME): it asks
  # systemd-timedated (`timedatectl set-time`), which polkit allows its user for exactly two
  # actions: set-time, and set-ntp (network time off for the step and on again, where
  # timesyncd is on but reaches no server). polkitd reads rules as they change: no restart.
  put_text "$CLOCK_RULE" 644 <<EOF || true
// Written by Showclock's install.sh (README, "Clock"): the service may set the box's clock
// from the console while it is not synchronised, through systemd-timedated; nothing else.
polkit.addRule(function (action, subject) {
  if (subject.user === "$USER_NAME" &&
      (action.id === "org.freedesktop.timedate1.set-time" || action.id === "org.freedesktop.timedate1.set-ntp")) {
    return polkit.Result.YES;
  }
});
EOF

  # The hardware watchdog (README, "Watchdog"): systemd pings the board's watchdog device (the
  # Pi's bcm2835-wdt, whose longest timeout is 15 s; i6300esb in the test machine) every half
  # period; a hung kernel or a frozen board stops the pings and the hardware restarts it.
  # RebootWatchdogSec: a reboot that hangs is cut short too. Read by systemd at its next start,
  # so it is re-executed when the file changes (the running units are kept).
  if put_text "$WATCHDOG_CONF" 644 <<'EOF'; then
# Written by Showclock's install.sh (README, "Watchdog"): restart the box when it hangs.
[Manager]
RuntimeWatchdogSec=14s
RebootWatchdogSec=2min
EOF
    if systemd_running; then systemctl daemon-reexec; fi
  fi

  put_text /usr/local/bin/showclock 755 <<EOF || true
#!/bin/sh
# showclock key [--rotate-api] [--rotate-viewer]   print (or renew) the control and viewer links
# showclock config [name]                          check the config file, print the settings
# Runs a command of the installed service as its user, with its settings.
if [ "\$(id -u)" -ne 0 ]; then
  echo "showclock: run it with sudo (the keys are readable by the service user only)" >&2
  exit 77
fi
exec runuser -u $USER_NAME -- env SHOWCLOCK_CONFIG=$ETC_DIR/config.json SHOWCLOCK_DATA_DIR=$DATA_DIR $NODE $APP_DIR/dist/showclock.mjs "\$@"
EOF

  if [ "$kiosk" = yes ]; then
    if put_file "$RELEASE/bin/showclock-kiosk" "$APP_DIR/bin/showclock-kiosk" 755; then kiosk_changed=yes; fi
    if put_file "$RELEASE/systemd/$KIOSK" "$UNIT_DIR/$KIOSK" 644; then
      units_changed=yes
      kiosk_changed=yes
    fi
    # The kiosk's login session on tty1 (logind gives cage the screen and input devices).
    put_text /etc/pam.d/showclock-kiosk 644 <<'EOF' || true
# Written by Showclock's install.sh: the session of showclock-kiosk.service.
auth     required pam_unix.so nullok
account  required pam_unix.so
session  required pam_unix.so
session  required pam_systemd.so
EOF
  else
    remove_kiosk
  fi

  # Outside a booted system (a chroot, an image build) there is no manager to reload; enable works offline.
  if [ "$units_changed" = yes ] && systemd_running; then systemctl daemon-reload; fi
  enable_unit "$SERVICE"
  if [ "$kiosk" = yes ]; then enable_unit "$KIOSK"; fi
  if [ "$service_changed" = yes ]; then kiosk_changed=yes; fi
  start_unit "$SERVICE" "$service_changed"
  if [ "$kiosk" = yes ]; then start_unit "$KIOSK" "$kiosk_changed"; fi
  if ! systemd_running; then say "systemd is not running here (a chroot or an image build): the units start at the next boot"; fi

  # Everything this run wrote (users, packages, npm's files, the enabled units) on the card
  # before it says "installed": a power cut after that line finds the box as it said.
  sync
  if [ "$kiosk" = yes ]; then
    # Where the kiosk's chime will go, by the kiosk's own rule (kiosk.audio; README, "Sound").
    local sound
    sound=$(SHOWCLOCK_CONFIG="$ROOT$ETC_DIR/config.json" SHOWCLOCK_NODE="$NODE" SHOWCLOCK_BUNDLE="$ROOT$APP_DIR/dist/showclock.mjs" \
      SHOWCLOCK_DRM_CLASS="$ROOT/sys/class/drm" SHOWCLOCK_ASOUND="$ROOT/proc/asound" "$ROOT$APP_DIR/bin/showclock-kiosk" --audio-device) || sound="unknown (kiosk.audio could not be read)"
    say "the screen's sound: $sound (kiosk.audio in $ETC_DIR/config.json; the console's Test chime plays it)"
  fi
  say "installed. Logs: journalctl -u showclock -f"
  # Prints the links (and makes the keys on a first install), as the service user.
  runuser -u "$USER_NAME" -- env SHOWCLOCK_CONFIG="$ROOT$ETC_DIR/config.json" SHOWCLOCK_DATA_DIR="$ROOT$DATA_DIR" \
    "$NODE" "$ROOT$APP_DIR/dist/showclock.mjs" key ||
    say "the links could not be printed yet; once the service runs: sudo showclock key"
}

# end_sessions USER: ends what the user still runs (the kiosk's logind session
# leaves a user manager behind for a while), so userdel can remove it. Found in
# the booted box: userdel refused "user showclock-kiosk is currently used by process".
end_sessions() {
  local user=$1 _
  if ! systemd_running || ! getent passwd "$user" >/dev/null; then return; fi
  loginctl terminate-user "$user" >/dev/null 2>&1 || true
  for _ in $(seq 1 50); do
    pgrep -u "$user" >/dev/null 2>&1 || return 0
    sleep 0.2
  done
  pkill -KILL -u "$user" >/dev/null 2>&1 || true
  sleep 0.5
}

remove_kiosk() {
  if [ -e "$ROOT$UNIT_DIR/$KIOSK" ]; then
    if systemd_running; then systemctl disable --now "$KIOSK" || true; else systemctl disable "$KIOSK" || true; fi
    rm -f "$ROOT$UNIT_DIR/$KIOSK"
    say "removed $UNIT_DIR/$KIOSK"
    units_changed=yes
  fi
  local file
  for file in "$APP_DIR/bin/showclock-kiosk" /etc/pam.d/showclock-kiosk; do
    if [ -e "$ROOT$file" ]; then
      rm -f "$ROOT$file"
      say "removed $file"
    fi
  done
  if getent passwd "$KIOSK_USER" >/dev/null; then
    end_sessions "$KIOSK_USER"
    userdel "$KIOSK_USER"
    say "removed user $KIOSK_USER"
  fi
}

do_uninstall() {
  remove_kiosk
  if [ -e "$ROOT$UNIT_DIR/$SERVICE" ]; then
    if systemd_running; then systemctl disable --now "$SERVICE" || true; else systemctl disable "$SERVICE" || true; fi
  fi
  local path
  for path in "$UNIT_DIR/$SERVICE" "$UNIT_DIR/$SERVICE.d" "$APP_DIR" "$CACHE_DIR" /usr/local/bin/showclock "$CLOCK_RULE" "$WATCHDOG_CONF"; do
    if [ -e "$ROOT$path" ]; then
      rm -rf "$ROOT$path"
      say "removed $path"
    fi
  done
  if systemd_running; then systemctl daemon-reload || true; fi
  if getent passwd "$USER_NAME" >/dev/null; then
    end_sessions "$USER_NAME"
    userdel "$USER_NAME"
    say "removed user $USER_NAME"
  fi
  if [ "$purge" = yes ]; then
    for path in "$DATA_DIR" "$ETC_DIR"; do
      if mountpoint -q "$ROOT$path"; then
        # Bound from the data place (install.sh --read-only): emptied there; its /etc/fstab lines stay.
        find "$ROOT$path" -mindepth 1 -delete
        say "emptied $path (on the data place $DATA_MOUNT)"
      elif [ -e "$ROOT$path" ]; then
        rm -rf "$ROOT$path"
        say "removed $path"
      fi
    done
  else
    say "kept $DATA_DIR (the room and its keys) and $ETC_DIR; --uninstall --purge removes them"
  fi
  say "uninstalled. nodejs, cage and chromium stay installed (apt-get remove them if nothing else needs them)"
}

# --- The read-only system (README, "Read-only system") ---

# Refuses when the kernel command line turns overlayroot on itself (raspi-config's "Overlay
# File System" does): that setting wins over install.sh's and overlays every mount, the data
# place too, so nothing written there would be kept.
refuse_cmdline_overlay() {
  local file
  for file in /proc/cmdline /boot/firmware/cmdline.txt; do
    if grep -Eqs '(^| )overlayroot=[^d ]' "$ROOT$file"; then
      die "$file turns on raspi-config's Overlay File System, which makes every mount read-only, the data place too. Turn it off (sudo raspi-config: Performance Options, Overlay File System, No), reboot, and run --read-only again: it makes the system read-only itself"
    fi
  done
}

# check_data_device GIVEN: sets data_dev (the device, symlinks resolved) and data_fs (ext4,
# or empty: to be formatted), or refuses with what to do: not a disk or partition, the
# system's own device, mounted elsewhere, or holding anything but ext4.
data_dev=
data_fs=
check_data_device() {
  local given=$1 mount source parent where table
  local list="lsblk -o NAME,SIZE,FSTYPE,LABEL,MOUNTPOINTS lists them"
  data_dev=$(readlink -f "$given")
  case "$(lsblk -ndo TYPE "$data_dev" 2>/dev/null || true)" in
    disk | part | lvm | crypt | md | raid* | loop) ;;
    *) die "$given is not a disk or a partition ($list)" ;;
  esac
  for mount in / /boot/firmware /boot; do
    source=$(findmnt -n -o SOURCE --mountpoint "$mount" 2>/dev/null || true)
    if [ -z "$source" ]; then continue; fi
    source=$(readlink -f "$source")
    parent=$(lsblk -ndo PKNAME "$source" 2>/dev/null || true)
    if [ "$data_dev" = "$source" ] || { [ -n "$parent" ] && [ "$data_dev" = "/dev/$parent" ]; }; then
      die "$given holds the system (it is mounted at $mount): the room, keys and config need a device of their own, a second partition or a USB stick ($list)"
    fi
  done
  # Mounted where this script mounts it (a second run) is fine; anywhere else it is someone's.
  where=$(findmnt -rn -o TARGET --source "$data_dev" 2>/dev/null | grep -vxF -e "$DATA_MOUNT" -e "$DATA_DIR" -e "$ETC_DIR" | head -n 1 || true)
  if [ -n "$where" ]; then die "$given is mounted at $where: unmount it first (sudo umount $where), or give another device ($list)"; fi
  data_fs=$(blkid -p -o value -s TYPE "$data_dev" 2>/dev/null || true)
  table=$(blkid -p -o value -s PTTYPE "$data_dev" 2>/dev/null || true)
  case "$data_fs" in
    ext4) ;;
    "")
      if [ -n "$table" ]; then die "$given is a disk with partitions ($table): give one of its partitions ($list)"; fi
      ;;
    *) die "$given holds a $data_fs file system: install.sh formats only an empty device and uses an ext4 one as it is. Copy off what you need, then empty it (sudo wipefs -a $given) or format it ext4 (sudo mkfs.ext4 -L $DATA_LABEL $given), and run --read-only again" ;;
  esac
}

# copy_to_data_place FROM TO: FROM's files (with owners and modes) to TO on the data place,
# through TO.new and a rename, so that a power cut leaves TO either absent or whole.
copy_to_data_place() {
  local from=$ROOT$1 to=$ROOT$2
  rm -rf "$to.new" "$to.old"
  mkdir -p "$to.new"
  if [ -d "$from" ]; then cp -a "$from/." "$to.new/"; fi
  sync "$to.new"
  if [ -e "$to" ]; then mv "$to" "$to.old"; fi
  mv "$to.new" "$to"
  rm -rf "$to.old"
  sync "$(dirname "$to")"
  say "copied $1 to $2"
}

# The data place's lines in /etc/fstab (any earlier ones replaced). nofail: a data device
# that is missing or that fsck cannot repair leaves a box that boots and answers ssh (the
# service waits for its mounts), not one stuck in emergency mode on a screen nobody reads.
write_fstab() {
  local uuid=$1 temp status=0
  temp=$(mktemp)
  if [ -f "$ROOT/etc/fstab" ]; then
    awk -v a="$DATA_MOUNT" -v b="$DATA_DIR" -v c="$ETC_DIR" '!($2 == a || $2 == b || $2 == c || /^# Showclock/)' "$ROOT/etc/fstab" >"$temp"
  fi
  cat >>"$temp" <<FSTAB
# Showclock's data place (install.sh --read-only): the room, keys and config, kept writable under a read-only system.
UUID=$uuid $DATA_MOUNT ext4 defaults,noatime,nofail 0 2
$DATA_MOUNT/data $DATA_DIR none bind,nofail,x-systemd.requires-mounts-for=$DATA_MOUNT 0 0
$DATA_MOUNT/config $ETC_DIR none bind,nofail,x-systemd.requires-mounts-for=$DATA_MOUNT 0 0
FSTAB
  put_file "$temp" /etc/fstab 644 || status=$?
  rm -f "$temp"
  return "$status"
}

do_read_only() {
  local given=$1
  [ -e "$ROOT$UNIT_DIR/$SERVICE" ] || die "Showclock is not installed here: sudo ./install.sh first, then --read-only"
  if overlaid; then
    if [ -e "$ROOT$LOWER$OVERLAY_CONF" ] && mountpoint -q "$ROOT$DATA_MOUNT" && mountpoint -q "$ROOT$DATA_DIR" && mountpoint -q "$ROOT$ETC_DIR"; then
      say "the system is already read-only, with the room, keys and config on $(findmnt -n -o SOURCE --mountpoint "$DATA_MOUNT" || true) at $DATA_MOUNT; nothing to do"
      return
    fi
    die "$(read_only_way)"
  fi
  refuse_cmdline_overlay
  check_data_device "$given"
  local fstab_uuid
  fstab_uuid=$(awk -v m="$DATA_MOUNT" '$2 == m && $1 !~ /^#/ { sub(/^UUID=/, "", $1); print $1 }' "$ROOT/etc/fstab" 2>/dev/null || true)

  # overlayroot makes the overlay at boot; its initramfs hook copies cryptsetup in and fails
  # without it, and its boot script needs busybox's grep in the initramfs (only recommended by
  # initramfs-tools: without it the overlay silently never came, found in the booted box).
  local missing=() package
  for package in overlayroot cryptsetup-bin busybox; do installed "$package" || missing+=("$package"); done
  if [ "${#missing[@]}" -gt 0 ]; then
    say "installing ${missing[*]} with apt-get"
    DEBIAN_FRONTEND=noninteractive dpkg --configure -a
    DEBIAN_FRONTEND=noninteractive apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
  fi
  # The boot's initramfs must hold overlayroot's script and busybox (installing the packages
  # rebuilds it; one made while one was missing would not have it).
  local initrd listing
  initrd=$ROOT/boot/initrd.img-$(uname -r)
  # Only when it can be read and lacks it (lsinitramfs cannot read a zstd one without zstd).
  if [ -f "$initrd" ] && listing=$(lsinitramfs "$initrd" 2>/dev/null) && { ! grep -q 'scripts/init-bottom/overlayroot$' <<<"$listing" || ! grep -q 'bin/busybox$' <<<"$listing"; }; then
    say "adding overlayroot to the initramfs"
    update-initramfs -u -k "$(uname -r)"
  fi

  if [ -z "$data_fs" ]; then
    if [ -n "$fstab_uuid" ]; then die "/etc/fstab already has a data place (UUID=$fstab_uuid) and $given is empty: give that device, or take its line out of /etc/fstab first"; fi
    mkfs.ext4 -q -F -L "$DATA_LABEL" "$data_dev"
    say "formatted $given (ext4, label $DATA_LABEL)"
  fi
  local uuid
  uuid=$(blkid -p -o value -s UUID "$data_dev" || true)
  [ -n "$uuid" ] || die "$given has no UUID (blkid -p $given): is the device working?"
  if [ -n "$fstab_uuid" ] && [ "$fstab_uuid" != "$uuid" ]; then
    die "/etc/fstab already has another data place (UUID=$fstab_uuid) at $DATA_MOUNT: to move it, copy $DATA_MOUNT to the new device and change that line, or give that device"
  fi
  mkdir -p "$ROOT$DATA_MOUNT"
  if ! mountpoint -q "$ROOT$DATA_MOUNT"; then
    mount -o noatime "$data_dev" "$ROOT$DATA_MOUNT"
    say "mounted $given at $DATA_MOUNT"
  fi

  # The room and keys, and the config, copied while the service is stopped (nothing changes
  # under the copy) and before /etc/fstab names the copies: a power cut in between leaves the
  # box as it was, and a run again copies afresh.
  local stopped=() unit
  if ! mountpoint -q "$ROOT$DATA_DIR" || ! mountpoint -q "$ROOT$ETC_DIR"; then
    for unit in "$KIOSK" "$SERVICE"; do
      if systemd_running && systemctl is-active --quiet "$unit"; then
        systemctl stop "$unit"
        stopped+=("$unit")
      fi
    done
    if ! mountpoint -q "$ROOT$DATA_DIR"; then copy_to_data_place "$DATA_DIR" "$DATA_MOUNT/data"; fi
    if ! mountpoint -q "$ROOT$ETC_DIR"; then copy_to_data_place "$ETC_DIR" "$DATA_MOUNT/config"; fi
  fi
  # The service's user and mode, as systemd's StateDirectory= has them.
  if [ "$(stat -c %a "$ROOT$DATA_MOUNT/data")" != 700 ] || [ "$(stat -c %U "$ROOT$DATA_MOUNT/data")" != "$USER_NAME" ]; then
    chown "$USER_NAME:$USER_NAME" "$ROOT$DATA_MOUNT/data"
    chmod 700 "$ROOT$DATA_MOUNT/data"
  fi
  if write_fstab "$uuid"; then units_changed=yes; fi
  if [ "$units_changed" = yes ] && systemd_running; then systemctl daemon-reload; fi
  units_changed=no
  if ! mountpoint -q "$ROOT$DATA_DIR"; then
    mount "$ROOT$DATA_DIR"
    say "mounted $DATA_MOUNT/data at $DATA_DIR"
  fi
  if ! mountpoint -q "$ROOT$ETC_DIR"; then
    mount "$ROOT$ETC_DIR"
    say "mounted $DATA_MOUNT/config at $ETC_DIR"
  fi

  # The service never starts without its data place: on the overlay it would make new keys
  # that are gone at the next boot.
  if put_text "$READ_ONLY_DROPIN" 644 <<DROPIN; then
# Written by install.sh --read-only: the room, keys and config are on the data place.
[Unit]
RequiresMountsFor=$DATA_DIR $ETC_DIR
DROPIN
    units_changed=yes
  fi
  # /var/log is in RAM under the overlay anyway: journald keeps it there, within a bound.
  put_text "$JOURNAL_DROPIN" 644 <<'JOURNAL' || true
# Written by Showclock's install.sh --read-only: the logs are in RAM (the system is read-only).
[Journal]
Storage=volatile
RuntimeMaxUse=32M
JOURNAL
  # Under the overlay, systemd-remount-fs fails at every boot (a failed unit): it remounts / with
  # the options overlayroot writes into the overlay's /etc/fstab, which the kernel refuses
  # ("overlay: No changes allowed in reconfigure"; found in the booted box). There is nothing to
  # remount there: it is skipped while the real root is at LOWER.
  if put_text "$REMOUNT_DROPIN" 644 <<REMOUNT; then
# Written by Showclock's install.sh --read-only: nothing to remount under overlayroot's overlay.
[Unit]
ConditionPathIsMountPoint=!$LOWER
REMOUNT
    units_changed=yes
  fi
  put_text "$OVERLAY_CONF" 644 <<'OVERLAY' || true
# Written by Showclock's install.sh --read-only: the root file system read-only under a RAM
# overlay from the next boot; recurse=0 leaves the other mounts (the data place) writable.
# sudo ./install.sh --read-write (or removing this file) makes it writable again.
overlayroot="tmpfs:recurse=0"
OVERLAY
  if [ "$units_changed" = yes ] && systemd_running; then systemctl daemon-reload; fi
  for unit in "${stopped[@]}"; do
    systemctl start "$unit"
  done
  sync
  say "the system becomes read-only at the next boot: sudo reboot. From then on only $DATA_MOUNT ($given: the room, keys and config) keeps what is written; everything else, logs too, starts afresh at each boot."
  say "to change the system later: sudo ./install.sh --read-write, reboot, change it, sudo ./install.sh --read-only $given, reboot. Settings in $ETC_DIR/config.json need none of that."
}

do_read_write() {
  # Under the overlay the files are on the real root, mounted read-only at LOWER.
  local lower=""
  if overlaid; then lower=$LOWER; fi
  local file found=()
  for file in "$OVERLAY_CONF" "$JOURNAL_DROPIN" "$REMOUNT_DROPIN"; do
    if [ -e "$ROOT$lower$file" ]; then found+=("$file"); fi
  done
  if [ "${#found[@]}" -eq 0 ]; then
    if [ -n "$lower" ]; then
      say "the system is read-only until the next boot, which makes it writable: sudo reboot"
    else
      say "the system is not read-only (no $OVERLAY_CONF); nothing to do"
    fi
    return
  fi
  if [ -n "$lower" ]; then
    mount -o remount,rw "$ROOT$LOWER" || die "the real root at $LOWER could not be made writable: sudo overlayroot-chroot, rm ${found[*]} there, exit, sudo reboot"
  fi
  for file in "${found[@]}"; do
    rm -f "$ROOT$lower$file"
    say "removed $file"
  done
  sync
  # Back to read-only where the kernel lets it (the overlay above it may keep it busy: then it
  # stays writable until the reboot, as with overlayroot-chroot).
  if [ -n "$lower" ]; then mount -o remount,ro "$ROOT$LOWER" 2>/dev/null || true; fi
  say "the system becomes writable at the next boot: sudo reboot. The room, keys and config stay on the data place ($DATA_MOUNT, in /etc/fstab), where they are kept either way."
}

case "$mode" in
  install) do_install ;;
  uninstall) do_uninstall ;;
  read-only) do_read_only "$data_device" ;;
  read-write) do_read_write ;;
esac
