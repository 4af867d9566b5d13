// The plain-text line: `<api_key> <command> [args]`, quoted arguments, and the
// mistakes a person makes typing one.
import { describe, expect, it } from 'vitest';
import { datagramLines, parseTextLine } from '../../src/osc/text-line.js';

describe('parseTextLine', () => {
  it('reads the key, the command as a path and the arguments', () => {
    expect(parseTextLine('KEY start')).toEqual({ ok: true, key: 'KEY', path: ['start'], args: [] });
    expect(parseTextLine('  KEY   /adjust   -30000  ')).toEqual({ ok: true, key: 'KEY', path: ['adjust'], args: ['-30000'] });
    expect(parseTextLine('KEY timer/index/2/select')).toEqual({ ok: true, key: 'KEY', path: ['timer', 'index', '2', 'select'], args: [] });
    expect(parseTextLine('KEY\tsettings/zeroBehavior\tstop')).toEqual({ ok: true, key: 'KEY', path: ['settings', 'zeroBehavior'], args: ['stop'] });
  });

  it('keeps quoted text together, with escapes inside double quotes', () => {
    expect(parseTextLine('KEY message "Wrap up, please" red 1 0')).toMatchObject({ args: ['Wrap up, please', 'red', '1', '0'] });
    expect(parseTextLine("KEY message 'Say \"hi\"'")).toMatchObject({ args: ['Say "hi"'] });
    expect(parseTextLine('KEY message "a \\"b\\" c\\\\"')).toMatchObject({ args: ['a "b" c\\'] });
    expect(parseTextLine('KEY message ""')).toMatchObject({ args: [''] });
    expect(parseTextLine('KEY message Wrap" up"')).toMatchObject({ args: ['Wrap up'] });
  });

  it('a blank line is nothing; a key alone or an open quote is a mistake named', () => {
    expect(parseTextLine('')).toBeNull();
    expect(parseTextLine('   ')).toBeNull();
    expect(parseTextLine('KEY')).toEqual({ ok: false, error: 'no command after the key; send one line: <api_key> <command> [arguments], e.g. "KEY start" or "KEY adjust 60000"' });
    expect(parseTextLine('KEY /')).toMatchObject({ ok: false });
    expect(parseTextLine('KEY message "Wrap up')).toEqual({ ok: false, error: 'a double quote is not closed; quote text with spaces like "Wrap up"' });
    expect(parseTextLine("KEY message 'Wrap up")).toMatchObject({ ok: false, error: expect.stringContaining('a single quote is not closed') });
  });
});

describe('datagramLines', () => {
  it('splits at LF, CRLF and CR (echo, QLab, Windows tools)', () => {
    expect(datagramLines('KEY start\n')).toEqual(['KEY start', '']);
    expect(datagramLines('KEY start\r\nKEY next\rKEY reset')).toEqual(['KEY start', 'KEY next', 'KEY reset']);
  });
});
