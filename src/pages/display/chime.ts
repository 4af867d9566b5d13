// The chime, synthesised with Web Audio (nothing to download, works offline):
// a falling three-note chime at zero and for the console's test, one soft note
// at the warning threshold. The page calls play() from the same redraw that
// flips the digits, so the sound starts within a frame of 0:00. Browsers hold
// sound back until the page is tapped (the kiosk's Chromium is started with
// --autoplay-policy=no-user-gesture-required, so it never is): needsTap() says
// so, and unlock() is called from the tap.
// Page code: no destructuring (esbuild targets old browsers).

export type ChimeKind = 'zero' | 'warning' | 'test';

export interface ChimePlayer {
  /** `volume` in percent, 0 to 100. */
  play(kind: ChimeKind, volume: number): void;
  /** True while the browser holds sound back until a tap. */
  needsTap(): boolean;
  /** From a tap: lets the sound out. */
  unlock(): void;
  /** Called when needsTap() may have changed. */
  onChange(listener: () => void): void;
}

type AudioContextClass = new () => AudioContext;

/** [frequency Hz, start s, length s] */
const NOTES: Readonly<Record<ChimeKind, readonly (readonly [number, number, number])[]>> = {
  zero: [
    [1046.5, 0, 0.6],
    [784, 0.18, 0.6],
    [523.25, 0.36, 1.0],
  ],
  test: [
    [1046.5, 0, 0.6],
    [784, 0.18, 0.6],
    [523.25, 0.36, 1.0],
  ],
  warning: [[880, 0, 0.45]],
};

export function createChimePlayer(): ChimePlayer {
  const w = window as unknown as { AudioContext?: AudioContextClass; webkitAudioContext?: AudioContextClass };
  const Ctor = w.AudioContext ?? w.webkitAudioContext;
  let ctx: AudioContext | null = null;
  const listeners: (() => void)[] = [];
  const changed = (): void => {
    for (let i = 0; i < listeners.length; i += 1) (listeners[i] as () => void)();
  };
  if (Ctor !== undefined) {
    try {
      ctx = new Ctor();
      ctx.onstatechange = changed;
    } catch {
      ctx = null;
    }
  }
  return {
    play(kind, volume) {
      if (ctx === null) return;
      if (ctx.state === 'suspended') void ctx.resume().catch(() => {});
      // Loudness grows about with the square of the level: 70 % sounds like 70 %.
      const peak = 0.8 * Math.pow(Math.max(0, Math.min(100, volume)) / 100, 2);
      if (peak <= 0) return;
      const t0 = ctx.currentTime;
      const notes = NOTES[kind];
      for (let i = 0; i < notes.length; i += 1) {
        const note = notes[i] as readonly [number, number, number];
        const at = t0 + note[1];
        const osc = ctx.createOscillator();
        osc.type = 'sine';
        osc.frequency.value = note[0];
        const gain = ctx.createGain();
        // A 10 ms attack and an exponential fade: no click at either end.
        gain.gain.setValueAtTime(0.0001, at);
        gain.gain.exponentialRampToValueAtTime(peak, at + 0.01);
        gain.gain.exponentialRampToValueAtTime(0.0001, at + note[2]);
        osc.connect(gain);
        gain.connect(ctx.destination);
        osc.start(at);
        osc.stop(at + note[2] + 0.05);
      }
    },
    needsTap() {
      return ctx !== null && ctx.state === 'suspended';
    },
    unlock() {
      if (ctx === null) return;
      // A silent buffer played from the tap itself unlocks iOS Safari too.
      const buffer = ctx.createBuffer(1, 1, 22_050);
      const source = ctx.createBufferSource();
      source.buffer = buffer;
      source.connect(ctx.destination);
      source.start(0);
      void ctx.resume().then(changed, changed);
    },
    onChange(listener) {
      listeners.push(listener);
    },
  };
}
