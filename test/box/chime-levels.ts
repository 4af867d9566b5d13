// How much of the chime is in a stretch of recorded sound: QEMU's wav capture of the
// machine's sound card (16-bit little-endian, stereo, 44.1 kHz). The chime is three
// notes (src/pages/display/chime.ts: 1046.5, 784 and 523.25 Hz); their power is set
// against neighbouring frequencies no note has, so silence, noise and another sound
// all come out low. Goertzel's algorithm: one frequency at a time, no FFT needed.

const RATE = 44_100;
const NOTES_HZ = [1046.5, 784, 523.25];
const OTHERS_HZ = [660, 950, 300, 1400];

function power(samples: Float64Array, hz: number): number {
  const k = 2 * Math.cos((2 * Math.PI * hz) / RATE);
  let s1 = 0;
  let s2 = 0;
  for (const x of samples) {
    const s0 = x + k * s1 - s2;
    s2 = s1;
    s1 = s0;
  }
  return s1 * s1 + s2 * s2 - k * s1 * s2;
}

export interface ChimeLevels {
  /** The loudest sample of the left channel, 0 to 32767. */
  readonly peak: number;
  /** The weakest of the three notes over the strongest other frequency: well above 1 when the chime is there. */
  readonly ratio: number;
}

export function chimeLevels(pcm: Buffer): ChimeLevels {
  const frames = Math.floor(pcm.length / 4);
  const left = new Float64Array(frames);
  let peak = 0;
  for (let i = 0; i < frames; i += 1) {
    const sample = pcm.readInt16LE(i * 4);
    left[i] = sample;
    peak = Math.max(peak, Math.abs(sample));
  }
  if (peak === 0) return { peak, ratio: 0 };
  const notes = Math.min(...NOTES_HZ.map((hz) => power(left, hz)));
  const others = Math.max(...OTHERS_HZ.map((hz) => power(left, hz)), 1);
  return { peak, ratio: notes / others };
}
