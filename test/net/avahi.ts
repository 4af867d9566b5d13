// Debian's avahi-daemon inside one side of a NetnsPair, with a D-Bus system bus of its
// own, so that `avahi-browse` (what a Linux laptop in the venue would run) can look at
// that little network. Nothing of the host's D-Bus or avahi is touched: the bus socket
// is in a temporary directory, and avahi-daemon runs with a tmpfs over /run inside the
// mount namespace `ip netns exec` gives it (its pid file and socket in /run/avahi-daemon
// cannot meet a host's).
//
//   const avahi = await startAvahi(pair, 1, dir);
//   const { stdout } = await avahi.browseOnce('_showclock._tcp');   // avahi-browse -rpt
//   const live = avahi.follow('_showclock._tcp');                    // avahi-browse -rp, lines as they come
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { execIn, OutputLines, runIn, type ExecResult, type NetnsPair, type Side } from './netns.js';

export interface Avahi {
  /** DBUS_SYSTEM_BUS_ADDRESS for avahi's clients. */
  readonly env: NodeJS.ProcessEnv;
  /** `avahi-browse -rpt <type>`: resolved, parsable, ends once the list is complete (about a second). */
  browseOnce(type: string): Promise<ExecResult>;
  /** `avahi-browse -rp <type>` left running: `+`, `=` and `-` lines as they happen. Killed by cleanupNetns. */
  follow(type: string): OutputLines;
}

const BUS_CONFIG = (socket: string): string => `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path=${socket}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_destination="*"/>
    <allow receive_sender="*"/>
  </policy>
</busconfig>
`;

// Only the test's veth, IPv4 (what the test checks), nothing published of the namespace's own
// host; a rate limit high enough for a test's bursts.
const AVAHI_CONFIG = (link: string): string => `[server]
use-ipv4=yes
use-ipv6=no
allow-interfaces=${link}
enable-dbus=yes
ratelimit-interval-usec=1000000
ratelimit-burst=1000
[publish]
disable-publishing=yes
[reflector]
[rlimits]
`;

/** Starts dbus-daemon and avahi-daemon in the namespace of `side`; resolves once avahi says it is up. */
export async function startAvahi(pair: NetnsPair, side: Side, dir: string): Promise<Avahi> {
  const socket = path.join(dir, 'system_bus_socket');
  const busConfig = path.join(dir, 'bus.conf');
  const avahiConfig = path.join(dir, 'avahi-daemon.conf');
  writeFileSync(busConfig, BUS_CONFIG(socket));
  writeFileSync(avahiConfig, AVAHI_CONFIG(pair.links[side]));
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? '/usr/sbin:/usr/bin:/sbin:/bin', DBUS_SYSTEM_BUS_ADDRESS: `unix:path=${socket}` };
  const bus = new OutputLines(runIn(pair, side, 'dbus-daemon', [`--config-file=${busConfig}`, '--nofork', '--nopidfile', '--print-address']));
  await bus.waitFor((line) => line.startsWith('unix:'), 5_000, 'dbus-daemon printing its address');
  const daemon = new OutputLines(
    runIn(pair, side, 'sh', ['-c', 'mount -t tmpfs tmpfs /run && exec avahi-daemon --no-drop-root --no-chroot --no-rlimits -f "$1"', 'sh', avahiConfig], { env }),
  );
  await daemon.waitFor((line) => line.includes('Server startup complete'), 10_000, 'avahi-daemon starting');
  return {
    env,
    browseOnce: (type) => execIn(pair, side, 'avahi-browse', ['-rpt', type], { env, timeoutMs: 10_000 }),
    follow: (type) => new OutputLines(runIn(pair, side, 'avahi-browse', ['-rp', type], { env })),
  };
}

/** One resolved (`=`) line of `avahi-browse -p`, split: the instance name unescaped, TXT as a record. */
export interface AvahiService {
  readonly event: '+' | '=' | '-';
  readonly name: string;
  readonly type: string;
  readonly host: string | null;
  readonly address: string | null;
  readonly port: number | null;
  readonly txt: Readonly<Record<string, string>>;
  readonly raw: string;
}

/** avahi escapes `.` `\` and non-printable bytes as \DDD (decimal): `Main\032hall`. */
export function unescapeAvahi(text: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i += 1) {
    const decimal = /^\\(\d{3})/.exec(text.slice(i));
    if (decimal !== null) {
      bytes.push(Number(decimal[1]));
      i += 3;
    } else if (text[i] === '\\' && i + 1 < text.length) {
      bytes.push(...Buffer.from(text[i + 1]!, 'utf8'));
      i += 1;
    } else {
      bytes.push(...Buffer.from(text[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

export function parseAvahiLine(line: string): AvahiService | null {
  const fields = line.split(';');
  const event = fields[0];
  if ((event !== '+' && event !== '=' && event !== '-') || fields.length < 6) return null;
  const txt: Record<string, string> = {};
  // TXT strings: "key=value" "key=value" (quotes inside escaped by avahi as \034 is not done; values here have none).
  for (const match of (fields.slice(9).join(';') ?? '').matchAll(/"([^"]*)"/g)) {
    const entry = match[1] ?? '';
    const equals = entry.indexOf('=');
    if (equals > 0) txt[entry.slice(0, equals)] = entry.slice(equals + 1);
  }
  return {
    event,
    name: unescapeAvahi(fields[3] ?? ''),
    type: fields[4] ?? '',
    host: event === '=' ? (fields[6] ?? null) : null,
    address: event === '=' ? (fields[7] ?? null) : null,
    port: event === '=' ? Number(fields[8]) : null,
    txt,
    raw: line,
  };
}
