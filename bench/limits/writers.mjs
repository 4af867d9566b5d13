// Other ways for the node:http floor (bench/lib/floor-server.mjs) to write one
// change to every stream, chosen by FLOOR_WRITE, each cheaper per stream than
// the one before: 'socket' writes to the socket under each response (what the
// service does), 'handle' to the socket's libuv handle (Node's internals, under
// the stream), 'native' hands every file descriptor to one C call (build.mjs).
// Measuring tools for the fan-out's lower bound; the floor's own loop
// (`res.write`) is untouched when FLOOR_WRITE is unset.
import { createRequire } from 'node:module';
import { NATIVE_WRITER } from './build.mjs';

/** @typedef {(streams: Iterable<import('node:http').ServerResponse>, bytes: Buffer) => void} FanOut */

/** @param {string} kind @returns {FanOut} */
export function fanOutWriter(kind) {
  switch (kind) {
    case 'socket':
      return (streams, bytes) => {
        for (const stream of streams) stream.socket?.write(bytes);
      };
    case 'handle': {
      // process.binding is deprecated but still answers for stream_wrap in Node 20; a tool may lean on it.
      const { WriteWrap } = process.binding('stream_wrap');
      const done = () => {};
      return (streams, bytes) => {
        for (const stream of streams) {
          const handle = stream.socket?._handle;
          if (!handle) continue;
          const req = new WriteWrap();
          req.handle = handle;
          req.oncomplete = done;
          req.async = false;
          handle.writeBuffer(req, bytes);
        }
      };
    }
    case 'native': {
      const { writeAll } = createRequire(import.meta.url)(NATIVE_WRITER);
      return (streams, bytes) => {
        const list = [...streams];
        const fds = new Int32Array(list.length);
        for (let i = 0; i < list.length; i++) fds[i] = list[i].socket?._handle?.fd ?? -1;
        writeAll(fds, bytes, new Int32Array(list.length));
      };
    }
    default:
      throw new Error(`FLOOR_WRITE=${kind}: one of socket, handle, native`);
  }
}
