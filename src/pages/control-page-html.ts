// The HTML of the control console. Static parts (buttons, the key panel, the
// QR code) are rendered here; src/pages/control/ wires them and fills in what
// comes from the snapshot. No inline script or style: the keys reach the script
// through data- attributes, so the page's CSP can allow only the box's own files.
import { DISPLAY_HTML } from './display-html.js';
import { MESSAGE_MAX_CHARS } from '../domain/limits.js';
import { escapeHtml } from './html-text.js';
import { pageHead } from './page-head.js';

export interface ControlPageView {
  readonly apiKey: string;
  readonly viewerKey: string;
  /** `http://host:port` as people on the LAN reach the box: `publicUrl`, or the box's own address (never the request's Host). */
  readonly origin: string;
  readonly viewerUrl: string;
  /** An `<svg>` element, generated on the server from the viewer link. */
  readonly qrSvg: string;
  /** The audience link (`/ask/{audience_key}`), where people in the hall send questions. */
  readonly askUrl: string;
  /** An `<svg>` element: the audience link's QR code (ask-link.ts). */
  readonly askQrSvg: string;
}

export const CONTROL_SCRIPT_SRC = '/assets/control.js';
export const CONTROL_STYLE_HREF = '/assets/control.css';

export { escapeHtml };

/** Copy-ready GET URLs for button panels (Companion's generic HTTP module, Stream Deck, scripts). */
export function buttonPanelExamples(origin: string, apiKey: string): readonly { readonly label: string; readonly url: string }[] {
  const base = `${origin}/api/v1/${apiKey}`;
  return [
    { label: 'Start / pause', url: `${base}/toggle` },
    { label: 'Start', url: `${base}/start` },
    { label: 'Pause', url: `${base}/pause` },
    { label: 'Next timer', url: `${base}/next` },
    { label: 'Previous timer', url: `${base}/previous` },
    { label: 'Reset', url: `${base}/reset` },
    { label: 'Add 1 minute', url: `${base}/adjust?ms=60000` },
    { label: 'Remove 1 minute', url: `${base}/adjust?ms=-60000` },
    { label: 'Blackout on/off', url: `${base}/toggle_blackout` },
    { label: 'ON AIR on/off', url: `${base}/toggle_onair` },
    { label: 'Flash every screen 3 times', url: `${base}/flash?count=3` },
    { label: 'Aux timer start / pause', url: `${base}/aux_toggle` },
    { label: 'Message', url: `${base}/message/set?text=Please%20wrap%20up&color=red&bold=1&flash=1` },
    { label: 'Clear message', url: `${base}/message/clear` },
    { label: 'Select a timer', url: `${base}/timer/TIMER_ID/select` },
    { label: 'Read the state', url: `${base}/state` },
  ];
}

function copyField(id: string, value: string, label: string): string {
  return `<div class="copy"><input id="${id}" type="text" readonly value="${escapeHtml(value)}" aria-label="${escapeHtml(label)}"><button type="button" data-copy="${id}">Copy</button></div>`;
}

/**
 * The display's own screen markup (display-html.ts) for the console's live preview: the
 * same elements and classes, so screen.css and screen.ts draw it exactly as they draw a
 * screen, and a change to the display's markup reaches the preview by itself. The ids get
 * a `pv-` prefix (the console has ids of its own) and <main> becomes a <div> (the console
 * has its own main).
 */
