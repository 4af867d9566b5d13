// The logo (issue 15): uploaded as the raw body of POST /api/v1/{api_key}/display/logo,
// checked against its declared type (src/commands/logo-content.ts), stored atomically
// in the data directory as logo-<version>, then the room learns only the version
// (`display.logo`, one change through the dispatch). Served at /logo/<version>
// without a key by src/pages/logo-file.ts. The files themselves, and when an old
// one may go, are the store's (src/store/logo-files.ts).
import type { Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { NotDone, type RoomService } from '../app/room-service.js';
import type { LogoFiles } from '../store/logo-files.js';
import type { AppEnv } from '../web/env.js';
import { errorResponse } from '../web/api-errors.js';
import { MAX_BODY_BYTES } from '../commands/body-size.js';
import { jsonAnswer } from '../web/answer.js';
import { checkLogo, MAX_LOGO_BYTES } from '../commands/logo-content.js';

export interface LogoDeps {
  readonly service: RoomService;
  /** Where logos are kept; without them (tests of other things) an upload is 503. */
  readonly logos?: LogoFiles;
}

/** Dispatches the change and waits for it as the operations do; a Response when it failed. */
async function setLogo(c: Context<AppEnv>, service: RoomService, logo: string | null): Promise<Response | null> {
  const { outcome, durable } = service.dispatch({ type: 'display.logo', logo }, 'http-v1');
  if (!outcome.ok) return errorResponse(c, 400, outcome.error.message);
  try {
    await durable;
  } catch (error) {
    if (!(error instanceof NotDone)) throw error;
    return errorResponse(c, 503, error.message);
  }
  return null;
}

/** The upload's file could not be written: nothing changed, and the answer says where to look, as for a refused edit. */
function notStored(c: Context<AppEnv>, error: unknown): Response {
  const code = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
  return errorResponse(
    c,
    503,
    `nothing was changed: the logo could not be saved to disk (${code}); transport, messages and switches still work. ` +
      'Check the SD card and free space (the service log and /healthz have the details)',
  );
}

export function mountLogo(app: Hono<AppEnv>, deps: LogoDeps): void {
  const { service, logos } = deps;
  const noDataDir = (c: Context<AppEnv>) => errorResponse(c, 503, 'logos cannot be stored: the service runs without a data directory');

  app.post(
    '/api/v1/:key/display/logo',
    async (c, next) => {
      c.set('route', 'POST /api/v1/{api_key}/display/logo');
      return next();
    },
    bodyLimit({ maxSize: MAX_LOGO_BYTES, onError: (c) => errorResponse(c, 413, `body too large: a logo is at most ${MAX_LOGO_BYTES} bytes (1 MB)`) }),
    async (c) => {
      const bytes = new Uint8Array(await c.req.arrayBuffer());
      const checked = checkLogo(c.req.header('content-type'), bytes);
      if (!checked.ok) return errorResponse(c, 400, checked.message);
      if (logos === undefined) return noDataDir(c);
      // The file first: the room never names a logo that is not on disk.
      try {
        await logos.save(checked.version, bytes);
      } catch (error) {
        await logos.uploaded(checked.version, service.room);
        return notStored(c, error);
      }
      // Read after the save: another upload may have replaced it meanwhile.
      const previous = service.room.display.logo;
      const failed = await setLogo(c, service, checked.version);
      // Made or refused, the upload is over: a file the room does not name goes like any other.
      await logos.uploaded(checked.version, service.room);
      if (failed !== null) return failed;
      await logos.retire(previous, service.room);
      return jsonAnswer(c, { ok: true as const, state: service.snapshot() }, 200);
    },
  );

  // A body is not read, but held to the limit every other POST has.
  const limitBody = bodyLimit({ maxSize: MAX_BODY_BYTES, onError: (c) => errorResponse(c, 413, `body too large: at most ${MAX_BODY_BYTES} bytes`) });
  app.on(['GET', 'POST'], '/api/v1/:key/display/logo/delete', async (c, next) => {
    c.set('route', `${c.req.method} /api/v1/{api_key}/display/logo/delete`);
    return c.req.method === 'POST' ? limitBody(c, next) : next();
  }, async (c) => {
    const previous = service.room.display.logo;
    const failed = await setLogo(c, service, null);
    if (failed !== null) return failed;
    await logos?.retire(previous, service.room);
    return jsonAnswer(c, { ok: true as const, state: service.snapshot() }, 200);
  });
}
