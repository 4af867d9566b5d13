// Query strings and form bodies (src/commands/url-encoded.ts) are read in linear time
// (issue 26: every "&"-separated pair searched for its "=" from its own start, so
// `a&a&...&a=` scanned to the far "=" once per pair: 1 MB took 2.6 s), and read
// exactly as before.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeUrlEncoded, decodeUrlEncodedMap, type Decoded } from '../../src/commands/url-encoded.js';
import { bestMs } from '../helpers/best-time.js';

/** The reading as it was, for comparison (quadratic: small inputs only). */
function reference(text: string): Map<string, Decoded> {
  const decode = (part: string): string | null => {
    const spaced = part.includes('+') ? part.replace(/\+/g, ' ') : part;
    if (!spaced.includes('%')) return spaced;
    try {
      return decodeURIComponent(spaced);
    } catch {
      return null;
    }
  };
  const result = new Map<string, Decoded>();
  if (text.length === 0) return result;
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('&', start);
    if (end === -1) end = text.length;
    const equals = text.indexOf('=', start);
    const hasValue = equals !== -1 && equals < end;
    const name = decode(text.slice(start, hasValue ? equals : end));
    start = end + 1;
    if (name === null || name === '' || result.has(name)) continue;
    const raw = hasValue ? text.slice(equals + 1, end) : '';
    const value = decode(raw);
    result.set(name, value === null ? { ok: false, raw } : { ok: true, value });
  }
  return result;
}


describe('decodeUrlEncodedMap', () => {
  it('reads every string as before', () => {
    const piece = fc.constantFrom('a', 'b', 'text', '=', '=', '&', '&', '+', '%', '%2', '%20', '%E0%A4%A', '%C3%A9', '__proto__');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 16 }).map((parts) => parts.join('')), (text) => {
        expect([...decodeUrlEncodedMap(text)]).toEqual([...reference(text)]);
        expect(Object.entries(decodeUrlEncoded(text))).toEqual([...reference(text)]);
      }),
      { numRuns: 5000 },
    );
  });

  it.each([
    ['names without values, one "=" at the end', `${'a&'.repeat(1 << 19)}=`],
    ['different names without values, one "=" at the end', `${Array.from({ length: 1 << 16 }, (_, i) => `n${i}`).join('&')}&x=1`],
    ['"=" only', '='.repeat(1 << 20)],
    ['"&" only', '&'.repeat(1 << 20)],
  ])('reads 1 MB of %s in under 50 ms', (_name, text) => {
    expect(bestMs(() => decodeUrlEncodedMap(text))).toBeLessThan(50);
  });
});
