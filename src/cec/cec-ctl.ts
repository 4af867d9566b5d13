// cec-ctl (v4l-utils) as the CEC adapter runs it: the command lines, and what its
// output means. The words parsed are cec-ctl's own (utils/cec-ctl/cec-ctl.cpp and
// utils/libcecutil, v4l-utils): after `Transmit from <us> to <them> (4 to 0):` come the
// message, `    Received from <them> (0):` and the reply when one came, then
// `\tSequence: ...`; a message that was not acknowledged, or whose reply did not come,
// ends with a status line such as `\tTx, Not Acknowledged (4), Max Retries` or
// `\tTx, OK, Rx, Timeout`. cec-ctl exits 0 in those cases too, so only the output tells.
// `-s` leaves out the driver information; `-x` prints the physical address first.
import type { ScreenPower } from '../domain/types.js';

export const CEC_CTL = 'cec-ctl';
/** The TV's logical address: the screen is always 0 on the bus. */
const TV = '0';

/** Claim a logical address as a playback device under `osdName` (what the TV lists as the source); prints the physical and logical address. */
export function registerArgs(device: string, osdName: string): string[] {
  return ['-d', device, '-s', '-x', '-l', '--osd-name', osdName, '--playback'];
}

/** Ask the TV its power (Give Device Power Status); prints the physical address first, then the exchange. */
export function powerArgs(device: string): string[] {
  return ['-d', device, '-s', '-x', '--to', TV, '--give-device-power-status'];
}

export function imageViewOnArgs(device: string): string[] {
  return ['-d', device, '-s', '--to', TV, '--image-view-on'];
}

export function standbyArgs(device: string): string[] {
  return ['-d', device, '-s', '--to', TV, '--standby'];
}

/** Active Source is a broadcast: no `--to`. */
export function activeSourceArgs(device: string, physicalAddress: string): string[] {
  return ['-d', device, '-s', '--active-source', `phys-addr=${physicalAddress}`];
}

/** cec-ctl's `-x` for a device with no valid physical address (no HDMI link, no EDID). */
export const NO_PHYSICAL_ADDRESS = 'f.f.f.f';
const PHYSICAL_ADDRESS = /^([0-9a-f]\.[0-9a-f]\.[0-9a-f]\.[0-9a-f])$/m;

/** The physical address `-x` printed (the first such line), null when none. */
export function physicalAddressOf(stdout: string): string | null {
  return PHYSICAL_ADDRESS.exec(stdout)?.[1] ?? null;
}

/** After registerArgs: the physical address, and whether a logical address was claimed (`-l` prints one only then). */
export function parseRegister(stdout: string): { readonly physicalAddress: string | null; readonly logicalAddress: number | null } {
  const lines = stdout.split('\n').map((line) => line.trim());
  const physicalAddress = physicalAddressOf(stdout);
  const la = lines.find((line) => /^\d{1,2}$/.test(line));
  return { physicalAddress, logicalAddress: la === undefined ? null : Number(la) };
}

export type Transmitted =
  /** The message went out and was acknowledged; `power` when the reply was a power report. */
  | { readonly kind: 'acked'; readonly power: ScreenPower | null }
  /** Nobody acknowledged it (no TV on the bus, or it is off the mains). */
  | { readonly kind: 'nacked'; readonly status: string }
  /** Acknowledged, but the reply that was asked for did not come. */
  | { readonly kind: 'no-reply'; readonly status: string }
  /** The TV answered Feature Abort: it does not do that. */
  | { readonly kind: 'refused'; readonly status: string }
  /** cec-ctl sent nothing: the adapter is unconfigured (no logical address), or the transmit call failed. */
  | { readonly kind: 'not-sent' };

const POWER_WORDS: Readonly<Record<string, ScreenPower>> = { on: 'on', standby: 'standby', 'to-on': 'to-on', 'to-standby': 'to-standby' };

/** What became of the (one) message of a cec-ctl run. */
export function parseTransmit(stdout: string): Transmitted {
  const lines = stdout.split('\n');
  const start = lines.findIndex((line) => line.startsWith('Transmit from '));
  if (start === -1) return { kind: 'not-sent' };
  const after = lines.slice(start + 1);
  // No Sequence line: the CEC_TRANSMIT call itself failed, and cec-ctl moved on without a word.
  if (!after.some((line) => line.trim().startsWith('Sequence: '))) return { kind: 'not-sent' };
  const status = after.map((line) => line.trim()).find((line) => /^(Tx|Rx), /.test(line));
  if (status !== undefined) {
    if (!status.startsWith('Tx, OK')) return { kind: 'nacked', status };
    if (status.includes('Feature Abort')) return { kind: 'refused', status };
    if (status.includes('Rx, ')) return { kind: 'no-reply', status };
  }
  const reported = /^\s*pwr-state: ([a-z-]+) \(0x[0-9a-f]{2}\)/m.exec(after.join('\n'));
  const word = reported?.[1];
  return { kind: 'acked', power: word === undefined ? null : (POWER_WORDS[word] ?? 'unknown') };
}
