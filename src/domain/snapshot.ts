// The State snapshot of remote-control-api.md §2. Wall-clock values are derived
// here, at the moment the snapshot is made, from one monotonic and one wall
// reading, so a wall-clock step never changes the remaining time.
import { activeTimer, remainingAt } from './room.js';
import type { Message, Room, Settings, Timer, ZeroBehavior } from './types.js';

export interface Snapshot {
  readonly seq: number;
  readonly serverNow: number;
  readonly running: boolean;
  readonly endAt: number | null;
  readonly remainingAtPause: number | null;
  readonly remaining: number;
  readonly zeroBehavior: ZeroBehavior;
  readonly autoAdvance: boolean;
  readonly blackout: boolean;
  readonly onAir: boolean;
  readonly activeTimerId: string;
  readonly activeLabel: string;
  readonly activeSpeaker: string;
  readonly warnAt: number;
  readonly duration: number;
  readonly message: Message | null;
  readonly timers: readonly Timer[];
  readonly settings: Settings;
}

export function toSnapshot(room: Room, nowMonoMs: number, wallNowMs: number): Snapshot {
  const serverNow = Math.round(wallNowMs);
  const remaining = Math.round(remainingAt(room, nowMonoMs));
  const timer = activeTimer(room);
  return {
    seq: room.seq,
    serverNow,
    running: room.transport.running,
    endAt: room.transport.running ? serverNow + remaining : null,
    remainingAtPause: room.transport.running ? null : remaining,
    remaining,
    zeroBehavior: room.settings.zeroBehavior,
    autoAdvance: room.settings.autoAdvance,
    blackout: room.blackout,
    onAir: room.onAir,
    activeTimerId: timer.id,
    activeLabel: timer.label,
    activeSpeaker: timer.speaker,
    warnAt: timer.warnAt,
    duration: timer.duration,
    message: room.message,
    timers: room.timers,
    settings: room.settings,
  };
}
