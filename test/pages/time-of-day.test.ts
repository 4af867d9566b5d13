// Times of day in the room's zone and format, whatever the device's zone.
import { describe, expect, it } from 'vitest';
import { formatShortTimeOfDay, formatTimeOfDay } from '../../src/client/time-of-day.js';

const EVENING_UTC = Date.UTC(2026, 6, 1, 17, 30, 5); // 19:30:05 in Berlin (summer time), 13:30:05 in New York

describe('formatTimeOfDay', () => {
  it('24h in the room zone', () => {
    expect(formatTimeOfDay(EVENING_UTC, { timeZone: 'Europe/Berlin', clockFormat: '24h' })).toBe('19:30:05');
    expect(formatTimeOfDay(EVENING_UTC, { timeZone: 'UTC', clockFormat: '24h' })).toBe('17:30:05');
  });

  it('12h with AM/PM, 12 at noon and midnight', () => {
    expect(formatTimeOfDay(EVENING_UTC, { timeZone: 'America/New_York', clockFormat: '12h' })).toBe('1:30:05 PM');
    expect(formatTimeOfDay(Date.UTC(2026, 0, 1, 0, 0, 0), { timeZone: 'UTC', clockFormat: '12h' })).toBe('12:00:00 AM');
    expect(formatTimeOfDay(Date.UTC(2026, 0, 1, 12, 0, 9), { timeZone: 'UTC', clockFormat: '12h' })).toBe('12:00:09 PM');
    expect(formatTimeOfDay(Date.UTC(2026, 0, 1, 0, 0, 0), { timeZone: 'UTC', clockFormat: '24h' })).toBe('00:00:00');
  });

  it('an unknown zone shows UTC rather than nothing', () => {
    expect(formatTimeOfDay(EVENING_UTC, { timeZone: 'Mars/Base', clockFormat: '24h' })).toBe('17:30:05');
  });

  it('short form without seconds', () => {
    expect(formatShortTimeOfDay(EVENING_UTC, { timeZone: 'Europe/Berlin', clockFormat: '12h' })).toBe('7:30 PM');
    expect(formatShortTimeOfDay(EVENING_UTC, { timeZone: 'Europe/Berlin', clockFormat: '24h' })).toBe('19:30');
  });
});
