// The `gpio` section of the config file: the ON AIR lamp, more lamps, and the
// buttons on the Pi's header. Pins are BCM numbers (the GPIO numbers of every
// Pi pinout diagram); src/gpio turns them into sysfs numbers at start.
// Every rule that can be checked before touching hardware is checked here, so a
// mistake stops the service at start with the field's path instead of a
// surprise during a show.
import * as z from '../schema/zod.js';
import { ADJUST_MAX_MS } from '../domain/limits.js';

/** BCM 0 to 27 are the GPIOs on the 40-pin header of every Pi with one. */
export const BCM_PIN_MAX = 27;

/**
 * What a lamp can follow; `warning` is remaining <= warnAt, `danger` is remaining <=
 * the timer's dangerAt (when it has one, so it stays lit in overrun), `overrun` is remaining < 0,
 * `flash` is lit in the lit halves of a screen flash (the `flash` command).
 */
export const LAMP_SIGNALS = ['onAir', 'running', 'warning', 'danger', 'overrun', 'blackout', 'flash'] as const;
export type LampSignal = (typeof LAMP_SIGNALS)[number];

/** Commands a button can give; the names of the HTTP `/{cmd}` commands. */
export const BUTTON_ACTIONS = [
  'toggle',
  'start',
  'pause',
  'reset',
  'next',
  'previous',
  'adjust',
  'toggle_blackout',
  'toggle_onair',
  'clear_message',
  'flash',
  // The second timer, for a speaker's own stopwatch on the lectern.
  'aux_toggle',
  'aux_reset',
] as const;
export type ButtonAction = (typeof BUTTON_ACTIONS)[number];

export const HOLD_MS_DEFAULT = 800;
export const HOLD_MS_MIN = 100;
export const HOLD_MS_MAX = 10_000;
export const DEBOUNCE_MS_DEFAULT = 30;
export const DEBOUNCE_MS_MAX = 1_000;
export const SYSFS_OFFSET_MAX = 10_000;

const got = (input: unknown): string => `got ${JSON.stringify(input)}`;

/**
 * The `gpio` section's schema, made for each config file read and dropped after
 * it: a box reads its config once, at start, and the schemas are private memory
 * and start time an idle box need not keep (BENCHMARKS.md).
 */
