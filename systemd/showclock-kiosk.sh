#!/bin/bash
# The HDMI kiosk, run by showclock-kiosk.service (installed as
# /opt/showclock/bin/showclock-kiosk): waits until the service answers on
# loopback, then runs cage with Chromium in kiosk mode on /display.
set -euo pipefail

node=${SHOWCLOCK_NODE:-/usr/bin/node}
bundle=${SHOWCLOCK_BUNDLE:-/opt/showclock/dist/showclock.mjs}
browser=${SHOWCLOCK_BROWSER:-/usr/bin/chromium}
compositor=${SHOWCLOCK_COMPOSITOR:-/usr/bin/cage}
home=${HOME:-/run/showclock-kiosk}

drm_class=${SHOWCLOCK_DRM_CLASS:-/sys/class/drm}
asound=${SHOWCLOCK_ASOUND:-/proc/asound}

# Where the chime goes (README, "Sound"): kiosk.audio of the config. "auto" is the HDMI
# port a screen is plugged into, looked at every start, so a screen moved to the other
# port takes its sound with it. A Pi 4 or 5 has two HDMI ports, ALSA cards vc4hdmi0 and
# vc4hdmi1 beside DRM connectors HDMI-A-1 and HDMI-A-2, and ALSA's default is the first
# card whatever is plugged in; a PC's HDMI sound (HDA) says in its ELD whether a monitor
# is there. None of those: the system's default device. Printed: "off", "default", or
# the ALSA device to give Chromium.
audio_device() {
  local wanted=$1 card id n connector eld
  case "$wanted" in
    auto) ;;
    off) echo off && return ;;
    *:*) echo "$wanted" && return ;;
    *) echo "default:CARD=$wanted" && return ;;
  esac
  for card in "$asound"/card[0-9]*; do
    [ -r "$card/id" ] || continue
    id=$(cat "$card/id")
    case "$id" in
      vc4hdmi[0-9])
        n=${id#vc4hdmi}
        for connector in "$drm_class"/card[0-9]-HDMI-A-$((n + 1)); do
          if [ "$(cat "$connector/status" 2>/dev/null)" = connected ]; then
            echo "default:CARD=$id"
            return
          fi
        done
        ;;
    esac
  done
  for eld in "$asound"/card[0-9]*/eld#*; do
    if grep -qs '^monitor_present[[:space:]]*1' "$eld"; then
      echo "default:CARD=$(cat "${eld%/eld#*}/id")"
      return
    fi
  done
  echo default
}

# The port comes from the service's own config file (SHOWCLOCK_CONFIG), read by
# the service's own code, so the two can never disagree.
if ! port=$("$node" "$bundle" config port); then
  echo "showclock-kiosk: cannot read the port from ${SHOWCLOCK_CONFIG:-the config file}" >&2
  exit 1
fi
url="http://127.0.0.1:${port}/display"
if ! audio_setting=$("$node" "$bundle" config kiosk.audio); then
  echo "showclock-kiosk: cannot read kiosk.audio from ${SHOWCLOCK_CONFIG:-the config file}" >&2
  exit 1
fi
audio=$(audio_device "$audio_setting")
# `showclock-kiosk --audio-device`: where the sound would go, for install.sh and a technician.
if [ "${1:-}" = --audio-device ]; then
  echo "$audio"
  exit 0
fi
# Chromium plays through ALSA (no sound server runs on the box); its flag names the device.
case "$audio" in
  off) audio_flags=(--mute-audio) ;;
  default) audio_flags=() ;;
  *) audio_flags=("--alsa-output-device=$audio") ;;
esac

# The service reports readiness before this unit starts; waiting here as well
# keeps Chromium's error page off the screen when the service is slow to answer.
healthy() {
  (
    exec 3<>"/dev/tcp/127.0.0.1/${port}"
    printf 'GET /healthz HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' >&3
    IFS= read -r -t 2 status <&3
    [[ $status == *" 200"* ]]
  ) 2>/dev/null
}
for _ in $(seq 1 60); do
  healthy && break
  sleep 1
done

# wlroots composites with GLES by default. With no GPU driver (a virtual machine's
# virtio-gpu, QEMU's other virtual cards, a bare framebuffer) that is Mesa's
# llvmpipe, which crashed cage at every start in the box's virtual machine (a
# segfault in llvmpipe under QEMU's emulated CPU) and costs more CPU than it
# saves: one full-screen page needs no GL to be composited, so the kiosk uses
# wlroots' pixman renderer there. A Pi's vc4/v3d keeps GLES. WLR_RENDERER set in
# the unit's environment wins.
if [ -z "${WLR_RENDERER:-}" ]; then
  for card in "$drm_class"/card[0-9]; do
    [ -e "$card/device/driver" ] || continue
    case "$(basename "$(readlink -f "$card/device/driver")")" in
      virtio-pci | virtio_gpu | bochs-drm | qxl | cirrus | cirrus-qemu | vmwgfx | simple-framebuffer | simpledrm)
        export WLR_RENDERER=pixman
        ;;
    esac
  done
fi

# A fresh profile each start, on tmpfs (the unit's RuntimeDirectory): nothing
# to restore, nothing written to the SD card.
profile="$home/chromium"
rm -rf "$profile"
mkdir -p "$profile"

# cage -d: no window decorations; cage shows no cursor without a pointer device,
# and the display page hides it (cursor: none) where one is plugged in.
# Chromium: kiosk mode, no first-run or
# crash-restore bubbles, no translate bar, nothing fetched in the background
# (the box may be offline), no pinch or swipe navigation on a touch screen.
echo "showclock-kiosk: sound to ${audio} (kiosk.audio ${audio_setting})" >&2
exec "$compositor" -d -- "$browser" \
  --ozone-platform=wayland \
  --kiosk \
  --user-data-dir="$profile" \
  --no-first-run \
  --no-default-browser-check \
  --noerrdialogs \
  --disable-infobars \
  --hide-crash-restore-bubble \
  --disable-session-crashed-bubble \
  --disable-features=Translate,TranslateUI,MediaRouter,OptimizationHints \
  --disable-component-update \
  --disable-background-networking \
  --disable-sync \
  --password-store=basic \
  --disable-pinch \
  --overscroll-history-navigation=0 \
  --autoplay-policy=no-user-gesture-required \
  "${audio_flags[@]}" \
  "$url"
