// The display page (the kiosk at /display and every viewer at /view/{viewer_key}).
// It shows the server's state at the server's time: the offset to the server's
// clock is estimated from round trips, the remaining time comes from endAt /
// remainingAtPause, and the page redraws only at the next instant something
// visible changes (a second boundary, a flash, a new snapshot), never in a loop.
// The screen's look first (shared with the console's preview), then the page around it.
// Beside the time it may show how the show stands (over/under, its end) and the
// aux timer (screen-extras.ts); a link with `?show=aux` makes the aux its main time.
import './screen.css';
import './display.css';
import type { Snapshot } from '../../domain/snapshot.js';
import { createChimePlayer } from './chime.js';
import { cuesOf, dueCues, nextCueAt, type Cue } from './chime-cues.js';
import { faceAt } from '../../client/face.js';
import { auxDisplayState } from '../../client/aux-display.js';
import { extrasAt, type ExtrasChoice } from '../../client/screen-extras.js';
import { keepAwake } from './keep-awake.js';
import { startLiveStream } from './live-stream.js';
import { createScreen } from './screen.js';
import { createServerClock, snapshotSaysStep } from '../../client/server-clock.js';
import { viewOptions } from './view-options.js';

/**
 * The kiosk (/display, on the box's own HDMI output) shows a small warning while the box's
 * clock is not synchronised (issue 33). Its time answer says so beside serverNow, so the
 * warning rides on the clock's own round trips (at load, in the first 30 s, then every
 * minute) and costs no request of its own; viewer links are not told.
 */
function kioskTimeReader(warning: HTMLElement): (url: string) => Promise<number> {
  return async (url) => {
    const response = await fetch(url, { cache: 'no-store', credentials: 'same-origin' });
    if (!response.ok) throw new Error(`time endpoint answered ${response.status}`);
    const body = (await response.json()) as { serverNow?: unknown; clockSynced?: unknown };
    if (typeof body.serverNow !== 'number') throw new Error('time endpoint gave no serverNow');
    warning.hidden = body.clockSynced !== false;
    return body.serverNow;
  };
}

/** When the clock offset is estimated again after the first burst: soon (the page was busy loading), then now and then. */
const EARLY_RESYNCS_MS = [1_500, 5_000, 15_000, 30_000];
const RESYNC_MS = 60_000;

/** The extras the room's display settings switch on; the aux's small area is not shown on a screen whose main time it is. */
function extrasChoice(state: Snapshot, auxIsMain: boolean): ExtrasChoice {
  const display = state.display;
  // An older box sends no display settings: nothing beyond what the display always showed.
  if (display === undefined) return { overUnder: false, showEnd: false, aux: false };
  return { overUnder: display.showOverUnder, showEnd: display.showShowEnd, aux: display.showAux && !auxIsMain };
}

function start(): void {
  // A link may ask for its own layout (`?layout=minimal` for a phone) and main time (`?show=aux`); the room's settings stay as they are.
  const options = viewOptions(location.search);
  const ownLayout = options.layout;
  const auxIsMain = options.show === 'aux';
  // The stream and time endpoints sit under the page's own path, so no key is written into the page.
  const base = location.pathname.replace(/\/+$/, '');
  const warning = base === '/display' ? document.getElementById('clock-warning') : null;
  const clock = createServerClock(`${base}/time`, warning === null ? {} : { fetchTime: kioskTimeReader(warning) });
  const screen = createScreen();
  let state: Snapshot | null = null;
  let pending: ReturnType<typeof setTimeout> | null = null;
  let syncing = false;
  const chime = createChimePlayer();
  const soundButton = document.getElementById('sound');
  /** The server instant of the last redraw, and the cues of the state drawn then: a cue between it and now plays. */
  let lastDrawnAt: number | null = null;
  let lastCues: Cue[] = [];
  const played = new Set<string>();

  const showSoundButton = (): void => {
    if (soundButton === null) return;
    const wanted = state !== null && (state.settings.chimeAtZero || state.settings.chimeAtWarning);
    soundButton.hidden = !(wanted && chime.needsTap());
  };
  if (soundButton !== null) {
    soundButton.addEventListener('click', () => {
      chime.unlock();
      soundButton.hidden = true;
    });
  }
  chime.onChange(showSoundButton);

  const redraw = (): void => {
    if (pending !== null) {
      clearTimeout(pending);
      pending = null;
    }
    const nowMs = clock.now();
    if (state === null || nowMs === null) return;
    // The aux as the main time: the same face logic, with the aux standing as the active timer.
    const drawn = faceAt(auxIsMain ? auxDisplayState(state) : state, nowMs);
    screen.render(drawn.face);
    const extras = extrasAt(state, extrasChoice(state, auxIsMain), nowMs);
    screen.renderExtras(extras.extras);
    // The chime plays in the same turn as the digits it goes with; the previous
    // state's cues count too (a pause at zero may arrive just before the wake-up).
    // A screen whose main time is the aux chimes with the aux's zero, not the running order's (a test chime plays on every screen).
    const cues = cuesOf(auxIsMain ? { ...auxDisplayState(state), settings: state.settings, chimeTestAt: state.chimeTestAt } : state);
    if (lastDrawnAt !== null) {
      const due = dueCues(lastCues.concat(cues), lastDrawnAt, nowMs, played);
      for (let i = 0; i < due.length; i += 1) chime.play((due[i] as Cue).kind, state.settings.chimeVolume);
      if (played.size > 50) played.clear();
    }
    lastDrawnAt = nowMs;
    lastCues = cues;
    // A timer that fires a hair early redraws nothing and lands here again for the rest.
    let nextChangeAt: number | null = null;
    const candidates = [drawn.nextChangeAt, nextCueAt(cues, nowMs), extras.nextChangeAt];
    for (let i = 0; i < candidates.length; i += 1) {
      const at = candidates[i];
      if (at !== null && at !== undefined && (nextChangeAt === null || at < nextChangeAt)) nextChangeAt = at;
    }
    if (nextChangeAt !== null) pending = setTimeout(redraw, Math.max(0, Math.ceil(nextChangeAt - nowMs)));
  };

  const resync = (): void => {
    if (syncing) return;
    syncing = true;
    clock.sync().then(
      (changed) => {
        syncing = false;
        if (changed) redraw();
      },
      () => {
        syncing = false;
      },
    );
  };

  startLiveStream(`${base}/events`, {
    onSnapshot(snapshot) {
      // The box's clock stepped (set by hand, NTP): measure again now, so a running time stays where it was.
      if (snapshotSaysStep(clock, snapshot.serverNow)) {
        clock.stepped(snapshot.serverNow);
        resync();
      }
      clock.hint(snapshot.serverNow);
      state = snapshot;
      // An older box sends no display settings: the look stays the stylesheet's own.
      if (snapshot.display !== undefined) screen.setLook(ownLayout === null ? snapshot.display : { ...snapshot.display, layout: ownLayout });
      redraw();
      showSoundButton();
    },
    onLink(up) {
      screen.setLink(up);
      if (up) resync();
    },
  });
  resync();
  for (const delayMs of EARLY_RESYNCS_MS) setTimeout(resync, delayMs);
  setInterval(resync, RESYNC_MS);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState !== 'visible') return;
    resync();
    redraw();
  });
  keepAwake();
}

start();
