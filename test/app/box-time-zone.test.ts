import { describe, expect, it } from 'vitest';
import { boxTimeZone, hostZoneName, listedZone } from '../../src/app/box-time-zone.js';
import { canonicalTimeZone } from '../../src/domain/time-zone.js';

const noLink = (): string => {
  throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
};
const linkTo = (target: string) => (path: string): string => {
  if (path !== '/etc/localtime') throw new Error(`unexpected ${path}`);
  return target;
};

/** How many date formatters `run` makes (each one is what loads ICU's calendar and zone data). */
function formattersMadeBy(run: () => void): number {
  const intl = Intl as { DateTimeFormat: typeof Intl.DateTimeFormat };
  const real = intl.DateTimeFormat;
  let made = 0;
  const count = (): void => {
    made += 1;
  };
  intl.DateTimeFormat = new Proxy(real, {
    construct: (target, args, newTarget) => (count(), Reflect.construct(target, args, newTarget)),
    apply: (target, self, args) => (count(), Reflect.apply(target, self, args)),
  });
  try {
    run();
  } finally {
    intl.DateTimeFormat = real;
  }
  return made;
}

describe('the host zone name', () => {
  it('is TZ when it is set, with or without its colon or a zoneinfo path', () => {
    expect(hostZoneName({ TZ: 'Europe/Berlin' }, noLink)).toBe('Europe/Berlin');
    expect(hostZoneName({ TZ: ':America/New_York' }, noLink)).toBe('America/New_York');
    expect(hostZoneName({ TZ: '/usr/share/zoneinfo/Asia/Tokyo' }, noLink)).toBe('Asia/Tokyo');
  });

  it('is the tail of the /etc/localtime link when TZ is not set', () => {
    expect(hostZoneName({}, linkTo('/usr/share/zoneinfo/Europe/London'))).toBe('Europe/London');
    expect(hostZoneName({}, linkTo('../usr/share/zoneinfo/Etc/UTC'))).toBe('Etc/UTC');
  });

  it('is undefined when neither names a zone', () => {
    expect(hostZoneName({}, noLink)).toBeUndefined();
    expect(hostZoneName({}, linkTo('/some/file'))).toBeUndefined();
  });
});

describe('a zone settled by the list of zones', () => {
  it('is spelled as Intl spells it, for every zone Intl lists and for the names of UTC', () => {
    const names = [...Intl.supportedValuesOf('timeZone'), 'UTC', 'Etc/UTC', 'GMT', 'Etc/GMT'];
    const differ = names.filter((name) => listedZone(name) !== canonicalTimeZone(name));
    expect(differ).toEqual([]);
    expect(names.length).toBeGreaterThan(300);
  });

  it('leaves a name the list does not have to Intl', () => {
    expect(listedZone('US/Pacific')).toBeUndefined();
    expect(listedZone('europe/berlin')).toBeUndefined();
    expect(listedZone('Mars/Olympus_Mons')).toBeUndefined();
  });
});

describe("the box's zone", () => {
  it('is read without a date formatter when the list settles it', () => {
    const made = formattersMadeBy(() => {
      expect(boxTimeZone({ TZ: 'Europe/Berlin' }, noLink)).toBe('Europe/Berlin');
      expect(boxTimeZone({}, linkTo('/usr/share/zoneinfo/Etc/UTC'))).toBe('UTC');
    });
    expect(made).toBe(0);
  });

  it("is Intl's own answer when the host names no zone the list settles", () => {
    const intl = canonicalTimeZone(new Intl.DateTimeFormat().resolvedOptions().timeZone) ?? 'UTC';
    const made = formattersMadeBy(() => {
      expect(boxTimeZone({}, noLink)).toBe(intl);
      expect(boxTimeZone({ TZ: 'Nowhere/Special' }, noLink)).toBe(intl);
    });
    expect(made).toBeGreaterThanOrEqual(2);
  });

  it("is this machine's zone as Intl names it, read the default way", () => {
    expect(boxTimeZone()).toBe(canonicalTimeZone(new Intl.DateTimeFormat().resolvedOptions().timeZone) ?? 'UTC');
  });
});
