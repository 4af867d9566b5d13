// The box's front door: GET / is a short page that says what the box is and how
// to open the console and the viewer, and /favicon.svg (and /favicon.ico, which
// browsers ask for by themselves) its icon. No key is ever written into the page:
// the console's link is opened by typing the key, or pasting the whole link, into
// a field, which the page's script turns into /control/{key} (or /view/{key}).
import type { Hono } from 'hono';
import type { AppEnv } from '../web/env.js';
import { answer } from '../web/answer.js';
import { CONTROL_STYLE_HREF } from './control-page-html.js';
import { pageHead } from './page-head.js';
import { pageHeaders } from './page-headers.js';

export const HOME_SCRIPT_SRC = '/assets/home.js';

/** A white clock face with a red hand: readable at 16 px in a tab. */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">
<rect width="64" height="64" rx="14" fill="#111"/>
<circle cx="32" cy="34" r="21" fill="none" stroke="#fff" stroke-width="6"/>
<rect x="27" y="4" width="10" height="7" rx="2" fill="#fff"/>
<path d="M32 34 L32 19" stroke="#ff3b30" stroke-width="6" stroke-linecap="round"/>
</svg>
`;

/** Which link a key field opens: the console's or the viewer's. */
export type KeyField = 'control' | 'viewer';

const KEY_FIELDS: Readonly<Record<KeyField, { readonly label: string; readonly button: string }>> = {
  control: { label: 'API key or control link', button: 'Open the console' },
  viewer: { label: 'Viewer key or viewer link', button: 'Open the viewer' },
};

/**
 * A field for a key or a pasted link, and its button; home/main.ts (HOME_SCRIPT_SRC)
 * opens the link from it. Shared by the front door and the wrong-key pages. The
 * field has no name, so a form sent without the script (the CSP's form-action
 * 'none' stops that already) could never put the key into a query string either.
 */
export function keyFormHtml(field: KeyField): string {
  const words = KEY_FIELDS[field];
  return `<form id="${field}-form" autocomplete="off">
<label for="${field}-key">${words.label}</label>
<input id="${field}-key" type="password" spellcheck="false" autocapitalize="off" required>
<button type="submit">${words.button}</button>
<p id="${field}-problem" class="field-error" role="alert" hidden></p>
</form>`;
}

export const FRONT_DOOR_HTML = `${pageHead({ title: 'Showclock', stylesheet: CONTROL_STYLE_HREF, script: HOME_SCRIPT_SRC })}
<body class="front-door">
<header><h1>Showclock</h1></header>
<section>
<h2>A countdown timer box for live events</h2>
<p>This box holds the show's running order and shows the time left on its HDMI screen, on phones,
tablets and confidence monitors, all on the same second. A stage manager runs it from the control
console; button panels, QLab and scripts drive it over the network.</p>
</section>
<section>
<h2>Open the control console</h2>
<p>The console needs the box's API key. On the box, <code>npm run key</code> (on a Pi:
<code>sudo showclock key</code>) prints the control link; open it, or type its key or paste the whole link here.</p>
${keyFormHtml('control')}
</section>
<section>
<h2>Watch the time</h2>
<p>The viewer link shows the clock on any phone, tablet or monitor, and can change nothing. The
console shows it with a QR code; <code>npm run key</code> prints it too.</p>
${keyFormHtml('viewer')}
<p>Questions from the audience: the console shows the audience link and its QR code (for a slide or
a lobby screen); people open it on their phones and send questions to the moderator.</p>
<p>The box's own HDMI screen is <code>/display</code>, which opens only on the box itself.
Developers: the API is described at <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.</p>
</section>
</body>
</html>
`;

export function mountFrontDoor(app: Hono<AppEnv>): void {
  app.get('/', (c) => {
    c.set('route', 'GET /');
    return answer(c, FRONT_DOOR_HTML, 200, pageHeaders({ keyInUrl: false }));
  });
  for (const path of ['/favicon.svg', '/favicon.ico']) {
    app.get(path, (c) => {
      c.set('route', `GET ${path}`);
      return c.body(FAVICON_SVG, 200, {
        // Served as SVG under both names: every browser the box meets reads an SVG icon by its type.
        'Content-Type': 'image/svg+xml',
        'Cache-Control': 'public, max-age=86400',
        'X-Content-Type-Options': 'nosniff',
        'Content-Security-Policy': "default-src 'none'",
      });
    });
  }
}