export function previewScreenHtml(displayHtml: string = DISPLAY_HTML): string {
  const from = displayHtml.indexOf('<main id="screen"');
  const to = displayHtml.indexOf('<button type="button" id="sound"');
  if (from < 0 || to < from) throw new Error('control page: the display markup has no screen to preview');
  return displayHtml
    .slice(from, to)
    .trim()
    .replace(/<(\/?)main\b/g, '<$1div')
    .replace(/ id="/g, ' id="pv-');
}

/** Worked out once: the display's markup is fixed at build time. */
const PREVIEW_SCREEN_HTML = previewScreenHtml();

const LAYOUT_BUTTONS = [
  ['full', 'Full'],
  ['minimal', 'Time only'],
  ['lowerThird', 'Lower third'],
] as const;

/** Background shortcuts: black, and the usual chroma-key green and blue. */
const BACKGROUNDS = [
  ['#000000', 'Black'],
  ['#00b140', 'Chroma green'],
  ['#0047bb', 'Chroma blue'],
] as const;

/** The Display panel: every display setting and the logo, each row its own, so an error lands under the control that caused it. */
function displayPanelHtml(): string {
  const colour = (id: string, label: string) => `<label class="colour-field"><input id="${id}" type="color"> ${label}</label>`;
  return `<section id="display-panel" aria-labelledby="h-display">
<h2 id="h-display">Display</h2>
<div class="row" role="group" aria-label="Layout">Layout: ${LAYOUT_BUTTONS.map(([value, text]) => `<button type="button" data-layout="${value}" aria-pressed="false">${text}</button>`).join(' ')}</div>
<div class="row" role="group" aria-label="Background">${colour('display-background', 'Background')} ${BACKGROUNDS.map(([value, text]) => `<button type="button" data-background="${value}">${text}</button>`).join(' ')}</div>
<div class="row" role="group" aria-label="Colours of the time">${colour('display-normal', 'Time')} ${colour('display-warning', 'Warning')} ${colour('display-overrun', 'Red / overrun')} <button type="button" id="display-default-colours">Default colours</button></div>
<div class="row"><label for="display-size">Time size</label> <input id="display-size" type="range" min="50" max="150" step="5"> <output id="display-size-value" for="display-size"></output></div>
<div class="row" id="display-show" role="group" aria-label="Shown on the screens">Show:</div>
<div class="row logo-row"><span class="logo-thumb"><img id="display-logo" alt="The room's logo" hidden><span id="display-logo-none">No logo</span></span> <label id="display-logo-file-label" for="display-logo-file">Upload a logo</label> <input id="display-logo-file" type="file" accept="image/png,image/jpeg,image/svg+xml,image/webp,.png,.jpg,.jpeg,.svg,.webp"> <button type="button" id="display-logo-remove" disabled>Remove logo</button></div>
<p class="hint">Every change shows on every screen at once. The logo: PNG, JPEG, SVG or WebP, at most 1 MB, top left on the full layout.</p>
</section>`;
}

/**
 * The Questions panel: what is on the screens, the filter (its buttons made by the script,
 * one per state), the list (filled from the snapshots) and clearing the answered ones.
 */
function questionsPanelHtml(): string {
  return `<section id="questions" aria-labelledby="h-questions">
<h2 id="h-questions">Audience questions <span id="questions-new" class="q-count" hidden></span></h2>
<div class="row">On screen: <span id="questions-current" class="msg-none">none</span> <button type="button" id="questions-unshow" hidden>Take off screen</button> <span id="questions-screens-off" class="hint" hidden>The screens do not show it: Display › Show › Audience question is off.</span></div>
<div class="row" id="questions-filters" role="group" aria-label="Which questions">List:</div>
<ul id="question-list" class="question-list" aria-label="Audience questions"></ul>
<p id="questions-empty" class="hint">No questions yet.</p>
<div class="row"><button type="button" id="questions-clear" disabled>Clear answered</button> <a href="#ask-link" class="q-link">Audience link and QR code</a></div>
</section>`;
}

/** The aux timer: a second countdown or count-up beside the running order, its time drawn by the script. */
function auxPanelHtml(): string {
  return `<section id="aux" aria-labelledby="h-aux">
<h2 id="h-aux">Aux timer</h2>
<div class="row"><span id="aux-time" class="aux-clock" role="timer" aria-label="Aux timer">–</span>
<button type="button" id="aux-start-pause">Start</button> <button type="button" id="aux-reset">Reset</button>
<span role="group" aria-label="Adjust the aux timer"><button type="button" data-aux-adjust-ms="-60000">−1 min</button> <button type="button" data-aux-adjust-ms="60000">+1 min</button></span></div>
<div class="row"><label for="aux-duration">Duration</label> <input id="aux-duration" class="aux-duration-field" type="text" autocomplete="off" spellcheck="false">
<span role="group" aria-label="The aux timer counts"><button type="button" data-aux-appearance="countdown" aria-pressed="false">Countdown</button> <button type="button" data-aux-appearance="countup" aria-pressed="false">Count up</button></span></div>
<div class="row"><label for="aux-label">Label</label> <input id="aux-label" class="aux-label-field" type="text" maxlength="200" placeholder="e.g. Changeover" autocomplete="off"></div>
<p class="hint">Apart from the running order: Next never moves it. A new duration resets it. The screens show it when Display › Show › Aux timer is on.</p>
</section>`;
}

/** The adjusts beside Reset; −1 and +1 min are in the band itself (pinned on a phone). */
const ADJUSTS_MS = [-300_000, -10_000, 10_000, 300_000] as const;

function adjustButton(ms: number): string {
  const abs = Math.abs(ms);
  const text = `${ms < 0 ? '−' : '+'}${abs >= 60_000 ? `${abs / 60_000} min` : `${abs / 1000} s`}`;
  return `<button type="button" data-adjust-ms="${ms}">${text}</button>`;
}

export function renderControlPage(view: ControlPageView): string {
  const examples = buttonPanelExamples(view.origin, view.apiKey)
    .map(
      (example, i) => `<span>${escapeHtml(example.label)}</span>${copyField(`example-${i}`, example.url, `URL: ${example.label}`)}`,
    )
    .join('');
  return `${pageHead({ title: 'Showclock control', stylesheet: CONTROL_STYLE_HREF, script: CONTROL_SCRIPT_SRC })}
<body data-api-key="${escapeHtml(view.apiKey)}" data-viewer-key="${escapeHtml(view.viewerKey)}">
<header id="top"><h1>Showclock control</h1><span id="connection" role="status">connecting…</span><a id="questions-badge" class="q-badge" href="#questions" aria-live="polite" hidden></a><strong id="show-state" role="status" aria-live="assertive"></strong></header>
<div id="storage-banner" role="alert" hidden><strong>Not saving</strong> <span id="storage-banner-text"></span></div>
<div id="clock-banner" role="alert" hidden><strong>Clock</strong> <span id="clock-banner-text"></span> <span id="clock-offset"></span> <button type="button" id="clock-set">Set the box's clock from this device</button></div>
<div id="notice" role="alert" hidden><span id="notice-text"></span><button type="button" id="notice-close" aria-label="Dismiss">✕</button></div>
<noscript><p>The control console needs JavaScript. The API and the URLs below work without it.</p></noscript>
<!-- Before main and sticky in the body: the transport stays in view wherever the page is scrolled. On a
     phone only its band (#transport-band: the time left, start/pause, previous, next, ±1 min) stays
     pinned; the rest (#transport-more) scrolls away with the page (control.css). -->
<section id="transport" aria-labelledby="h-transport">
<div id="transport-band">
<div class="transport-head"><h2 id="h-transport">Transport</h2><span id="band-time" class="band-time" role="timer" aria-label="Time left on the active timer">–</span><span id="show-line" class="show-line" role="timer" aria-label="Where the show stands"></span></div>
<div class="row band-keys">
<button type="button" id="start-pause" class="big"><span id="start-pause-text">Start</span><kbd>Space</kbd></button>
<button type="button" id="previous" aria-label="Previous timer">◀<span class="word"> Previous</span><kbd>P</kbd></button>
<button type="button" id="next" aria-label="Next timer"><span class="word">Next </span>▶<kbd>N</kbd></button>
<span class="band-adjust" role="group" aria-label="Adjust by a minute">${adjustButton(-60_000)}${adjustButton(60_000)}</span>
</div>
</div>
<div id="transport-more">
<div class="row" role="group" aria-label="Adjust the remaining time"><button type="button" id="reset">Reset</button>${ADJUSTS_MS.map(adjustButton).join('')}</div>
<div class="row">
<button type="button" id="blackout" aria-pressed="false">Blackout<kbd>B</kbd></button>
<button type="button" id="onair" aria-pressed="false">ON AIR<kbd>O</kbd></button>
<!-- The tally beside ON AIR (tally-indicator.ts): shown once a tally source has reported, never without one. -->
<span id="tally" class="tally" hidden><span id="tally-pill" class="tally-pill"><span class="tally-lamp" aria-hidden="true"></span><span id="tally-state" class="tally-state"></span> <span id="tally-sources" class="tally-sources"></span></span><span id="tally-by-hand" class="tally-by-hand" hidden></span></span>
<button type="button" id="flash-screens">Flash screens</button>
</div>
<!-- The screen over HDMI-CEC (screen-control.ts): shown only on a box with a screen configured. -->
<div id="screen-control" class="row screen-control" role="group" aria-label="The screen (HDMI-CEC)" hidden><span id="screen-power" class="screen-power" role="status"></span><button type="button" id="screen-on">Switch on</button><button type="button" id="screen-standby">Standby</button><button type="button" id="screen-active">Make active</button></div>
<p class="hint">Keys: <kbd>Space</kbd> start/pause · <kbd>N</kbd> next · <kbd>P</kbd> previous · <kbd>B</kbd> blackout · <kbd>O</kbd> ON AIR. Not while you type in a field.</p>
</div>
</section>
<main>
<div>
<section aria-labelledby="h-preview">
<h2 id="h-preview">On the screens</h2>
<div class="preview" id="preview" role="img" aria-label="Preview of the display">
${PREVIEW_SCREEN_HTML}
</div>
<div class="preview-meta"><span id="pv-state">–</span><span id="pv-coming"></span></div>
</section>
${auxPanelHtml()}
${displayPanelHtml()}
</div>
<div>
<section aria-labelledby="h-message">
<h2 id="h-message">Message</h2>
<!-- Several lines to read a long message back; no maxlength, which would cut a paste silently: the
     counter says how long it is against the room's limit, and Show refuses a text over it (message-composer.ts). -->
<textarea id="msg-text" rows="3" placeholder="Message for the stage" aria-label="Message text" aria-describedby="msg-count msg-limit-reason" spellcheck="true"></textarea>
<div class="row msg-under"><span id="msg-count" class="msg-count">0 / ${MESSAGE_MAX_CHARS}</span><span class="hint msg-limit">At most ${MESSAGE_MAX_CHARS} characters · <kbd>Enter</kbd> shows it</span><span class="msg-actions"><button type="button" id="msg-show">Show</button><button type="button" id="msg-clear">Clear</button></span></div>
<p id="msg-limit-reason" class="msg-over-reason" role="alert" hidden></p>
<div class="row">
<span role="group" aria-label="Colour"><button type="button" data-color="white" aria-pressed="true">White</button> <button type="button" data-color="green" aria-pressed="false">Green</button> <button type="button" data-color="red" aria-pressed="false">Red</button></span>
<button type="button" id="msg-bold" aria-pressed="false"><b>Bold</b></button>
<button type="button" id="msg-flash" aria-pressed="false">Flash</button>
</div>
<div class="row">On screen: <span id="msg-current" class="msg-none">none</span></div>
<div class="row"><button type="button" id="preset-save">Save as preset</button><span class="hint">Presets: one click shows one. Kept in this browser only.</span></div>
<ul id="msg-presets" class="preset-list" aria-label="Message presets"></ul>
</section>
${questionsPanelHtml()}
<section aria-labelledby="h-settings">
<h2 id="h-settings">Settings</h2>
<div class="row" role="group" aria-label="At zero">At zero:
<button type="button" data-zero="continue" aria-pressed="false">Continue (overrun)</button>
<button type="button" data-zero="stop" aria-pressed="false">Stop</button>
<button type="button" data-zero="hide" aria-pressed="false">Hide time</button>
</div>
<div class="row"><button type="button" id="auto-advance" aria-pressed="false">Auto-advance to the next timer</button></div>
<div class="row"><label for="time-zone">Time zone</label> <input id="time-zone" type="text" maxlength="64" placeholder="Europe/Berlin" autocomplete="off" spellcheck="false"><button type="button" id="time-zone-set">Set</button>
<span role="group" aria-label="Clock format"><button type="button" data-clock-format="24h" aria-pressed="false">24 h</button> <button type="button" data-clock-format="12h" aria-pressed="false">12 h</button></span></div>
<div class="row" role="group" aria-label="Chime"><button type="button" id="chime-zero" aria-pressed="false">Chime at zero</button> <button type="button" id="chime-warning" aria-pressed="false">Chime at warning</button>
<label for="chime-volume">Volume</label> <input id="chime-volume" type="range" min="0" max="100" step="5"> <button type="button" id="chime-test">Test chime</button></div>
<div class="row" role="group" aria-label="The show's schedule"><label for="planned-start">Show starts at</label> <input id="planned-start" type="text" placeholder="19:30" autocomplete="off" spellcheck="false"><button type="button" id="planned-start-set">Set</button><button type="button" id="planned-start-clear">Clear</button>
<button type="button" id="show-reset">Reset show</button></div>
<p class="hint">Show starts at: the planned start of the first timer (19:30, 7:30 pm or 2026-11-24 09:00 in the room's time zone; a time without a date is the nearest one); each timer is planned to start when the one before ends, or at its own Starts at. Reset show (press twice) forgets the actual times and makes the first timer active again.</p>
</section>
<section aria-labelledby="h-tags">
<h2 id="h-tags">Tags</h2>
<ul id="tag-list" class="tag-list"></ul>
<div class="row"><input id="tag-name" type="text" maxlength="40" placeholder="New tag, e.g. Main stage" aria-label="New tag name" autocomplete="off"><input id="tag-colour" type="color" value="#0a84ff" aria-label="New tag colour"><button type="button" id="tag-add">Add tag</button></div>
<p class="hint">A timer's tag is chosen in the running order; the display shows the active timer's tag above its title.</p>
</section>
</div>
<section class="wide" aria-labelledby="h-order">
<h2 id="h-order">Running order</h2>
<div class="order-wrap"><table id="order-table">
<colgroup><col class="w-pos"><col class="w-label"><col class="w-speaker"><col class="w-dur"><col class="w-warn"><col class="w-warn"><col class="w-at"><col class="w-at"><col class="w-when"><col class="w-when"><col class="w-shows"><col class="w-shows"><col class="w-actions"></colgroup>
<thead><tr><th>#</th><th>Label</th><th>Speaker</th><th>Duration</th><th>Warn at</th><th>Red at</th><th>Starts at</th><th>Ends at</th><th title="When it is planned to start">Planned</th><th title="When it started, or ~ when it will start as things stand">Actual</th><th>Shows</th><th>Tag</th><th></th></tr></thead>
<tbody id="order"></tbody>
</table></div>
<div class="row"><button type="button" id="add-timer">+ Add timer</button> <button type="button" id="order-times" aria-pressed="false" title="The Starts at and Ends at columns: shown by themselves once a timer has one">Starts at / Ends at</button> <label for="csv-file">Import CSV</label> <input id="csv-file" type="file" accept=".csv,text/csv"> <button type="button" id="csv-import" hidden>Add timers to the end</button> <button type="button" id="csv-export">Export CSV</button></div>
<p id="order-total" class="order-total"></p>
<p id="csv-status" class="hint" role="status"></p>
<p class="hint">Durations: 10:00, 1:30:00, 90s, 5m. Red at 0 is none. Starts at (the timer starts by itself) and Ends at (counts to that time; both columns shown by the Starts at / Ends at button, or once a timer has one): 19:30, 7:30 pm or 2026-11-24 09:00 in the room's time zone; empty for none. Enter saves a field, Esc undoes it. Planned: when each timer is planned to start (Settings › Show starts at); Actual: when it started, or <i>~</i> when it will as things stand.</p>
</section>
</main>
<section class="links" aria-labelledby="h-links">
<h2 id="h-links">Links and keys</h2>
<div class="viewer">
${view.qrSvg}
<div>
<label for="viewer-url">Viewer link (phones, tablets, confidence monitors: watch only)</label>
${copyField('viewer-url', view.viewerUrl, 'Viewer link')}
<label for="viewer-aux-url">Aux timer link (the second timer as the screen's main time: a speaker's own stopwatch)</label>
${copyField('viewer-aux-url', `${view.viewerUrl}?show=aux`, 'Aux timer link')}
<label for="api-key">API key (full control of the room: keep it private)</label>
${copyField('api-key', view.apiKey, 'API key')}
<label for="api-base">API base</label>
${copyField('api-base', `${view.origin}/api/v1/${view.apiKey}`, 'API base')}
</div>
</div>
<div class="viewer" id="ask-link">
${view.askQrSvg}
<div>
<label for="ask-url">Audience link (phones in the hall send questions here; the display setting “Audience link” puts this code on the screens)</label>
${copyField('ask-url', view.askUrl, 'Audience link')}
</div>
</div>
<h3 class="sub">Button panels (Companion: Generic HTTP module, GET request)</h3>
<div class="examples">${examples}</div>
<p class="hint">Timer ids are shown under each number in the running order. Older panels can keep using /api/v0/.</p>
</section>
</body>
</html>
`;
}
