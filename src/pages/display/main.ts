// The display page (the kiosk at /display and every viewer at /view/{viewer_key}).
// It shows the server's state at the server's time: the offset to the server's
// clock is estimated from round trips, the remaining time comes from endAt /
// remainingAtPause, and the page redraws only at the next instant something
// visible changes (a second boundary, a flash, a new snapshot), never in a loop.
// The screen's look first (shared with the console's preview), then the page around it.
import './screen.css';
import './display.css';
import type { Snapshot } from '../../domain/snapshot.js';
import { createChimePlayer } from './chime.js';
import { cuesOf, dueCues, nextCueAt, type Cue } from './chime-cues.js';
import { faceAt } from '../../client/face.js';
import { keepAwake } from './keep-awake.js';
import { startLiveStream } from './live-stream.js';
import { DISPLAY_LAYOUTS, type DisplayLayout } from '../../domain/types.js';
import { createScreen } from './screen.js';
import { createServerClock } from '../../client/server-clock.js';

/** When the clock offset is estimated again after the first burst: soon (the page was busy loading), then now and then. */
const EARLY_RESYNCS_MS = [1_500, 5_000, 15_000, 30_000];
const RESYNC_MS = 60_000;

/** A viewer link may ask for its own layout (`?layout=minimal` for a phone); the room's settings stay as they are. */
function layoutAsked(): DisplayLayout | null {
  const asked = new URLSearchParams(location.search).get('layout');
  for (let i = 0; i < DISPLAY_LAYOUTS.length; i += 1) if (DISPLAY_LAYOUTS[i] === asked) return asked;
  return null;
}

function start(): void {
  const ownLayout = layoutAsked();
  // The stream and time endpoints sit under the page's own path, so no key is written into the page.
  const base = location.pathname.replace(/\/+$/, '');
  const clock = createServerClock(`${base}/time`);
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
    const drawn = faceAt(state, nowMs);
    screen.render(drawn.face);
    // The chime plays in the same turn as the digits it goes with; the previous
    // state's cues count too (a pause at zero may arrive just before the wake-up).
    const cues = cuesOf(state);
    if (lastDrawnAt !== null) {
      const due = dueCues(lastCues.concat(cues), lastDrawnAt, nowMs, played);
      for (let i = 0; i < due.length; i += 1) chime.play((due[i] as Cue).kind, state.settings.chimeVolume);
      if (played.size > 50) played.clear();
    }
    lastDrawnAt = nowMs;
    lastCues = cues;
    // A timer that fires a hair early redraws nothing and lands here again for the rest.
    const faceNext = drawn.nextChangeAt;
    const cueNext = nextCueAt(cues, nowMs);
    const nextChangeAt = faceNext === null ? cueNext : cueNext === null ? faceNext : Math.min(faceNext, cueNext);
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
