// The control console (/control/{api_key}). It acts only through the public API
// and learns the room's state from the push channel, rendering the newest
// snapshot by seq, so several consoles and button panels can act at once. The
// keys come from the page's data- attributes (the CSP allows no inline script).
// The screens' own look first: the live preview draws with it (control.css then places it).
import '../display/screen.css';
import './control.css';
import type { Snapshot } from '../../domain/snapshot.js';
import { startLiveStream } from '../display/live-stream.js';
import { createServerClock, snapshotSaysStep } from '../../client/server-clock.js';
import { scheduleAtEstimate } from '../../client/schedule-clock.js';
import { ApiClient } from './api-client.js';
import { AuxPanel } from './aux-panel.js';
import { installCopyButtons } from './copy-buttons.js';
import { CsvPanel } from './csv-panel.js';
import { DisplayPanel } from './display-panel.js';
import { byId, setText } from './elements.js';
import { LatestSnapshot } from './latest-snapshot.js';
import { MessageComposer } from './message-composer.js';
import { MessagePresets } from './message-presets.js';
import { Notices } from './notices.js';
import { Preview } from './preview.js';
import { QuestionsPanel } from './questions-panel.js';
import { RoomCommands } from './room-commands.js';
import { RunningOrder } from './running-order.js';
import { SettingsPanel } from './settings-panel.js';
import { ShowLine } from './show-line.js';
import { StorageBanner } from './storage-banner.js';
import { ClockBanner } from './clock-banner.js';
import { TagsPanel } from './tags-panel.js';
import { installShortcuts } from './shortcuts.js';
import { TransportPanel } from './transport-panel.js';

/** How often the clock offset is estimated again, as on the display. */
const RESYNC_MS = 60_000;
/**
 * How often what follows the clock (the header line, the projected starts, the aux
 * timer) is worked out again between events. Their changes fall on no common beat
 * (each timer ends at its own millisecond), so they are checked often; only what
 * differs is written.
 */
const FOLLOW_MS = 250;

function start(): void {
  const apiKey = document.body.getAttribute('data-api-key') ?? '';
  const viewerKey = document.body.getAttribute('data-viewer-key') ?? '';
  const storage = new StorageBanner();
  const api = new ApiClient(apiKey, (response) => storage.fromAnswer(response));
  const latest = new LatestSnapshot();
  const notices = new Notices();
  const commands = new RoomCommands(api, latest, notices);
  // Offset estimation uses the viewer's time endpoint, which never spends the API key's quota.
  const clock = createServerClock(`/view/${encodeURIComponent(viewerKey)}/time`);
  const connection = byId('connection', HTMLSpanElement);
  let live = false;

  /** Reads the state when the stream cannot bring it; every read spends quota, so only then. */
  const readState = (why: string): void => {
    void api.state().then((result) => {
      if (result.ok) latest.offer(result.value);
      else notices.error(why, result.error);
    });
  };

  const transport = new TransportPanel(commands);
  const composer = new MessageComposer(commands);
  new MessagePresets(commands, () => composer.draft());
  const settings = new SettingsPanel(commands, () => clock.now());
  const tags = new TagsPanel(commands);
  const display = new DisplayPanel(commands);
  const order = new RunningOrder(commands, () => {
    if (!live) readState('Running order');
  });
  new CsvPanel(commands);
  const questions = new QuestionsPanel(commands);
  const preview = new Preview(clock, viewerKey);
  const showLine = new ShowLine();
  const aux = new AuxPanel(commands);
  // The box's clock: a banner while it is not synchronised; setting it makes this page measure the box's time again.
  const boxClock = new ClockBanner(api, () => clock.now(), notices, () => sync());
  /** What moves with the clock, from the newest snapshot at the server's time as estimated here. */
  const follow = (): void => {
    const snapshot = latest.current;
    if (snapshot === null) return;
    const nowMs = clock.now() ?? snapshot.serverNow;
    const schedule = scheduleAtEstimate(snapshot, nowMs);
    showLine.render(schedule, snapshot.settings);
    transport.follow(snapshot, nowMs);
    order.renderSchedule(schedule, snapshot);
    aux.follow(snapshot, nowMs);
    boxClock.follow();
  };
  latest.subscribe((snapshot: Snapshot) => {
    transport.render(snapshot);
    composer.render(snapshot);
    settings.render(snapshot);
    tags.render(snapshot);
    display.render(snapshot);
    order.render(snapshot);
    questions.render(snapshot);
    preview.show(snapshot);
    aux.render(snapshot);
    boxClock.render(snapshot);
    // After the preview, which gives the clock its first estimate (the snapshot's serverNow).
    follow();
    document.body.setAttribute('data-seq', String(snapshot.seq));
  });

  let syncing = false;
  const sync = (): void => {
    if (syncing) return;
    syncing = true;
    clock.sync().then(
      (changed) => {
        syncing = false;
        if (changed) preview.redraw();
      },
      () => {
        syncing = false;
      },
    );
  };

  let firstOfConnection = true;
  startLiveStream(
    `/api/v1/${encodeURIComponent(apiKey)}/events`,
    {
      onSnapshot(snapshot) {
        // The box's clock stepped (set by hand, NTP): measure again now, so the preview's running time stays where it was.
        if (snapshotSaysStep(clock, snapshot.serverNow)) {
          clock.stepped(snapshot.serverNow);
          sync();
        }
        // The first snapshot of a connection is the box's present even if its seq is
        // lower (a box restarted without saved state); later ones only if newer.
        if (firstOfConnection) latest.replace(snapshot);
        else latest.offer(snapshot);
        firstOfConnection = false;
      },
      onEvent(name, data) {
        if (name === 'storage') storage.fromEvent(data);
      },
      onLink(up) {
        live = up;
        firstOfConnection = up;
        connection.className = up ? 'live' : 'lost';
        setText(connection, up ? 'live' : 'reconnecting…');
        preview.setLink(up);
        if (up) {
          storage.connected();
          sync();
        } else {
          // Find out why in words (a changed key, the rate limit), and keep the console usable meanwhile.
          readState('Live updates lost');
        }
      },
    },
    // An operator's half-typed message matters more than a fresh page: reloading is theirs to choose.
    { reloadAfterMs: Number.POSITIVE_INFINITY },
  );

  sync();
  setInterval(sync, RESYNC_MS);
  boxClock.start();
  setInterval(follow, FOLLOW_MS);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState !== 'visible') return;
    sync();
    preview.redraw();
  });

  installShortcuts({
    startPause: () => transport.startPause(),
    next: () => transport.next(),
    previous: () => transport.previous(),
    blackout: () => transport.blackout(),
    onAir: () => transport.onAir(),
  });
  installCopyButtons();
}

start();
