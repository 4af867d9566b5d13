// The logo as screens load it: GET /logo/<version>, without a key (viewers show it),
// immutable (a new logo is a new URL); an SVG under a CSP sandbox, so no script in it
// runs even when the URL is opened on its own. The upload is the API's
// (src/api/logo-routes.ts); the files themselves are the store's (src/store/logo-files.ts).
import type { Hono } from 'hono';
import type { RoomService } from '../app/room-service.js';
import { LOGO_VERSION_PATTERN } from '../domain/display-settings.js';
import type { LogoFiles } from '../store/logo-files.js';
import type { AppEnv } from '../web/env.js';
import { answer } from '../web/answer.js';
import { LOGO_TYPE_OF_EXTENSION, SVG_CSP, type LogoExtension } from '../commands/logo-content.js';

export interface LogoFileDeps {
  readonly service: RoomService;
  /** Where logos are kept; without them every logo is 404. */
  readonly logos?: LogoFiles;
}

export function mountLogoFile(app: Hono<AppEnv>, deps: LogoFileDeps): void {
  const { service, logos } = deps;

  app.get('/logo/:version', async (c) => {
    c.set('route', 'GET /logo/{version}');
    c.set('read', true);
    const version = c.req.param('version');
    // Only the room's current logo: a name from the URL never reaches the file system otherwise.
    const match = LOGO_VERSION_PATTERN.exec(version);
    if (logos === undefined || match === null || service.room.display.logo !== version) {
      return answer(c, 'no such logo', 404, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
    }
    const bytes = await logos.read(version);
    if (bytes === null) {
      return answer(c, 'the logo file is missing from the data directory', 404, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
    }
    const type = LOGO_TYPE_OF_EXTENSION[match[1] as LogoExtension];
    return answer(c, new Uint8Array(bytes), 200, {
      'Content-Type': type,
      'X-Content-Type-Options': 'nosniff',
      // The URL names the content: it never changes, so a screen keeps it.
      'Cache-Control': 'public, max-age=31536000, immutable',
      ...(type === 'image/svg+xml' ? { 'Content-Security-Policy': SVG_CSP } : {}),
    });
  });
}
