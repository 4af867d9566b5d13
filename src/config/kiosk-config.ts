// The `kiosk` section of the config file (issue 33, README "Sound"): where the HDMI
// kiosk's sound (the chime) goes. Read by the kiosk launcher (systemd/showclock-kiosk.sh,
// through `showclock config kiosk.audio`), which resolves "auto" at every start: a screen
// moved to the other HDMI port takes its sound with it at the next start.
import * as z from '../schema/zod.js';
import { checkedString, envText } from './field-checks.js';

export interface KioskConfig {
  /**
   * "auto": the HDMI port a screen is plugged into (else the system's default); "off": no sound;
   * an ALSA card id (`vc4hdmi1`, as /proc/asound/cards and `aplay -l` name it); or a whole ALSA
   * device name (`hw:1,0`, `default:CARD=vc4hdmi1`).
   */
  readonly audio: string;
}

export const KIOSK_DEFAULTS: KioskConfig = { audio: 'auto' };

/** Card ids are at most 15 characters in ALSA; device names are longer but have no spaces or quotes. */
export function kioskAudioProblem(raw: string): string | null {
  if (raw === 'auto' || raw === 'off') return null;
  if (/^[A-Za-z0-9_-]{1,15}$/.test(raw)) return null;
  if (/^[a-z]+:[A-Za-z0-9_=,.-]{1,80}$/.test(raw)) return null;
  return 'expected "auto", "off", an ALSA card id such as "vc4hdmi1" (aplay -l lists them) or an ALSA device such as "hw:1,0"';
}

export const kioskConfigSchema = () =>
  z.strictObject({
    audio: z.optional(checkedString(kioskAudioProblem)),
  });

export class KioskConfigProblem extends Error {}

/** The file's section with SHOWCLOCK_KIOSK_AUDIO over it. */
export function resolveKioskConfig(env: NodeJS.ProcessEnv, file: { readonly audio?: string | undefined } | undefined): KioskConfig {
  const fromEnv = envText(env, 'SHOWCLOCK_KIOSK_AUDIO');
  if (fromEnv !== undefined) {
    const problem = kioskAudioProblem(fromEnv);
    if (problem !== null) throw new KioskConfigProblem(`environment SHOWCLOCK_KIOSK_AUDIO: ${problem}`);
    return { audio: fromEnv };
  }
  return { audio: file?.audio ?? KIOSK_DEFAULTS.audio };
}
