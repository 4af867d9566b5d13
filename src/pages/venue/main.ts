// The venue overview (/venue/{venue_key}): every room this box knows as a tile, from
// the box's `venue` stream (src/venue). Time is this box's clock only, estimated from
// round trips to /venue/{key}/time (server-clock.ts), plus each tile's clock offset to
// this box; never the browser's own. Digits and tone come from faceAt, the over/under
// from extrasAt, as on the display. Everything from other boxes (names, labels,
// messages) is set with textContent: a name is text, never markup.
// Page code: no destructuring (esbuild targets old browsers).
import './venue.css';
import type { Snapshot } from '../../domain/snapshot.js';
import { createSseParser } from '../../client/sse-parser.js';
import { readStreamText } from '../../client/read-stream-text.js';
import { createServerClock } from '../../client/server-clock.js';
import { faceAt, formatTimeOfDay } from '../../client/face.js';
import { extrasAt, type ExtrasState } from '../../client/screen-extras.js';
import { VENUE_EVENT, type VenueTile, type VenueTiles } from '../../client/venue-tile.js';

/** The box sends a heartbeat every 2 s: this long without a byte and the link to it is gone. */
const SILENCE_MS = 6_000;
const RESYNCS_MS = [1_500, 5_000, 15_000];
const RESYNC_MS = 60_000;
/** Redrawn at least this often (a tile's "since", a room's offset measured anew). */
const MAX_SLEEP_MS = 1_000;

interface TileView {
  readonly root: HTMLElement;
  readonly name: HTMLElement;
  readonly onAir: HTMLElement;
  readonly label: HTMLElement;
  readonly time: HTMLElement;
  readonly hold: HTMLElement;
  readonly overUnder: HTMLElement;
  readonly note: HTMLElement;
  readonly door: HTMLAnchorElement;
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, parent: HTMLElement): HTMLElementTagNameMap[K] {
  const made = document.createElement(tag);
  made.className = className;
  parent.appendChild(made);
  return made;
}

function makeTile(): TileView {
  const root = document.createElement('section');
  root.className = 'tile';
  const head = el('div', 'tile-head', root);
  const name = el('h2', 'tile-name', head);
  const onAir = el('span', 'tile-onair', head);
  onAir.textContent = 'ON AIR';
  const label = el('div', 'tile-label', root);
  const time = el('div', 'tile-time', root);
  const row = el('div', 'tile-row', root);
  const hold = el('span', 'tile-hold', row);
  const overUnder = el('span', 'tile-over-under', row);
  const note = el('div', 'tile-note', root);
  const door = el('a', 'tile-door', root);
  door.rel = 'noreferrer noopener';
  door.target = '_blank';
  return { root, name, onAir, label, time, hold, overUnder, note, door };
}

function setText(node: HTMLElement, text: string): void {
  if (node.textContent !== text) node.textContent = text;
  node.hidden = text === '';
}

function setClass(node: HTMLElement, className: string): void {
  if (node.className !== className) node.className = className;
}

const HOLD_WORDS: Record<string, string> = { ready: 'READY', paused: 'PAUSED', stopped: 'STOPPED' };

/** Draws one tile at this box's time `boxNow`; returns the box instant it next changes by itself, or null. */
function drawTile(view: TileView, tile: VenueTile, boxNow: number, sinceText: (ms: number) => string): number | null {
  setText(view.name, tile.name);
  const watched = tile.kind !== 'foreign';
  const greyed = tile.status === 'lost' || tile.status === 'refused' || tile.status === 'connecting';
  const snapshot = tile.snapshot as Snapshot | null;
  let tone = '';
  let next: number | null = null;
  if (watched && snapshot !== null) {
    // A room not answering is shown as it stood when it stopped: its digits do not count on as if it were.
    const roomNow = (greyed ? Math.min(boxNow, tile.since) : boxNow) + tile.offsetMs;
    const drawn = faceAt(snapshot, roomNow);
    const face = drawn.face;
    tone = face.danger ? 'danger' : face.tone;
    setText(view.label, face.label === '' ? ' ' : face.label);
    setText(view.time, face.time === '' ? ' ' : face.time);
    setText(view.hold, HOLD_WORDS[face.hold] ?? '');
    view.onAir.hidden = !face.onAir || greyed;
    let overUnder = '';
    let overUnderState = '';
    if (snapshot.display !== undefined && snapshot.settings !== undefined && Array.isArray(snapshot.actuals)) {
      const extras = extrasAt(snapshot as unknown as ExtrasState, { overUnder: true, showEnd: false, aux: false }, roomNow);
      if (extras.extras.overUnder !== null) {
        overUnder = extras.extras.overUnder.text;
        overUnderState = extras.extras.overUnder.state;
      }
      if (extras.nextChangeAt !== null && !greyed) next = extras.nextChangeAt - tile.offsetMs;
    }
    setText(view.overUnder, overUnder);
    setClass(view.overUnder, `tile-over-under ${overUnderState}`);
    if (drawn.nextChangeAt !== null && !greyed) next = next === null ? drawn.nextChangeAt - tile.offsetMs : Math.min(next, drawn.nextChangeAt - tile.offsetMs);
  } else {
    setText(view.label, '');
    setText(view.time, watched ? '–:––' : '');
    setText(view.hold, '');
    setText(view.overUnder, '');
    view.onAir.hidden = true;
  }
  let note = '';
  if (tile.status === 'lost') note = `not answering since ${sinceText(tile.since)}`;
  else if (tile.status === 'refused') note = tile.message ?? 'refused the venue key';
  else if (tile.status === 'connecting') note = 'connecting…';
  else if (tile.status === 'foreign') note = 'found on the network, not of this venue';
  setText(view.note, note);
  view.note.title = tile.status === 'lost' && tile.message !== null ? tile.message : '';
  const door = tile.frontDoor !== null && /^https?:\/\//.test(tile.frontDoor) ? tile.frontDoor : '';
  if (door !== '' && !watched) {
    if (view.door.getAttribute('href') !== door) view.door.href = door;
    setText(view.door, door);
  } else {
    view.door.removeAttribute('href');
    setText(view.door, '');
  }
  setClass(view.root, `tile status-${tile.status} kind-${tile.kind}${tone === '' ? '' : ` tone-${tone}`}${greyed ? ' greyed' : ''}`);
  return next;
}

