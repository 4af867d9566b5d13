// How a refusal of the room becomes an HTTP answer: its status, and the words of
// a change that was not made (storage, stopping, refused when its turn came).
import type { Context } from 'hono';
import { NotDone } from '../app/room-service.js';
import type { CommandError } from '../domain/types.js';
import { errorResponse } from './api-errors.js';

/** The room's refusal as an HTTP status: a bad request, nothing by that id, or the room full (503: nothing the request can change). */
export function statusOfRefusal(error: CommandError): 400 | 404 | 503 {
  switch (error.kind) {
    case 'invalid':
      return 400;
    case 'not_found':
      return 404;
    case 'full':
      return 503;
    default: {
      const unknown: never = error.kind;
      throw new Error(`unhandled refusal ${String(unknown)}`);
    }
  }
}

export function notDoneResponse(c: Context, error: NotDone): Response {
  switch (error.kind) {
    case 'storage':
      return errorResponse(
        c,
        503,
        'nothing was changed: the change could not be saved to disk, and running-order edits are made only once they are saved; ' +
          'transport, messages and switches still work. Check the SD card and free space (the service log and /healthz have the details)',
      );
    case 'stopping':
      return errorResponse(c, 503, error.message);
    case 'refused':
      return errorResponse(c, error.error === undefined ? 400 : statusOfRefusal(error.error), error.message);
    default: {
      const unknown: never = error.kind;
      throw new Error(`unhandled refusal ${String(unknown)}`);
    }
  }
}
