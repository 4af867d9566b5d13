// OSC arguments as decoded by osc-min, read as the values the command table takes:
// the types that senders actually use (int, float, double, 64-bit int, string,
// symbol, true/false); any other type is kept as "unsupported" so the message
// can name it.
import type { OscArgOutputOrArray } from 'osc-min';
import type { ArgValue } from './arg-value.js';

/** A 32-bit float carries about 7 significant digits: `0.1f` reads 0.1, not 0.10000000149011612. */
function floatValue(value: number): ArgValue {
  if (!Number.isFinite(value)) return { unsupported: `float ${String(value)}` };
  return Number.isInteger(value) ? value : Number(value.toPrecision(7));
}

export function oscArgValue(arg: OscArgOutputOrArray): ArgValue {
  switch (arg.type) {
    case 'integer':
      return arg.value;
    case 'float':
      return floatValue(arg.value);
    case 'double':
      return Number.isFinite(arg.value) ? arg.value : { unsupported: `double ${String(arg.value)}` };
    case 'bigint':
      // An `h` from a sender that writes every integer as 64 bits: fine while it is exact.
      return arg.value >= BigInt(Number.MIN_SAFE_INTEGER) && arg.value <= BigInt(Number.MAX_SAFE_INTEGER)
        ? Number(arg.value)
        : { unsupported: '64-bit integer beyond 2^53' };
    case 'string':
    case 'symbol':
    case 'character':
      return arg.value;
    case 'true':
      return true;
    case 'false':
      return false;
    case 'blob':
    case 'midi':
    case 'color':
    case 'null':
    case 'bang':
    case 'timetag':
    case 'array':
      return { unsupported: arg.type };
    default: {
      const unknown: never = arg;
      throw new Error(`unhandled OSC argument ${JSON.stringify(unknown)}`);
    }
  }
}
