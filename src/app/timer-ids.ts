// Timer ids: short, random (so a fresh room never reuses an id a button panel
// still points at), URL-safe, and unique within the running order.
import { randomBytes } from 'node:crypto';
import type { Room } from '../domain/types.js';

export function randomTimerId(): string {
  return randomBytes(4).toString('hex');
}

export function newTimerIdFor(room: () => Room): () => string {
  return () => {
    for (;;) {
      const id = randomTimerId();
      if (!room().timers.some((t) => t.id === id)) return id;
    }
  };
}
