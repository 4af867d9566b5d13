// Where the kiosk's chime goes (issue 33, README "Sound"): the kiosk launcher
// (systemd/showclock-kiosk.sh) resolves kiosk.audio at every start, run here for
// real with `--audio-device` (it prints its choice and exits) against made-up
// /proc/asound and /sys/class/drm trees: a Pi's two HDMI ports, a PC's HDMI sound
// that says in its ELD whether a monitor is there, a card named in the config.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE, ROOT, ensureBundle } from '../e2e/service-process.js';

const top = mkdtempSync(path.join(tmpdir(), 'showclock-kiosk-audio-'));
afterAll(() => rmSync(top, { recursive: true, force: true }));
beforeAll(() => ensureBundle());

interface Machine {
  /** card index -> ALSA id, and its ELD's monitor_present where it has one */
  readonly cards: readonly { readonly id: string; readonly eldMonitor?: 0 | 1 }[];
  /** DRM connector name (HDMI-A-1) -> status */
  readonly connectors: Readonly<Record<string, 'connected' | 'disconnected'>>;
}

let made = 0;
function audioDevice(machine: Machine, setting: string | undefined): { status: number | null; out: string; err: string } {
  made += 1;
  const dir = path.join(top, String(made));
  const asound = path.join(dir, 'asound');
  const drm = path.join(dir, 'drm');
  mkdirSync(asound, { recursive: true });
  mkdirSync(drm, { recursive: true });
  machine.cards.forEach((card, index) => {
    const cardDir = path.join(asound, `card${index}`);
    mkdirSync(cardDir);
    writeFileSync(path.join(cardDir, 'id'), `${card.id}\n`);
    if (card.eldMonitor !== undefined) writeFileSync(path.join(cardDir, 'eld#0.0'), `monitor_present\t\t${card.eldMonitor}\neld_valid\t\t${card.eldMonitor}\n`);
  });
  for (const [name, status] of Object.entries(machine.connectors)) {
    mkdirSync(path.join(drm, `card1-${name}`));
    writeFileSync(path.join(drm, `card1-${name}`, 'status'), `${status}\n`);
  }
  const config = path.join(dir, 'config.json');
  writeFileSync(config, setting === undefined ? '{}\n' : `{ "kiosk": { "audio": ${JSON.stringify(setting)} } }\n`);
  const result = spawnSync('bash', [path.join(ROOT, 'systemd/showclock-kiosk.sh'), '--audio-device'], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: dir, SHOWCLOCK_CONFIG: config, SHOWCLOCK_NODE: process.execPath, SHOWCLOCK_BUNDLE: BUNDLE, SHOWCLOCK_DRM_CLASS: drm, SHOWCLOCK_ASOUND: asound },
  });
  return { status: result.status, out: result.stdout.trim(), err: result.stderr };
}

const pi = (hdmi1: 'connected' | 'disconnected', hdmi2: 'connected' | 'disconnected'): Machine => ({
  cards: [{ id: 'vc4hdmi0' }, { id: 'vc4hdmi1' }, { id: 'Headphones' }],
  connectors: { 'HDMI-A-1': hdmi1, 'HDMI-A-2': hdmi2 },
});

describe('the kiosk sound, kiosk.audio "auto" (the default)', () => {
  it('a Pi with the screen on its second HDMI port: that port, not ALSA\'s first card', () => {
    expect(audioDevice(pi('disconnected', 'connected'), undefined)).toMatchObject({ status: 0, out: 'default:CARD=vc4hdmi1' });
  });
  it('a Pi with the screen on its first port', () => {
    expect(audioDevice(pi('connected', 'disconnected'), 'auto')).toMatchObject({ status: 0, out: 'default:CARD=vc4hdmi0' });
  });
  it('a Pi with no screen plugged in: the system default', () => {
    expect(audioDevice(pi('disconnected', 'disconnected'), undefined)).toMatchObject({ status: 0, out: 'default' });
  });
  it('a PC: the HDMI card whose ELD has a monitor', () => {
    const pc: Machine = { cards: [{ id: 'PCH' }, { id: 'HDMI', eldMonitor: 0 }, { id: 'NVidia', eldMonitor: 1 }], connectors: {} };
    expect(audioDevice(pc, undefined)).toMatchObject({ status: 0, out: 'default:CARD=NVidia' });
  });
  it('no sound card at all: the system default', () => {
    expect(audioDevice({ cards: [], connectors: {} }, undefined)).toMatchObject({ status: 0, out: 'default' });
  });
});

describe('the kiosk sound, set in the config', () => {
  it('a card id: that card, whatever is plugged in', () => {
    expect(audioDevice(pi('connected', 'disconnected'), 'Headphones')).toMatchObject({ status: 0, out: 'default:CARD=Headphones' });
  });
  it('a whole ALSA device name is passed as it is', () => {
    expect(audioDevice(pi('connected', 'disconnected'), 'hw:1,0')).toMatchObject({ status: 0, out: 'hw:1,0' });
  });
  it('"off": no sound', () => {
    expect(audioDevice(pi('connected', 'disconnected'), 'off')).toMatchObject({ status: 0, out: 'off' });
  });
  it('a setting that is no card or device: the launcher stops with the config\'s own message', () => {
    const result = audioDevice(pi('connected', 'disconnected'), 'my speakers');
    expect(result.status).not.toBe(0);
    expect(result.err).toMatch(/kiosk\.audio: expected "auto", "off", an ALSA card id/);
  });
});
