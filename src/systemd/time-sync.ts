// Is the box's wall clock synchronised, and how far off may it be (issue 33)?
// Asked of what the box has, without D-Bus libraries: the programs that speak
// D-Bus (timedatectl) or chronyd's socket (chronyc) are run instead, and their
// plain output read (locale C).
//
// Which answer wins (decided, README "Clock"):
// 1. chrony, when `chronyc -n -c tracking` answers: chronyd is then the box's NTP
//    client (Debian's chrony package replaces systemd-timesyncd). Synchronised
//    when its leap status is not "Not synchronised" and it has a reference
//    (stratum above 0) other than its own clock (`local stratum`, reference
//    7F7F0101: a box serving the LAN with no server of its own); offset and maximum error (|offset| + root delay / 2 +
//    root dispersion, chrony's own bound) from the same line.
// 2. Otherwise timedatectl's NTPSynchronized, the kernel's own flag (adjtimex:
//    not STA_UNSYNC): set while an NTP client keeps the clock, cleared by the
//    kernel when none has for hours, and by any manual step. It is more current
//    than /run/systemd/timesync/synchronized, which says only that timesyncd
//    synced once since boot. `timedatectl timesync-status` adds the server,
//    offset and root distance where timesyncd runs. NTP=no means no NTP service
//    is enabled: the source is "none".
// 3. Without an answer from timedatectl (no systemd, D-Bus down): the file
//    /run/systemd/timesync/synchronized, when it exists, says synchronised;
//    on a box booted with systemd its absence says not; elsewhere the box
//    cannot tell (null), and says so.
// A Pi without network at boot has its clock from fake-hwclock and no NTP
// sample: the kernel flag is clear, so it reads as not synchronised.
import { existsSync } from 'node:fs';
import type { ClockSync, TimeSource } from '../domain/clock-sync.js';
import type { Scheduler } from '../app/clock.js';
import type { Logger } from '../log/logger.js';
import type { RunCommand } from './run-command.js';

/** How often the clock's state is asked again; a request never waits for it. */
export const CLOCK_POLL_MS = 30_000;

/** A reading, before the watch adds since when it has been so. */
export type ClockReading = Omit<ClockSync, 'since' | 'setByHandAt'> & {
  /** Whether an NTP service is enabled (timedatectl's NTP=), when known: setting the clock by hand needs it off for the moment. */
  readonly ntpEnabled?: boolean;
};

/** chrony's reference id while it serves its own clock (`local stratum N`): no time server behind it. */
const CHRONY_LOCAL_REFID = '7F7F0101';

export interface ChronyTracking {
  readonly referenceId: string;
  readonly referenceName: string;
  readonly stratum: number;
  /** The box's clock minus true time, ms (chrony's "System time" correction, sign turned: positive is fast). */
  readonly offsetMs: number;
  readonly rootDelayMs: number;
  readonly rootDispersionMs: number;
  readonly leapStatus: string;
}

/**
 * One line of `chronyc -c tracking`: reference id, name, stratum, reference time,
 * system time (seconds the clock must be corrected by: positive when it is slow),
 * last offset, RMS offset, frequency, residual frequency, skew, root delay, root
 * dispersion, update interval, leap status. Null when it is not such a line.
 */
export function parseChronyTracking(text: string): ChronyTracking | null {
  const line = text.trim().split('\n')[0] ?? '';
  const cells = line.split(',');
  if (cells.length < 14) return null;
  const num = (i: number): number => Number(cells[i]);
  const stratum = num(2);
  const correctionS = num(4);
  const rootDelayS = num(10);
  const rootDispersionS = num(11);
  if (![stratum, correctionS, rootDelayS, rootDispersionS].every(Number.isFinite)) return null;
  return {
    referenceId: (cells[0] ?? '').toUpperCase(),
    referenceName: cells[1] ?? '',
    stratum,
    offsetMs: roundMs(-correctionS * 1_000),
    rootDelayMs: roundMs(rootDelayS * 1_000),
    rootDispersionMs: roundMs(rootDispersionS * 1_000),
    leapStatus: (cells[13] ?? '').trim(),
  };
}

/** `KEY=value` lines of `timedatectl show -p NTP -p NTPSynchronized`. */
export function parseTimedatectlShow(text: string): { ntp: boolean | null; synchronized: boolean | null } {
  const values = new Map<string, string>();
  for (const line of text.split('\n')) {
    const at = line.indexOf('=');
    if (at > 0) values.set(line.slice(0, at).trim(), line.slice(at + 1).trim());
  }
  const yesNo = (value: string | undefined): boolean | null => (value === 'yes' ? true : value === 'no' ? false : null);
  return { ntp: yesNo(values.get('NTP')), synchronized: yesNo(values.get('NTPSynchronized')) };
}

