// The text patterns the OpenAPI document gives label, speaker and message text
// state the room's own text rules (src/domain/text-rules.ts) exactly: a client
// that checks its value against the pattern is refused by the service exactly
// when the rules refuse it. Checked for every BMP code unit (lone surrogates
// included) in several places, at the length bounds, and on random text.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LABEL_MAX_CHARS, MESSAGE_MAX_CHARS } from '../../src/domain/limits.js';
import { textProblem } from '../../src/domain/text-rules.js';
import { fields, textPattern } from '../../src/commands/fields.js';

const labelPattern = textPattern({ max: LABEL_MAX_CHARS, trimmed: false });
const textPatternRe = textPattern({ max: MESSAGE_MAX_CHARS, trimmed: true });

const labelAllowed = (s: string) => textProblem('label', s, { maxChars: LABEL_MAX_CHARS, mustShow: false }) === null;
const textAllowed = (s: string) => {
  const trimmed = s.trim();
  return trimmed.length > 0 && textProblem('text', trimmed, { maxChars: MESSAGE_MAX_CHARS, mustShow: true }) === null;
};

/** Where one character is put: alone, inside, at either edge, between spaces. */
const placements = (c: string) => [c, `a${c}b`, `${c}a`, `a${c}`, ` ${c} `, `${c}${c}`];

function mismatches(pattern: RegExp, allowed: (s: string) => boolean, samples: Iterable<string>): string[] {
  const found: string[] = [];
  for (const s of samples) {
    if (pattern.test(s) !== allowed(s)) found.push(JSON.stringify(s));
    if (found.length > 10) break;
  }
  return found;
}

function* everyBmpPlacement(): Generator<string> {
  for (let unit = 0; unit <= 0xffff; unit += 1) yield* placements(String.fromCharCode(unit));
}

const ASTRAL = ['😀', '👍🏽', '🏴󠁧󠁢󠁳󠁣󠁴󠁿', '\u{E0020}', '\u{1D173}', '\u{110BD}', '\u{1F600}\u{200D}\u{1F600}', '𝄞'];

describe('label and speaker pattern', () => {
  it('agrees with the room for every BMP code unit in every place, and astral characters', () => {
    expect(mismatches(labelPattern, labelAllowed, everyBmpPlacement())).toEqual([]);
    expect(mismatches(labelPattern, labelAllowed, ASTRAL.flatMap(placements))).toEqual([]);
  });

  it('counts characters, not UTF-16 units: 200 emoji fit, 201 characters do not (maxLength in the document)', () => {
    expect(labelAllowed('😀'.repeat(200))).toBe(true);
    expect(labelAllowed('😀'.repeat(201))).toBe(false);
    expect(fields.label.json.safeParse('😀'.repeat(101)).success).toBe(true);
    expect(fields.label.json.safeParse('😀'.repeat(200)).success).toBe(true);
    expect(fields.label.json.safeParse('a'.repeat(201)).success).toBe(false);
  });
});

describe('message text pattern', () => {
  it('agrees with the room for every BMP code unit in every place, and astral characters', () => {
    expect(mismatches(textPatternRe, textAllowed, everyBmpPlacement())).toEqual([]);
    expect(mismatches(textPatternRe, textAllowed, ASTRAL.flatMap(placements))).toEqual([]);
  });

  it('at the length bound, in characters after trimming', () => {
    const cases = [
      'a'.repeat(500),
      'a'.repeat(501),
      '😀'.repeat(500),
      '😀'.repeat(501),
      ` \n\t${'a'.repeat(500)}  \u3000`,
      `a${' '.repeat(498)}b`,
      `a${' '.repeat(499)}b`,
      `\u200B${'a'.repeat(499)}`,
      `\u200B${'a'.repeat(500)}`,
      'a',
      '\u200B',
      ' \u200B\uFEFF ',
    ];
    expect(mismatches(textPatternRe, textAllowed, cases)).toEqual([]);
  });
});

describe('random text', () => {
  // Mostly ordinary characters, with the ones the rules are about mixed in.
  const char = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom('a', 'Z', '9', 'é', 'ß', '中', '😀', '\u0301') },
    { weight: 2, arbitrary: fc.constantFrom(' ', '\t', '\n', '\r', '\u000B', '\u00A0', '\u3000', '\uFEFF') },
    { weight: 1, arbitrary: fc.constantFrom('\u0000', '\u0007', '\u001F', '\u007F', '\u0085', '\u009F') },
    { weight: 1, arbitrary: fc.constantFrom('\u200B', '\u200D', '\u2060', '\u00AD', '\u{E0020}', '\uD800', '\uDFFF') },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }) },
  );
  const text = (maxLength: number) => fc.array(char, { maxLength }).map((chars) => chars.join(''));

  it('pattern, room rules and the field schema agree for label and message text', () => {
    fc.assert(
      fc.property(fc.oneof(text(12), text(520)), (s) => {
        expect(labelPattern.test(s), JSON.stringify(s)).toBe(labelAllowed(s));
        expect(fields.label.json.safeParse(s).success, JSON.stringify(s)).toBe(labelAllowed(s));
        expect(textPatternRe.test(s), JSON.stringify(s)).toBe(textAllowed(s));
        expect(fields.text.json.safeParse(s).success, JSON.stringify(s)).toBe(textAllowed(s));
      }),
      { numRuns: 2_000 },
    );
  });
});
