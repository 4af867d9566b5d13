// A change as what changed (issue 26, decisions.md "the push channel may send
// deltas"): after the first full snapshot of a stream, each change is sent as a
// delta of the snapshot before it, so a new audience question costs that one
// question and a start costs a few numbers, not the whole room again. Pure, and
// shared: the hub makes deltas (snapshotDelta), the pages and the Companion module
// apply them (applyDelta), and applying a delta to the snapshot it was made from
// gives exactly the new snapshot.
//   Scalars and objects are sent whole when they changed (`set`). The three lists
// keyed by id (timers, tags, questions) are sent as the items that are new or
// changed (`put`: a changed one in place, a new one at the end), the ids that are
// gone (`remove`), and the whole order of ids only when the order itself changed
// (a move), which a new item at the end or a removal does not.
import { sameValue } from './same-value.js';
import type { PublicSnapshot, Snapshot } from './snapshot.js';

interface Keyed {
  readonly id: string;
}

export interface ListDelta<T extends Keyed> {
  /** Items new (appended in this order) or changed (replaced where they stand). */
  readonly put?: readonly T[];
  readonly remove?: readonly string[];
  /** Every id in its new order; only when the order changed otherwise than by appending and removing. */
  readonly order?: readonly string[];
}

type Lists = 'timers' | 'tags' | 'questions';
const LISTS: readonly Lists[] = ['timers', 'tags', 'questions'];

/** Fields other than seq and the lists, sent whole when they changed. */
export type SnapshotFields = Partial<Omit<Snapshot, Lists | 'seq'>>;

export interface SnapshotDelta {
  /** The seq of the snapshot this makes. */
  readonly seq: number;
  /** The seq of the snapshot it applies to: a client that holds another one cannot apply it (it reconnects for a full one). */
  readonly from: number;
  readonly set?: SnapshotFields;
  readonly timers?: ListDelta<Snapshot['timers'][number]>;
  readonly tags?: ListDelta<Snapshot['tags'][number]>;
  readonly questions?: ListDelta<NonNullable<Snapshot['questions']>[number]>;
}

function listDelta<T extends Keyed>(before: readonly T[], after: readonly T[]): ListDelta<T> | undefined {
  if (before === after) return undefined;
  const previous = new Map(before.map((item) => [item.id, item]));
  const now = new Set(after.map((item) => item.id));
  const remove = before.filter((item) => !now.has(item.id)).map((item) => item.id);
  const put = after.filter((item) => {
    const old = previous.get(item.id);
    return old === undefined || (old !== item && !sameValue(old, item));
  });
  // The order applyDelta makes without `order`: the survivors as they stood, then the new ones.
  const made = [...before.filter((item) => now.has(item.id)).map((item) => item.id), ...after.filter((item) => !previous.has(item.id)).map((item) => item.id)];
  const order = after.map((item) => item.id);
  const reordered = made.some((id, i) => id !== order[i]);
  if (put.length === 0 && remove.length === 0 && !reordered) return undefined;
  return { ...(put.length > 0 ? { put } : {}), ...(remove.length > 0 ? { remove } : {}), ...(reordered ? { order } : {}) };
}

/** A Map keeps a key where it was first set: a changed item stays in its place, a new one goes last. */
function applyList<T extends Keyed>(before: readonly T[], delta: ListDelta<T> | undefined): readonly T[] {
  if (delta === undefined) return before;
  const byId = new Map<string, T>();
  for (const item of before) byId.set(item.id, item);
  for (const id of delta.remove ?? []) byId.delete(id);
  for (const item of delta.put ?? []) byId.set(item.id, item);
  const items: T[] = [];
  for (const id of delta.order ?? byId.keys()) {
    const item = byId.get(id);
    if (item !== undefined) items.push(item);
  }
  return items;
}

/** What changed from `before` to `after` (the same kind of snapshot: both full, or both public). */
export function snapshotDelta<S extends Snapshot | PublicSnapshot>(before: S, after: S): SnapshotDelta {
  const set: Record<string, unknown> = {};
  for (const key of Object.keys(after) as (keyof S & string)[]) {
    if (key === 'seq' || (LISTS as readonly string[]).includes(key)) continue;
    if (!sameValue(before[key], after[key])) set[key] = after[key];
  }
  const delta: { -readonly [K in keyof SnapshotDelta]: SnapshotDelta[K] } = { seq: after.seq, from: before.seq };
  if (Object.keys(set).length > 0) delta.set = set as SnapshotFields;
  const timers = listDelta(before.timers, after.timers);
  if (timers !== undefined) delta.timers = timers;
  const tags = listDelta(before.tags, after.tags);
  if (tags !== undefined) delta.tags = tags;
  const beforeQuestions = 'questions' in before ? before.questions : undefined;
  const afterQuestions = 'questions' in after ? after.questions : undefined;
  if (beforeQuestions !== undefined && afterQuestions !== undefined) {
    const questions = listDelta(beforeQuestions, afterQuestions);
    if (questions !== undefined) delta.questions = questions;
  }
  return delta;
}

/** The snapshot `delta` makes of `before`; null when `before` is not the snapshot it was made from. */
export function applyDelta<S extends Snapshot | PublicSnapshot>(before: S, delta: SnapshotDelta): S | null {
  if (delta.from !== before.seq) return null;
  const next: Record<string, unknown> = { ...before, ...delta.set, seq: delta.seq };
  // A public snapshot has no questions, and gets no delta of them.
  for (const list of LISTS) if (next[list] !== undefined) next[list] = applyList(next[list] as readonly Keyed[], delta[list]);
  return next as S;
}

/** A parsed `patch` event's data, checked enough to apply it. */
export function isSnapshotDelta(value: unknown): value is SnapshotDelta {
  if (typeof value !== 'object' || value === null) return false;
  // No destructuring: the pages' build cannot lower it for their oldest browsers.
  const delta = value as { seq?: unknown; from?: unknown };
  return typeof delta.seq === 'number' && typeof delta.from === 'number';
}
