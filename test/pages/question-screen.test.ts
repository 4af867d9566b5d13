// The audience question on the screens, the pure parts: the face carries the shown
// question (its name only when chosen), and the audience link's image is fetched
// afresh when the setting turns on and after a reconnection, shown only once loaded.
import { describe, expect, it } from 'vitest';
import { createRoom } from '../../src/domain/room.js';
import { toSnapshot } from '../../src/domain/snapshot.js';
import type { Question, QuestionState } from '../../src/domain/types.js';
import { askLinkImage } from '../../src/pages/display/ask-link-image.js';
import { faceAt } from '../../src/client/face.js';

const NOW = Date.UTC(2026, 6, 1, 15, 0, 0);

function question(id: string, state: QuestionState, name = ''): Question {
  return { id, text: `Question ${id}`, name, receivedAt: NOW - 60_000, state, nameShown: false };
}

describe('the question on the face', () => {
  const base = createRoom('t1');
  const snapshotWith = (questions: readonly Question[]) => toSnapshot({ ...base, questions }, 1_000, NOW);

  it('is the shown one, with the name only when the moderator chose it', () => {
    expect(faceAt(snapshotWith([question('a', 'new', 'Ada')]), NOW).face.question).toBeNull();
    expect(faceAt(snapshotWith([question('a', 'shown', 'Ada')]), NOW).face.question).toEqual({ text: 'Question a', name: null });
    expect(faceAt(snapshotWith([{ ...question('a', 'shown', 'Ada'), nameShown: true }]), NOW).face.question).toEqual({ text: 'Question a', name: 'Ada' });
  });

  it('is none from an older box that sends no question', () => {
    const { shownQuestion: _gone, ...older } = snapshotWith([question('a', 'shown')]);
    expect(faceAt(older, NOW).face.question).toBeNull();
  });
});

/** Just what the image helper touches of an <img>. */
class FakeImage {
  hidden = true;
  src: string | null = null;
  readonly #listeners = new Map<string, () => void>();
  addEventListener(type: string, listener: () => void): void {
    this.#listeners.set(type, listener);
  }
  setAttribute(name: string, value: string): void {
    if (name === 'src') this.src = value;
  }
  fire(type: 'load' | 'error'): void {
    this.#listeners.get(type)?.();
  }
}

describe("the screens' audience-link image", () => {
  const make = () => {
    const fake = new FakeImage();
    return { fake, image: askLinkImage(fake as unknown as HTMLImageElement, '/display/ask-link.svg') };
  };

  it('loads when the setting turns on, shows once loaded, and hides when it turns off', () => {
    const { fake, image } = make();
    image.reload();
    expect(fake.src).toBeNull();
    image.show(true);
    expect(fake.src).toBe('/display/ask-link.svg?r=1');
    expect(fake.hidden).toBe(true);
    fake.fire('load');
    expect(fake.hidden).toBe(false);
    // The same setting again is no new request.
    image.show(true);
    expect(fake.src).toBe('/display/ask-link.svg?r=1');
    image.show(false);
    expect(fake.hidden).toBe(true);
    // A load finishing after it was turned off does not show it.
    fake.fire('load');
    expect(fake.hidden).toBe(true);
  });

  it('is fetched afresh when turned on again and after a reconnection; a failed load shows nothing', () => {
    const { fake, image } = make();
    image.show(true);
    image.show(false);
    image.show(true);
    expect(fake.src).toBe('/display/ask-link.svg?r=2');
    image.reload();
    expect(fake.src).toBe('/display/ask-link.svg?r=3');
    fake.fire('error');
    expect(fake.hidden).toBe(true);
  });
});