export function gpioConfigSchema() {
  const pin = z.number({ error: (iss) => `expected a BCM pin number (0 to ${BCM_PIN_MAX}); ${got(iss.input)}` }).check(
    z.int({ error: 'expected a whole BCM pin number' }),
    z.gte(0, { error: `expected a BCM pin number 0 to ${BCM_PIN_MAX}` }),
    z.lte(BCM_PIN_MAX, {
      error: `expected a BCM pin number 0 to ${BCM_PIN_MAX} (the GPIO number on a pinout diagram, not the physical pin 1 to 40)`,
    }),
  );

  const adjustMs = z.number({ error: (iss) => `expected milliseconds to add (negative takes time off); ${got(iss.input)}` }).check(
    z.int({ error: 'expected a whole number of milliseconds' }),
    z.gte(-ADJUST_MAX_MS, { error: `at most ${ADJUST_MAX_MS} (1 hour) in either direction` }),
    z.lte(ADJUST_MAX_MS, { error: `at most ${ADJUST_MAX_MS} (1 hour) in either direction` }),
    z.refine((ms) => ms !== 0, { error: 'adjusting by 0 does nothing; give a number of milliseconds such as 60000 or -30000' }),
  );

  /** Milliseconds as a button's timings take them. */
  const ms = z.number({ error: (iss) => `expected milliseconds; ${got(iss.input)}` }).check(z.int({ error: 'expected a whole number of milliseconds' }));

  const bool = z.boolean({ error: (iss) => `expected true or false; ${got(iss.input)}` });
  const signal = z.enum(LAMP_SIGNALS, { error: (iss) => `expected one of ${LAMP_SIGNALS.join(', ')}; ${got(iss.input)}` });
  const action = z.enum(BUTTON_ACTIONS, { error: (iss) => `expected one of ${BUTTON_ACTIONS.join(', ')}; ${got(iss.input)}` });

  const lampFields = {
    pin,
    /** Relay boards that switch on a low input. */
    activeLow: z.optional(bool),
    /** Also blinks (switches over) in the lit halves of a screen flash, e.g. the ON AIR lamp; default false. */
    flash: z.optional(bool),
    /** Where the lamp goes on an orderly shutdown; default off. */
    safeState: z.optional(z.enum(['off', 'on'], { error: (iss) => `expected "off" or "on"; ${got(iss.input)}` })),
  };

  /** `lamp`: the ON AIR lamp; it follows onAir unless told otherwise. */
  const onAirLamp = z.strictObject({ ...lampFields, follows: z.optional(signal) });
  /** Each entry of `lamps` names what it follows. */
  const boundLamp = z.strictObject({ ...lampFields, follows: signal });

  /**
   * The issue's own example config writes `"hold": "adjust", "holdMs": 300000`,
   * meaning "a long press adds 5 minutes". No press is held longer than
   * HOLD_MS_MAX, so a hold `adjust` without holdAdjustMs whose holdMs is beyond
   * that is read as the amount, with the default press time: the example works
   * as its author meant instead of stopping the box.
   */
  function readLongHoldMsAsAmount(input: unknown): unknown {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return input;
    const fields = input as Record<string, unknown>;
    const { holdMs, ...rest } = fields;
    if (fields.hold !== 'adjust' || fields.holdAdjustMs !== undefined || typeof holdMs !== 'number' || Math.abs(holdMs) <= HOLD_MS_MAX) {
      return input;
    }
    return { ...rest, holdAdjustMs: holdMs };
  }

  const buttonFields = z
    .strictObject({
      pin,
      /** On a short press. */
      action: z.optional(action),
      /** The amount of a short-press `adjust`. */
      ms: z.optional(adjustMs),
      /** On a long press: after holdMs, while the button is still down. */
      hold: z.optional(action),
      holdMs: z.optional(ms),
      /** The amount of a long-press `adjust`. */
      holdAdjustMs: z.optional(adjustMs),
      debounceMs: z.optional(ms.check(z.gte(0, { error: `expected 0 to ${DEBOUNCE_MS_MAX}` }), z.lte(DEBOUNCE_MS_MAX, { error: `expected 0 to ${DEBOUNCE_MS_MAX}` }))),
      /** `reset` on a short press is refused unless this is true. */
      allowShortReset: z.optional(bool),
    })
    .check(
      z.superRefine((b, ctx) => {
        const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
        if (b.action === undefined && b.hold === undefined) {
          issue('action', 'give an action for a short press, a hold action for a long press, or both');
        }
        if (b.action === 'adjust' && b.ms === undefined) issue('ms', 'is required with action "adjust": milliseconds to add, for example 60000 or -30000');
        if (b.action !== 'adjust' && b.ms !== undefined) issue('ms', 'is only used with action "adjust"');
        if (b.hold === 'adjust' && b.holdAdjustMs === undefined) {
          issue('holdAdjustMs', 'is required with hold "adjust": milliseconds a long press adds, for example 300000');
        }
        if (b.hold !== 'adjust' && b.holdAdjustMs !== undefined) issue('holdAdjustMs', 'is only used with hold "adjust"');
        if (b.holdMs !== undefined) {
          if (b.hold === undefined) issue('holdMs', 'is how long a long press lasts; it needs a hold action');
          else if (b.holdMs < HOLD_MS_MIN || b.holdMs > HOLD_MS_MAX) {
            const hint = b.hold === 'adjust' ? `; the amount a long press adjusts by goes in holdAdjustMs` : '';
            issue('holdMs', `${b.holdMs} is out of range: how long the button is held before the long press acts, ${HOLD_MS_MIN} to ${HOLD_MS_MAX} ms (default ${HOLD_MS_DEFAULT})${hint}`);
          }
        }
        if ((b.action === 'reset' || b.action === 'aux_reset') && b.allowShortReset !== true) {
          issue(
            'action',
            `${b.action} is a long press only, so a brush of the hand cannot reset a running speaker: use "hold": "${b.action}", or set "allowShortReset": true`,
          );
        }
      }),
    );

  // zod/mini has no preprocess: the transform in front of the schema is what it is.
  const button = z.pipe(z.transform(readLongHoldMsAsAmount), buttonFields);

  const GpioConfigSchema = z
    .strictObject({
      lamp: z.optional(onAirLamp),
      lamps: z.optional(z.array(boundLamp, { error: 'expected a list of lamps' })),
      buttons: z.optional(z.array(button, { error: 'expected a list of buttons' })),
      /** Overrides the sysfs number of BCM 0 found from /sys/class/gpio (512 on a Pi 0-4, 571 on a Pi 5 since kernel 6.6). */
      sysfsOffset: z.optional(
        z.number({ error: (iss) => `expected a number; ${got(iss.input)}` }).check(
          z.int({ error: 'expected a whole number' }),
          z.gte(0, { error: `expected 0 to ${SYSFS_OFFSET_MAX}` }),
          z.lte(SYSFS_OFFSET_MAX, { error: `expected 0 to ${SYSFS_OFFSET_MAX}` }),
        ),
      ),
    })
    .check(
      z.superRefine((gpio, ctx) => {
        // One pin, one job: two outputs fighting over a pin, or a lamp driving a button's input, is a wiring mistake.
        const owner = new Map<number, string>();
        const claim = (bcm: number, path: (string | number)[]) => {
          const first = owner.get(bcm);
          if (first !== undefined) {
            ctx.addIssue({ code: 'custom', path, message: `BCM ${bcm} is already used by gpio.${first}` });
          } else {
            owner.set(bcm, path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${part}`)).join('').slice(1));
          }
        };
        if (gpio.lamp !== undefined) claim(gpio.lamp.pin, ['lamp', 'pin']);
        gpio.lamps?.forEach((lamp, i) => claim(lamp.pin, ['lamps', i, 'pin']));
        gpio.buttons?.forEach((b, i) => claim(b.pin, ['buttons', i, 'pin']));
      }),
    );

  return GpioConfigSchema;
}

export type GpioConfig = z.infer<ReturnType<typeof gpioConfigSchema>>;
export type ButtonConfig = NonNullable<GpioConfig['buttons']>[number];