/** A systemd time span as timedatectl prints it (`+4.523ms`, `221us`, `1min 4s`, `-1.2s`, `0`), in ms; null when it is none. */
export function parseTimeSpanMs(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '0' || trimmed === '-0' || trimmed === '+0') return 0;
  const sign = trimmed.startsWith('-') ? -1 : 1;
  const parts = trimmed.replace(/^[+-]/, '').split(/\s+/);
  const unitMs: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, ms: 1, s: 1_000, min: 60_000, h: 3_600_000, d: 86_400_000 };
  let total = 0;
  for (const part of parts) {
    const match = /^([0-9]+(?:\.[0-9]+)?)([a-zµ]+)$/.exec(part);
    const factor = match === null ? undefined : unitMs[match[2] ?? ''];
    if (match === null || factor === undefined) return null;
    total += Number(match[1]) * factor;
  }
  return roundMs(sign * total);
}

/** `timedatectl timesync-status`: `Server: 10.43.16.1 (10.43.16.1)`, `Root distance: 33.637ms (max: 5s)`, `Offset: +4.523ms`, ... */
export function parseTimesyncStatus(text: string): { server?: string; offsetMs?: number; rootDistanceMs?: number } {
  const values = new Map<string, string>();
  for (const line of text.split('\n')) {
    const at = line.indexOf(':');
    if (at > 0) values.set(line.slice(0, at).trim(), line.slice(at + 1).trim());
  }
  const server = values.get('Server');
  const offsetMs = parseTimeSpanMs(values.get('Offset') ?? '');
  const rootDistanceMs = parseTimeSpanMs((values.get('Root distance') ?? '').replace(/\s*\(.*\)$/, ''));
  return {
    // "n/a" while timesyncd has no server to ask.
    ...(server === undefined || server === '' || server.startsWith('n/a') ? {} : { server: server.replace(/\s*\(.*\)$/, '') }),
    ...(offsetMs === null ? {} : { offsetMs }),
    ...(rootDistanceMs === null ? {} : { rootDistanceMs }),
  };
}

function roundMs(ms: number): number {
  return Math.round(ms * 1_000) / 1_000;
}

export interface TimeSyncPaths {
  /** timesyncd's flag file: exists once it synced since boot. */
  readonly synchronizedFile: string;
  /** Exists on a box booted with systemd. */
  readonly systemdRunDir: string;
}

export const SYSTEM_PATHS: TimeSyncPaths = { synchronizedFile: '/run/systemd/timesync/synchronized', systemdRunDir: '/run/systemd/system' };

/** Asks the box, in the order above. Never rejects. */
export async function readClockSync(run: RunCommand, paths: TimeSyncPaths = SYSTEM_PATHS, exists: (path: string) => boolean = existsSync): Promise<ClockReading> {
  // -n: no reverse DNS lookup of the server, which on a show LAN without DNS would wait for the timeout.
  const chrony = await run('chronyc', ['-n', '-c', 'tracking']);
  const tracking = chrony.ok ? parseChronyTracking(chrony.stdout) : null;
  if (tracking !== null) {
    const local = tracking.referenceId === CHRONY_LOCAL_REFID;
    const synced = tracking.leapStatus !== 'Not synchronised' && tracking.stratum > 0 && !local;
    const maxErrorMs = roundMs(Math.abs(tracking.offsetMs) + tracking.rootDelayMs / 2 + tracking.rootDispersionMs);
    return {
      synced,
      source: 'chrony',
      ...(synced ? { offsetMs: tracking.offsetMs, maxErrorMs } : {}),
      ...(tracking.referenceName === '' ? {} : { server: tracking.referenceName }),
      detail: synced
        ? `chrony keeps the clock (stratum ${tracking.stratum}, within ${formatMs(maxErrorMs)})`
        : local
          ? 'chrony serves the box\'s own clock (local stratum): no time server is reachable'
          : 'chrony runs but has not synchronised the clock to any time server',
    };
  }
  const show = await run('timedatectl', ['show', '-p', 'NTP', '-p', 'NTPSynchronized']);
  const flags = show.ok ? parseTimedatectlShow(show.stdout) : null;
  if (flags !== null && flags.synchronized !== null) {
    const source: TimeSource = flags.ntp === false ? 'none' : 'timesyncd';
    const ntpEnabled = flags.ntp === null ? {} : { ntpEnabled: flags.ntp };
    if (source === 'none' && !flags.synchronized) {
      return { synced: false, source, ...ntpEnabled, detail: 'no network time service is enabled on the box (timedatectl: NTP=no)' };
    }
    const status = source === 'timesyncd' ? await run('timedatectl', ['timesync-status']) : null;
    const details = status?.ok === true ? parseTimesyncStatus(status.stdout) : {};
    const known = flags.synchronized && details.offsetMs !== undefined;
    const maxErrorMs = known && details.rootDistanceMs !== undefined ? roundMs(Math.abs(details.offsetMs ?? 0) + details.rootDistanceMs) : undefined;
    return {
      synced: flags.synchronized,
      source,
      ...ntpEnabled,
      ...(known ? { offsetMs: details.offsetMs } : {}),
      ...(maxErrorMs === undefined ? {} : { maxErrorMs }),
      ...(details.server === undefined ? {} : { server: details.server }),
      detail: flags.synchronized
        ? `the clock is synchronised to a time server${details.server === undefined ? '' : ` (${details.server})`}${maxErrorMs === undefined ? '' : `, within ${formatMs(maxErrorMs)}`}`
        : 'systemd-timesyncd has not reached a time server since the clock was last set (no network, or no server it can reach)',
    };
  }
  if (exists(paths.synchronizedFile)) {
    return { synced: true, source: 'timesyncd', detail: 'systemd-timesyncd synchronised the clock since boot (timedatectl did not answer)' };
  }
  if (exists(paths.systemdRunDir)) {
    // Not synchronised for sure (no flag file since boot), but by what is not known: timedatectl may
    // only be slow (timedated is started on demand; seen at a busy boot), so no "none" here.
    return { synced: false, source: 'unknown', detail: `no time service has synchronised the clock since boot (${show.ok ? 'timedatectl gave no answer' : show.reason})` };
  }
  return { synced: null, source: 'unknown', detail: 'the box cannot tell whether its clock is synchronised: neither chronyc nor timedatectl answered' };
}

