// How many push streams of each kind may be open at once. One shared limit let
// a viewer link handed to an audience take every stream, and then the kiosk on
// the box's own screen and the consoles got 503. Each kind now has its own
// budget, so no number of viewers can touch the kiosk's or the consoles', and
// viewers from one address are capped too, so a few machines cannot take the
// whole viewer budget from the rest of the room.

/** Who a stream is for: the browser on the box (loopback), an API-key holder (console, button panel), or a viewer link. */
export type StreamKind = 'kiosk' | 'control' | 'viewer';

export interface StreamBudgets {
  readonly kiosk: number;
  readonly control: number;
  readonly viewer: number;
  /** Viewer streams one address may hold at once. */
  readonly viewerPerAddress: number;
}

/**
 * The kiosk is one browser (a few tabs and reconnects at most). Consoles and
 * button panels are a handful, but the budget is sized for the bench's 500
 * streams, and only key holders reach it. Viewers are a room's worth of phones
 * and monitors; 20 per address leaves room for tabs and reconnects of one
 * device, and for a few devices behind one NAT.
 */
export const DEFAULT_BUDGETS: StreamBudgets = { kiosk: 16, control: 500, viewer: 1000, viewerPerAddress: 20 };

/** Why a stream is refused: the hub is closed, the budget of its kind is spent, or its address has its share. */
export type Refusal = 'closed' | StreamKind | 'address';

/** A stream counted against the budgets, to be given back when it ends. */
export interface Admission {
  readonly kind: StreamKind;
  /** The viewer address it counts against; null when it counts against none. */
  readonly address: string | null;
}

export class StreamBudget {
  readonly limits: StreamBudgets;
  readonly #open: Record<StreamKind, number> = { kiosk: 0, control: 0, viewer: 0 };
  readonly #perAddress = new Map<string, number>();

  constructor(limits: Partial<StreamBudgets> = {}) {
    this.limits = { ...DEFAULT_BUDGETS, ...limits };
  }

  /** Streams of this kind open now. */
  openOf(kind: StreamKind): number {
    return this.#open[kind];
  }

  /**
   * The admission for a stream of this kind, or why there is none. `address`
   * is where a viewer stream comes from; without one (the box itself, or in
   * process) it counts against the viewer budget only.
   */
  check(kind: StreamKind, address?: string): Admission | Exclude<Refusal, 'closed'> {
    if (this.#open[kind] >= this.limits[kind]) return kind;
    const key = kind === 'viewer' && address !== undefined ? addressKey(address) : null;
    if (key !== null && (this.#perAddress.get(key) ?? 0) >= this.limits.viewerPerAddress) return 'address';
    return { kind, address: key };
  }

  take(admission: Admission): void {
    this.#open[admission.kind] += 1;
    if (admission.address !== null) this.#perAddress.set(admission.address, (this.#perAddress.get(admission.address) ?? 0) + 1);
  }

  giveBack(admission: Admission): void {
    this.#open[admission.kind] -= 1;
    if (admission.address === null) return;
    const left = (this.#perAddress.get(admission.address) ?? 1) - 1;
    // Forgotten at zero, so addresses seen once do not pile up.
    if (left <= 0) this.#perAddress.delete(admission.address);
    else this.#perAddress.set(admission.address, left);
  }
}

/** One key per address: an IPv4 client is the same whether a dual-stack socket says ::ffff:10.0.0.5 or 10.0.0.5. */
function addressKey(address: string): string {
  const lower = address.toLowerCase();
  return lower.startsWith('::ffff:') && lower.includes('.') ? lower.slice('::ffff:'.length) : lower;
}

/** What a refused client is told: which budget is spent, and what to do about it. */
export function refusalMessage(refusal: Refusal, limits: StreamBudgets): string {
  switch (refusal) {
    case 'closed':
      return 'the service is stopping: no push streams are opened; try again once it is back';
    case 'kiosk':
      return `all ${limits.kiosk} kiosk push streams (/display/events, for the browser on the box itself) are open; close a /display tab or try again shortly`;
    case 'control':
      return `all ${limits.control} push streams for API-key clients (consoles, button panels) are open; try again shortly`;
    case 'viewer':
      return `all ${limits.viewer} viewer push streams are open; try again shortly`;
    case 'address':
      return `your address already has ${limits.viewerPerAddress} viewer push streams open (one per open viewer page); close some and try again`;
    default: {
      const unknown: never = refusal;
      throw new Error(`unknown refusal ${String(unknown)}`);
    }
  }
}
