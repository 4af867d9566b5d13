// Every console action goes through here: one API request, its answer offered
// to the latest snapshot (applied only if newer), its error shown in words.
import type { Snapshot } from '../../domain/snapshot.js';
import type { ApiClient, ApiResult } from './api-client.js';
import type { LatestSnapshot } from './latest-snapshot.js';
import type { Notices } from './notices.js';

export class RoomCommands {
  readonly #api: ApiClient;
  readonly #latest: LatestSnapshot;
  readonly #notices: Notices;

  constructor(api: ApiClient, latest: LatestSnapshot, notices: Notices) {
    this.#api = api;
    this.#latest = latest;
    this.#notices = notices;
  }

  get api(): ApiClient {
    return this.#api;
  }

  /** What the operator sees now; actions decide from it (start vs pause), never from a toggle. */
  get shown(): Snapshot | null {
    return this.#latest.current;
  }

  /** `what` names the action for the error message. Resolves true when the box accepted it. */
  async run(what: string, path: string, body: Readonly<Record<string, string | number | boolean | null>> = {}): Promise<boolean> {
    return this.send(what, () => this.#api.command(path, body));
  }

  /** As `run`, for a request that is not a JSON command (a logo's upload). */
  async send(what: string, request: () => Promise<ApiResult<Snapshot>>): Promise<boolean> {
    // The control is read now: by the time the answer comes, the operator may have clicked elsewhere.
    const near = this.#notices.origin;
    const result = await request();
    if (result.ok) {
      this.#latest.offer(result.value);
      return true;
    }
    this.#notices.error(what, result.error, near);
    return false;
  }

  failed(what: string, error: string): void {
    this.#notices.error(what, error, this.#notices.origin);
  }

  offer(snapshot: Snapshot): void {
    this.#latest.offer(snapshot);
  }
}
