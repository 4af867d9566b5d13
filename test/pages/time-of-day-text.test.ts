// The console's times of day, shown and read in the room's zone and format.
import { describe, expect, it } from 'vitest';
import { instantText, parseInstantText } from '../../src/pages/control/time-of-day-text.js';

const NOW = Date.UTC(2026, 6, 1, 15, 0, 0); // 17:00 in Berlin, 11:00 in New York

describe('console times of day', () => {
  it('reads a time later today in the room zone', () => {
    expect(parseInstantText('19:30', NOW, 'Europe/Berlin')).toBe(Date.UTC(2026, 6, 1, 17, 30));
    expect(parseInstantText('7:30 pm', NOW, 'Europe/Berlin')).toBe(Date.UTC(2026, 6, 1, 17, 30));
    expect(parseInstantText('12:15PM', NOW, 'America/New_York')).toBe(Date.UTC(2026, 6, 1, 16, 15));
  });

  it('a time already past today is tomorrow', () => {
    expect(parseInstantText('09:00', NOW, 'Europe/Berlin')).toBe(Date.UTC(2026, 6, 2, 7, 0));
  });

  it('a date and time, across a summer-time change', () => {
    expect(parseInstantText('2026-10-25 09:00', NOW, 'Europe/Berlin')).toBe(Date.UTC(2026, 9, 25, 8, 0));
  });

  it('empty is none; nonsense is unreadable', () => {
    expect(parseInstantText(' ', NOW, 'UTC')).toBeNull();
    expect(parseInstantText('25:00', NOW, 'UTC')).toBeUndefined();
    expect(parseInstantText('13:00 pm', NOW, 'UTC')).toBeUndefined();
    expect(parseInstantText('soon', NOW, 'UTC')).toBeUndefined();
  });

  it('shows it in the room zone and format, with the date when not within a day', () => {
    const at = Date.UTC(2026, 6, 1, 17, 30);
    expect(instantText(at, NOW, { timeZone: 'Europe/Berlin', clockFormat: '24h' })).toBe('19:30');
    expect(instantText(at, NOW, { timeZone: 'America/New_York', clockFormat: '12h' })).toBe('1:30 PM');
    expect(instantText(at + 3 * 86_400_000, NOW, { timeZone: 'Europe/Berlin', clockFormat: '24h' })).toBe('2026-07-04 19:30');
    expect(instantText(null, NOW, { timeZone: 'UTC', clockFormat: '24h' })).toBe('');
  });
});