function formatMs(ms: number): string {
  return ms < 1_000 ? `${Math.round(ms)} ms` : `${(ms / 1_000).toFixed(1)} s`;
}

export interface ClockWatchOptions {
  readonly read: () => Promise<ClockReading>;
  readonly wallMs: () => number;
  readonly monoMs: () => number;
  readonly scheduler: Scheduler;
  readonly logger: Logger;
  readonly intervalMs?: number;
}

/**
 * The last reading, asked again every 30 s (and at once when asked to: after the
 * clock was set), read by requests without waiting. A change of `synced` is logged.
 */
export class ClockWatch {
  readonly #opts: ClockWatchOptions;
  #state: ClockSync;
  #ntpEnabled: boolean | undefined;
  #setByHandAt: number | undefined;
  #pending: { cancel(): void } | null = null;
  #reading: Promise<ClockSync> | null = null;
  #closed = false;

  constructor(opts: ClockWatchOptions) {
    this.#opts = opts;
    // Until the first reading: unknown, which no page warns about and /healthz says as it is.
    this.#state = { synced: null, source: 'unknown', since: opts.wallMs(), detail: 'the clock has not been checked yet' };
  }

  current(): ClockSync {
    return this.#state;
  }

  /** timedatectl's NTP= at the last reading, when it said. */
  get ntpEnabled(): boolean | undefined {
    return this.#ntpEnabled;
  }

  start(): void {
    void this.refresh();
  }

  /** Notes a manual step, so the box says when its clock was last set by hand. */
  markSetByHand(atWallMs: number): void {
    this.#setByHandAt = atWallMs;
    this.#state = { ...this.#state, setByHandAt: atWallMs };
  }

  /** Reads again now (one reading at a time: a second caller shares it). */
  refresh(): Promise<ClockSync> {
    this.#reading ??= this.#read().finally(() => {
      this.#reading = null;
    });
    return this.#reading;
  }

  async #read(): Promise<ClockSync> {
    this.#pending?.cancel();
    const reading = await this.#opts.read();
    const { ntpEnabled, ...rest } = reading;
    this.#ntpEnabled = ntpEnabled;
    const previous = this.#state;
    const same = previous.synced === rest.synced && previous.source === rest.source;
    this.#state = { ...rest, since: same ? previous.since : this.#opts.wallMs(), ...(this.#setByHandAt === undefined ? {} : { setByHandAt: this.#setByHandAt }) };
    if (!same) {
      const level = rest.synced === false ? 'warn' : 'info';
      this.#opts.logger[level]({ synced: rest.synced, source: rest.source }, rest.synced === false ? `the box's clock is not synchronised: ${rest.detail}` : `clock: ${rest.detail}`);
    }
    if (!this.#closed) {
      this.#pending = this.#opts.scheduler.schedule(this.#opts.monoMs() + (this.#opts.intervalMs ?? CLOCK_POLL_MS), () => void this.refresh());
    }
    return this.#state;
  }

  close(): void {
    this.#closed = true;
    this.#pending?.cancel();
    this.#pending = null;
  }
}
