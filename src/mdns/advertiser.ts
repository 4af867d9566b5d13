// The box's advertisement over mDNS/DNS-SD: `_showclock._tcp` and `_http._tcp`, both
// under the room's name (mdns-records.ts), by @homebridge/ciao.
//
// Why ciao (README "Found on the network (mDNS)"): a pure-JS responder that probes
// before it claims a name and renames on a conflict as RFC 6762 9 asks ("Main hall"
// becomes "Main hall (2)"; two rooms given the same name both stay on the network),
// follows interfaces that come and go, sends goodbye packets at the end, and runs
// beside avahi-daemon on a Pi (Homebridge does, on many). Avahi itself would need its
// D-Bus API or service files in /etc/avahi, which a box started by `npm start` or in a
// container cannot count on.
//
// Never fatal: a box that cannot bind port 5353 (no multicast, a locked-down
// container) logs one warning and runs on without being found.
import { networkInterfaces } from 'node:os';
import { getResponder, type CiaoService, type Responder } from '@homebridge/ciao';
import type { Logger } from '../log/logger.js';
import { patchCiaoInterfaceNames } from './ciao-interfaces.js';
import { hostLabels, HTTP_SERVICE_TYPE, httpTxt, SHOWCLOCK_SERVICE_TYPE, showclockTxt, type AdvertisedRoom } from './mdns-records.js';

/** Goodbye packets are sent within this at a stop; a stop never waits longer for them. */
export const GOODBYE_LIMIT_MS = 1_500;
/** How often the interfaces are looked at for one that gained its first IPv4 address (see interfacesGainingIpv4). */
export const INTERFACE_CHECK_MS = 5_000;

export interface MdnsDeps {
  readonly room: AdvertisedRoom;
  readonly logger: Logger;
  /** For tests: the interfaces as os.networkInterfaces() gives them. */
  readonly interfaces?: () => NodeJS.Dict<readonly { family: string | number; internal: boolean; address: string }[]>;
}

export interface MdnsAdvertisement {
  /** The full names (`main hall._showclock._tcp.local`) this box answers for now, lower case: a browser in the same box skips them. */
  ownNames(): readonly string[];
  /** Resolves once the first announcement went out (or failed, which is logged). */
  readonly ready: Promise<void>;
  /** Goodbye packets (TTL 0) for both services, then the sockets closed; resolves within GOODBYE_LIMIT_MS. Safe to call twice. */
  close(): Promise<void>;
}

/** ciao's full names end in a dot and keep their case; browsers compare without either. */
export function comparableName(fullName: string): string {
  return fullName.replace(/\.$/, '').toLowerCase();
}

type InterfaceList = NonNullable<MdnsDeps['interfaces']>;
/** Interface name → its first IPv4 address, or null when it has none (only IPv6, link-local at boot). */
export type Ipv4ByInterface = ReadonlyMap<string, string | null>;

export function ipv4ByInterface(list: ReturnType<InterfaceList>): Ipv4ByInterface {
  const result = new Map<string, string | null>();
  for (const [name, infos] of Object.entries(list)) {
    if (infos === undefined || infos.some((info) => info.internal)) continue;
    const ipv4 = infos.find((info) => info.family === 'IPv4' || info.family === 4);
    result.set(name, ipv4?.address ?? null);
  }
  return result;
}

/**
 * Interfaces that were there without an IPv4 address and have one now: a Pi's Ethernet
 * or Wi-Fi has its IPv6 link-local address at once and its DHCP address seconds later.
 * ciao 1.3.12 opens its IPv4 socket for an interface only when it first sees it with an
 * IPv4 address, and never for one that gains it later, so the box would not be
 * advertised there until a restart; the advertisement is started afresh for them.
 * (An interface that appears with its address already is ciao's own affair.)
 */
export function interfacesGainingIpv4(before: Ipv4ByInterface, now: Ipv4ByInterface): string[] {
  return [...now].flatMap(([name, ipv4]) => (ipv4 !== null && before.has(name) && before.get(name) === null ? [name] : []));
}

export function startMdns(deps: MdnsDeps): MdnsAdvertisement {
  return new Advertisement(deps);
}

interface Running {
  readonly responder: Responder;
  readonly services: readonly CiaoService[];
  /** Resolves once both services are announced; false when advertising failed. */
  readonly advertised: Promise<boolean>;
}

class Advertisement implements MdnsAdvertisement {
  readonly #deps: MdnsDeps;
  readonly #interfaces: InterfaceList;
  #running: Running | null = null;
  #closing: Promise<void> | null = null;
  #restarting: Promise<void> | null = null;
  /** The instance name after a rename on a conflict; null while it is the configured one. */
  #advertisedName: string | null = null;
  #seen: Ipv4ByInterface;
  readonly #watch: NodeJS.Timeout;
  readonly ready: Promise<void>;

