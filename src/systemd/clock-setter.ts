// Setting the box's clock by hand (issue 33): from the console device's clock, in
// one confirmed step, only while the box is not synchronised. The service cannot
// set the clock itself (its unit has ProtectClock=yes, and it has no
// CAP_SYS_TIME): it asks systemd-timedated through `timedatectl set-time`, which
// polkit allows the `showclock` user by the rule install.sh writes
// (/etc/polkit-1/rules.d/50-showclock-clock.rules: org.freedesktop.timedate1.set-time
// and set-ntp, nothing else).
// timedated refuses set-time while an NTP service is enabled ("Automatic time
// synchronization is enabled"): a box whose timesyncd is on but reaches no server
// has NTP turned off for the moment of the step and on again right after (also
// when the step failed), so a server that becomes reachable later still takes over.
import { CLOCK_SET_MAX_DISTANCE_MS, type BoxClock, type ClockSetResult, type ClockSync } from '../domain/clock-sync.js';
import type { Logger } from '../log/logger.js';
import type { CommandResult, RunCommand } from './run-command.js';

export interface ClockSetterOptions {
  readonly run: RunCommand;
  /** The last reading, at once. */
  readonly current: () => ClockSync;
  /** A fresh reading (the set is refused if it says synchronised) and whether NTP is enabled. */
  readonly refresh: () => Promise<ClockSync>;
  readonly ntpEnabled: () => boolean | undefined;
  readonly markSetByHand: (atWallMs: number) => void;
  readonly wallMs: () => number;
  readonly monoMs: () => number;
  readonly logger: Logger;
}

/** timedatectl's words turned into what to do. */
export function setTimeFailure(reason: string, missing: boolean): { status: 409 | 503; error: string } {
  if (missing) return { status: 503, error: 'the box cannot set its clock: timedatectl (systemd) is not installed here; set it with `sudo date -s` on the box' };
  if (/access denied|not authori[sz]ed|interactive authentication required|permission/i.test(reason)) {
    return {
      status: 503,
      error:
        'the box is not allowed to set its clock: the polkit rule install.sh writes (/etc/polkit-1/rules.d/50-showclock-clock.rules) is missing or polkit is not installed; ' +
        `run \`sudo ./install.sh\` again, or set it on the box with \`sudo timedatectl set-time\` (timedatectl said: ${reason})`,
    };
  }
  if (/automatic time synchronization is enabled|ntp/i.test(reason) && /enabled/i.test(reason)) {
    return { status: 409, error: `network time is on and the box could not turn it off for the step; run \`sudo timedatectl set-ntp false\` on the box and try again (timedatectl said: ${reason})` };
  }
  if (/did not answer|failed to connect to bus|could not activate|timed out|connection timed out|no such file/i.test(reason)) {
    return { status: 503, error: `the box's time service (systemd-timedated) did not answer; try again in a moment, or set the clock on the box with \`sudo timedatectl set-time\` (${reason})` };
  }
  return { status: 503, error: `the box could not set its clock: timedatectl said "${reason}"; set it on the box with \`sudo timedatectl set-time\`` };
}

/** `@seconds.millis`: an absolute instant that timedatectl reads without a time zone (systemd.time(7)). */
export function setTimeArgument(atMs: number): string {
  const whole = Math.floor(atMs / 1_000);
  const millis = String(Math.round(atMs - whole * 1_000)).padStart(3, '0');
  return `@${whole}.${millis}`;
}

export function boxClock(opts: ClockSetterOptions): BoxClock {
  let busy = false;
  return {
    current: opts.current,
    async set(atMs) {
      if (!Number.isSafeInteger(atMs)) return { ok: false, status: 400, error: 'at: must be whole milliseconds since 1970 (this device\'s Date.now())' };
      const receivedMono = opts.monoMs();
      if (Math.abs(atMs - opts.wallMs()) > CLOCK_SET_MAX_DISTANCE_MS) {
        return { ok: false, status: 400, error: `at: ${new Date(atMs).toISOString()} is more than a year from the box's clock; check this device's date` };
      }
      if (busy) return { ok: false, status: 409, error: 'the clock is being set already; wait a moment and look again' };
      busy = true;
      try {
        return await setClock(opts, atMs, receivedMono);
      } finally {
        busy = false;
      }
    },
  };
}

/** timedated's refusal of a step while network time is on. */
const NTP_ON = /automatic time synchronization is enabled/i;

interface StepOutcome {
  readonly step: CommandResult;
  readonly ntpTurnedOff: boolean;
  /** Why network time could not be turned off (the step was then not tried). */
  readonly offFailed?: CommandResult & { ok: false };
  readonly wallBefore: number;
  readonly target: number;
}

/** One try: network time off first when asked (and on again after, whatever the step did), then the step. */
async function step(opts: ClockSetterOptions, atMs: number, receivedMono: number, ntpOff: boolean): Promise<StepOutcome> {
  if (ntpOff) {
    const off = await opts.run('timedatectl', ['--no-ask-password', 'set-ntp', 'false']);
    if (!off.ok) return { step: off, ntpTurnedOff: true, offFailed: off, wallBefore: opts.wallMs(), target: atMs };
  }
  // The time the request took on the box from its arrival (readings, NTP off) is added: the step lands where the device's clock is now.
  const target = atMs + (opts.monoMs() - receivedMono);
  const wallBefore = opts.wallMs();
  const result = await opts.run('timedatectl', ['--no-ask-password', 'set-time', setTimeArgument(target)]);
  if (ntpOff) {
    const on = await opts.run('timedatectl', ['--no-ask-password', 'set-ntp', 'true']);
    if (!on.ok) opts.logger.warn({ reason: on.reason }, 'network time could not be turned on again after the clock was set; run `sudo timedatectl set-ntp true` on the box');
  }
  return { step: result, ntpTurnedOff: ntpOff, wallBefore, target };
}

async function setClock(opts: ClockSetterOptions, atMs: number, receivedMono: number): Promise<ClockSetResult> {
  // Asked again rather than trusted from up to 30 s ago: a clock that a server keeps is never set by hand.
  const now = await opts.refresh();
  if (now.synced === true) {
    return { ok: false, status: 409, error: `the box's clock is synchronised already (${now.detail}): it is not set by hand; check this device's clock instead` };
  }
  // NTP off for the step where it is known to be on; where that is not known (chrony answered), the
  // step is tried first and timedated's "Automatic time synchronization is enabled" makes it so.
  let outcome = await step(opts, atMs, receivedMono, opts.ntpEnabled() === true);
  if (!outcome.step.ok && !outcome.ntpTurnedOff && NTP_ON.test(outcome.step.reason)) outcome = await step(opts, atMs, receivedMono, true);
  const { step: stepped, wallBefore, target } = outcome;
  if (!stepped.ok) {
    const off = outcome.offFailed;
    if (off !== undefined) return { ok: false, ...setTimeFailure(off.reason, off.missing) };
    const failure = setTimeFailure(stepped.reason, stepped.missing);
    opts.logger.warn({ reason: stepped.reason }, `setting the box's clock failed: ${failure.error}`);
    return { ok: false, ...failure };
  }
  opts.markSetByHand(opts.wallMs());
  opts.logger.warn({ stepMs: Math.round(target - wallBefore) }, 'the box\'s clock was set by hand from a console');
  const after = await opts.refresh();
  return { ok: true, clock: after };
}