function start(): void {
  const base = location.pathname.replace(/\/+$/, '');
  const clock = createServerClock(`${base}/time`);
  const grid = document.getElementById('tiles');
  const boxClock = document.getElementById('venue-clock');
  const linkNote = document.getElementById('venue-link');
  if (grid === null) return;
  const views = new Map<string, TileView>();
  let tiles: readonly VenueTile[] = [];
  let pending: ReturnType<typeof setTimeout> | null = null;

  const settingsOf = (): { timeZone: string; clockFormat: '12h' | '24h' } => {
    const own = tiles.length > 0 ? (tiles[0] as VenueTile).snapshot : null;
    return own !== null && own.settings !== undefined ? own.settings : { timeZone: 'UTC', clockFormat: '24h' };
  };
  const sinceText = (ms: number): string => formatTimeOfDay(ms, settingsOf());

  const redraw = (): void => {
    if (pending !== null) clearTimeout(pending);
    pending = null;
    const boxNow = clock.now();
    if (boxNow === null) return;
    if (boxClock !== null) setText(boxClock, formatTimeOfDay(boxNow, settingsOf()));
    let wake = boxNow + MAX_SLEEP_MS - (boxNow % 1000);
    for (let i = 0; i < tiles.length; i += 1) {
      const tile = tiles[i] as VenueTile;
      const view = views.get(tile.id);
      if (view === undefined) continue;
      try {
        const next = drawTile(view, tile, boxNow, sinceText);
        if (next !== null && next < wake) wake = next;
      } catch {
        // One room's odd snapshot spoils its own tile, never the others.
        setText(view.note, 'cannot show this room');
      }
    }
    pending = setTimeout(redraw, Math.max(20, Math.ceil(wake - boxNow)));
  };

  const take = (list: VenueTiles): void => {
    clock.hint(list.serverNow);
    tiles = list.tiles;
    const seen = new Set<string>();
    for (let i = 0; i < tiles.length; i += 1) {
      const tile = tiles[i] as VenueTile;
      seen.add(tile.id);
      let view = views.get(tile.id);
      if (view === undefined) {
        view = makeTile();
        views.set(tile.id, view);
      }
      // In the order the box gives (this room, listed, found by name): appending moves a tile into place.
      grid.appendChild(view.root);
    }
    views.forEach((view, id) => {
      if (seen.has(id)) return;
      view.root.remove();
      views.delete(id);
    });
    redraw();
  };

  const setLink = (up: boolean): void => {
    if (linkNote !== null) linkNote.hidden = up;
    document.body.classList.toggle('link-down', !up);
  };

  const connect = async (): Promise<void> => {
    const response = await fetch(`${base}/events`, { cache: 'no-store', credentials: 'same-origin', headers: { Accept: 'text/event-stream' } });
    if (!response.ok || response.body === null) throw new Error(`stream answered ${response.status}`);
    const reader = response.body.getReader();
    const parse = createSseParser((event) => {
      if (event.event !== VENUE_EVENT) return;
      let list: VenueTiles;
      try {
        list = JSON.parse(event.data) as VenueTiles;
      } catch {
        return;
      }
      setLink(true);
      take(list);
    });
    await readStreamText(reader, parse, SILENCE_MS);
  };

  const run = (): void => {
    connect().then(lost, lost);
  };
  const lost = (): void => {
    setLink(false);
    setTimeout(run, 1_000 + Math.random() * 2_000);
  };

  const resync = (): void => {
    clock.sync().then(
      (changed) => {
        if (changed) redraw();
      },
      () => {},
    );
  };
  run();
  resync();
  for (let i = 0; i < RESYNCS_MS.length; i += 1) setTimeout(resync, RESYNCS_MS[i]);
  setInterval(resync, RESYNC_MS);
}

start();
