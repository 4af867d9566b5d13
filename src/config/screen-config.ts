// The `screen` section of the config file (issue 33, README "Screen (HDMI-CEC)"): the
// screen the box drives over HDMI-CEC (with v4l-utils' cec-ctl), off unless a CEC device
// is given, and the room's rules for it: on at boot, on when a timer starts, standby
// after a blackout held for some minutes. Checked at start, so a misspelt field stops the
// service with its path instead of a screen that never wakes before a show.
import * as z from '../schema/zod.js';
import { checkedString, envText } from './field-checks.js';

/** CEC's own limit on the name a TV lists a source under. */
export const OSD_NAME_MAX = 14;
export const POLL_SECONDS_MIN = 5;
export const POLL_SECONDS_MAX = 3600;
/** A day: a longer blackout before standby is a mistake, not a plan. */
export const BLACKOUT_MINUTES_MAX = 1440;

export const SCREEN_DEFAULTS = { osdName: 'Showclock', pollSeconds: 30, onAtBoot: true, onAtStart: true } as const;

export interface ScreenConfig {
  readonly cec: {
    /** `/dev/cec0`; undefined: no screen control. */
    readonly device: string | undefined;
    /** What the TV lists the box as among its sources. */
    readonly osdName: string;
    /** How often the TV is asked its power. */
    readonly pollSeconds: number;
  };
  readonly onAtBoot: boolean;
  readonly onAtStart: boolean;
  /** null: a blackout never puts the screen to standby. */
  readonly standbyAfterBlackoutMinutes: number | null;
}

export function screenConfigured(screen: ScreenConfig): boolean {
  return screen.cec.device !== undefined;
}

export function cecDeviceProblem(raw: string): string | null {
  if (!/^\/dev\/[A-Za-z0-9._/-]+$/.test(raw) || raw.includes('..')) return 'expected a CEC device path such as /dev/cec0 (`cec-ctl -A` lists them)';
  return null;
}

export function osdNameProblem(raw: string): string | null {
  if (raw.length < 1 || raw.length > OSD_NAME_MAX) return `expected 1 to ${OSD_NAME_MAX} characters (CEC's limit for the name a TV shows)`;
  if (!/^[\x20-\x7e]+$/.test(raw)) return 'expected plain ASCII letters, digits and spaces (a TV shows nothing else)';
  return null;
}

const wholeBetween = (min: number, max: number, unit: string) =>
  z.number({ error: 'expected a number' }).check(z.int('expected a whole number'), z.gte(min, `expected ${min} to ${max} ${unit}`), z.lte(max, `expected ${min} to ${max} ${unit}`));

export function screenConfigSchema() {
  const flag = () => z.optional(z.boolean({ error: 'expected true or false' }));
  return z.strictObject({
    cec: z.optional(
      z.strictObject({
        device: z.optional(checkedString(cecDeviceProblem)),
        osdName: z.optional(checkedString(osdNameProblem)),
        pollSeconds: z.optional(wholeBetween(POLL_SECONDS_MIN, POLL_SECONDS_MAX, 'seconds')),
      }),
    ),
    onAtBoot: flag(),
    onAtStart: flag(),
    standbyAfterBlackoutMinutes: z.optional(z.nullable(wholeBetween(1, BLACKOUT_MINUTES_MAX, 'minutes'))),
  });
}

export type ScreenFile = z.infer<ReturnType<typeof screenConfigSchema>>;

/** Thrown with the field's name in front; config.ts turns it into its ConfigError. */
export class ScreenConfigProblem extends Error {}

/** The section with SHOWCLOCK_SCREEN_CEC_DEVICE on top. */
export function resolveScreenConfig(env: NodeJS.ProcessEnv, file: ScreenFile | undefined): ScreenConfig {
  const envDevice = envText(env, 'SHOWCLOCK_SCREEN_CEC_DEVICE');
  const problem = envDevice === undefined ? null : cecDeviceProblem(envDevice);
  if (problem !== null) throw new ScreenConfigProblem(`environment SHOWCLOCK_SCREEN_CEC_DEVICE: ${problem}`);
  return {
    cec: {
      device: envDevice ?? file?.cec?.device,
      osdName: file?.cec?.osdName ?? SCREEN_DEFAULTS.osdName,
      pollSeconds: file?.cec?.pollSeconds ?? SCREEN_DEFAULTS.pollSeconds,
    },
    onAtBoot: file?.onAtBoot ?? SCREEN_DEFAULTS.onAtBoot,
    onAtStart: file?.onAtStart ?? SCREEN_DEFAULTS.onAtStart,
    standbyAfterBlackoutMinutes: file?.standbyAfterBlackoutMinutes ?? null,
  };
}
