// Audience question ids: random (so a console never acts on a deleted question's
// reused id), URL-safe, unique within the room, and told apart from timer ids by their `q`.
import { randomBytes } from 'node:crypto';
import type { Room } from '../domain/types.js';

export function newQuestionIdFor(room: () => Room): () => string {
  return () => {
    for (;;) {
      const id = `q${randomBytes(5).toString('hex')}`;
      if (!room().questions.some((q) => q.id === id)) return id;
    }
  };
}
