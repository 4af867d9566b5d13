// The default log sink: lines written within LOG_FLUSH_MS go to standard output
// in one write, in order, still scrubbed of the keys.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger, LOG_FLUSH_BYTES, LOG_FLUSH_MS, REDACTED } from '../../src/log/logger.js';

const KEY = 'BatchTestApiKey_0123456789abc';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** What the sink writes to standard output, one entry per write, as text. */
function captureStdout(): string[] {
  const writes: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    writes.push(String(chunk));
    return true;
  });
  return writes;
}

describe('the default log sink (standard output)', () => {
  it('writes the lines of one window together, in order, LOG_FLUSH_MS after the first', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const writes = captureStdout();
    const logger = createLogger({ level: 'info', secrets: () => [KEY] });
    logger.info({ n: 1 }, 'first');
    logger.info({ n: 2, path: `/api/v1/${KEY}/state` }, 'second');
    await nextTurn();
    // Not per turn: a command in series is a turn of its own, and a write each would be a system call each.
    expect(writes).toEqual([]);
    vi.advanceTimersByTime(LOG_FLUSH_MS - 1);
    logger.info({ n: 3 }, 'third');
    expect(writes).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(writes).toHaveLength(1);
    const lines = (writes[0] ?? '').trim().split('\n').map((line) => JSON.parse(line) as { n: number; msg: string; path?: string });
    expect(lines.map((l) => l.msg)).toEqual(['first', 'second', 'third']);
    expect(lines[1]?.path).toBe(`/api/v1/${REDACTED}/state`);
    expect(writes[0]).not.toContain(KEY);

    // The next line starts a window of its own.
    logger.info({ n: 4 }, 'next window');
    vi.advanceTimersByTime(LOG_FLUSH_MS - 1);
    expect(writes).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(writes).toHaveLength(2);
    expect(JSON.parse(writes[1] ?? '{}')).toMatchObject({ msg: 'next window', n: 4 });
  });

  it('sends what waits at once when the next line would not fit in LOG_FLUSH_BYTES, in order, and a longer line on its own', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const writes = captureStdout();
    const logger = createLogger({ level: 'info', secrets: () => [KEY] });
    // Four bytes a character in UTF-8: the buffer counts bytes, not characters.
    const filler = '\u{1F552}'.repeat(250);
    const count = Math.ceil(LOG_FLUSH_BYTES / 1000) + 1;
    for (let i = 0; i < count; i++) logger.info({ i, filler }, 'burst');
    // Without waiting for the window: the lines that filled the buffer went when the next did not fit.
    expect(writes).toHaveLength(1);
    expect(Buffer.byteLength(writes[0] ?? '')).toBeLessThanOrEqual(LOG_FLUSH_BYTES);
    logger.info({ huge: 'x'.repeat(LOG_FLUSH_BYTES) }, 'longer than the buffer');
    logger.info({ n: 'after' }, 'last');
    vi.advanceTimersByTime(LOG_FLUSH_MS);
    const lines = writes.join('').trim().split('\n').map((line) => JSON.parse(line) as { i?: number; msg: string; filler?: string });
    expect(lines.map((l) => l.i ?? l.msg)).toEqual([...Array.from({ length: count }, (_, i) => i), 'longer than the buffer', 'last']);
    expect(lines[0]?.filler).toBe(filler);
    // The longer line was written on its own, between the lines before and after it.
    expect(writes.some((w) => w.includes('longer than the buffer') && !w.includes('"burst"') && !w.includes('"last"'))).toBe(true);
  });

  it('scrubs a key that changes between lines (rotation) in every spelling', async () => {
    const writes = captureStdout();
    let key = KEY;
    const logger = createLogger({ level: 'info', secrets: () => [key] });
    logger.info({ url: `/control/${key}` }, 'old key');
    key = 'Rotated"Key\\0123456789abcdef';
    logger.info({ raw: key, encoded: encodeURIComponent(key) }, 'new key');
    await new Promise((resolve) => setTimeout(resolve, LOG_FLUSH_MS + 20));
    const text = writes.join('');
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(JSON.stringify(key).slice(1, -1));
    expect(text).not.toContain(encodeURIComponent(key));
    expect(text.split(REDACTED).length - 1).toBe(3);
  });
});
