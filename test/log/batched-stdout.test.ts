// The default log sink: lines written in one turn of the event loop go to
// standard output in one write, in order, still scrubbed of the keys.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger, REDACTED } from '../../src/log/logger.js';

const KEY = 'BatchTestApiKey_0123456789abc';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the default log sink (standard output)', () => {
  it('writes the lines of one turn together, in order, after the turn', async () => {
    const writes: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      writes.push(String(chunk));
      return true;
    });
    const logger = createLogger({ level: 'info', secrets: () => [KEY] });
    logger.info({ n: 1 }, 'first');
    logger.info({ n: 2, path: `/api/v1/${KEY}/state` }, 'second');
    logger.info({ n: 3 }, 'third');
    expect(writes).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toHaveLength(1);
    const lines = (writes[0] ?? '').trim().split('\n').map((line) => JSON.parse(line) as { n: number; msg: string; path?: string });
    expect(lines.map((l) => l.msg)).toEqual(['first', 'second', 'third']);
    expect(lines[1]?.path).toBe(`/api/v1/${REDACTED}/state`);
    expect(writes[0]).not.toContain(KEY);

    logger.info({ n: 4 }, 'next turn');
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toHaveLength(2);
    expect(JSON.parse(writes[1] ?? '{}')).toMatchObject({ msg: 'next turn', n: 4 });
  });

  it('scrubs a key that changes between lines (rotation) in every spelling', async () => {
    const writes: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      writes.push(String(chunk));
      return true;
    });
    let key = KEY;
    const logger = createLogger({ level: 'info', secrets: () => [key] });
    logger.info({ url: `/control/${key}` }, 'old key');
    key = 'Rotated"Key\\0123456789abcdef';
    logger.info({ raw: key, encoded: encodeURIComponent(key) }, 'new key');
    await new Promise((resolve) => setImmediate(resolve));
    const text = writes.join('');
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(JSON.stringify(key).slice(1, -1));
    expect(text).not.toContain(encodeURIComponent(key));
    expect(text.split(REDACTED).length - 1).toBe(3);
  });
});