  constructor(deps: MdnsDeps) {
    this.#deps = deps;
    this.#interfaces = deps.interfaces ?? networkInterfaces;
    this.#seen = ipv4ByInterface(this.#interfaces());
    this.#running = this.#start();
    const first = this.#running;
    this.ready =
      first === null
        ? Promise.resolve()
        : first.advertised.then((ok) => {
            if (!ok) return;
            const name = this.#advertisedName ?? deps.room.name;
            deps.logger.info({ name, port: deps.room.port }, `advertised on the network as "${name}" (_showclock._tcp, port ${deps.room.port})`);
          });
    this.#watch = setInterval(() => this.#checkInterfaces(), INTERFACE_CHECK_MS);
    this.#watch.unref();
  }

  ownNames(): readonly string[] {
    return (this.#running?.services ?? []).map((service) => comparableName(service.getFQDN()));
  }

  close(): Promise<void> {
    clearInterval(this.#watch);
    this.#closing ??= (this.#restarting ?? Promise.resolve()).then(() => this.#stop(this.#running));
    return this.#closing;
  }

  #start(): Running | null {
    const { room, logger } = this.#deps;
    let responder: Responder;
    try {
      patchCiaoInterfaceNames();
      responder = getResponder();
    } catch (error) {
      logger.warn({ err: error }, 'mDNS: cannot start the responder; the box runs on, but other boxes and Companion will not find it on the network');
      return null;
    }
    const hosts = hostLabels(room.name);
    const showclock = responder.createService({ name: room.name, hostname: hosts.showclock, type: SHOWCLOCK_SERVICE_TYPE, port: room.port, txt: showclockTxt(room) });
    const http = responder.createService({ name: room.name, hostname: hosts.http, type: HTTP_SERVICE_TYPE, port: room.port, txt: httpTxt() });
    // A conflict (another room with this name) is resolved by ciao while probing: it
    // picks "<name> (2)" and tells us here. Said once per service, at info: the box
    // works as before, only its name on the network differs.
    for (const [service, type] of [[showclock, SHOWCLOCK_SERVICE_TYPE], [http, HTTP_SERVICE_TYPE]] as const) {
      service.on('name-change', (name: string) => {
        if (service === showclock) this.#advertisedName = name;
        logger.info({ wanted: room.name, name, service: `_${type}._tcp` }, `mDNS: the name "${room.name}" is taken on the network (another room has it): advertised as "${name}" instead`);
      });
    }
    const advertised = Promise.all([showclock.advertise(), http.advertise()]).then(
      () => true,
      (error: unknown) => {
        if (this.#closing === null) logger.warn({ err: error }, 'mDNS: cannot advertise this box (is multicast available on this network?); it runs on, but other boxes and Companion will not find it');
        return false;
      },
    );
    return { responder, services: [showclock, http], advertised };
  }

  async #stop(running: Running | null): Promise<void> {
    if (running === null) return;
    // ciao's shutdown() must run once per responder.
    if (this.#running === running) this.#running = null;
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), GOODBYE_LIMIT_MS);
    });
    try {
      // shutdown() unpublishes every announced service (goodbye: its records with TTL 0),
      // cancels a probe in progress, then closes the sockets.
      const outcome = await Promise.race([running.responder.shutdown().then(() => 'sent' as const), limit]);
      if (outcome === 'late') this.#deps.logger.warn('mDNS: goodbye packets not sent in time; other boxes will see this one gone when its records expire');
    } catch (error) {
      this.#deps.logger.warn({ err: error }, 'mDNS: goodbye packets could not be sent; other boxes will see this one gone when its records expire');
    } finally {
      clearTimeout(timer);
    }
  }

  #checkInterfaces(): void {
    if (this.#closing !== null || this.#restarting !== null) return;
    const now = ipv4ByInterface(this.#interfaces());
    const gained = interfacesGainingIpv4(this.#seen, now);
    this.#seen = now;
    if (gained.length === 0) return;
    const { logger } = this.#deps;
    logger.info({ interfaces: gained }, `mDNS: ${gained.join(', ')} has an IPv4 address now: advertising the box again so that it is found there too`);
    const old = this.#running;
    this.#restarting = this.#stop(old)
      .then(() => {
        if (this.#closing !== null) return;
        this.#running = this.#start();
      })
      .finally(() => {
        this.#restarting = null;
      });
  }
}
