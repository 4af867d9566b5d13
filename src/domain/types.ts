// The room as plain data. Durations are integer milliseconds; instants on the
// monotonic clock carry "Mono" in their name and never leave the process as-is.

export const APPEARANCES = ['countdown', 'countup', 'clock'] as const;
export type Appearance = (typeof APPEARANCES)[number];

export const ZERO_BEHAVIORS = ['continue', 'stop', 'hide'] as const;
export type ZeroBehavior = (typeof ZERO_BEHAVIORS)[number];

export const MESSAGE_COLORS = ['white', 'green', 'red'] as const;
export type MessageColor = (typeof MESSAGE_COLORS)[number];

/** The Timer resource of remote-control-api.md; field names are the API's. */
export interface Timer {
  readonly id: string;
  readonly label: string;
  readonly speaker: string;
  readonly duration: number;
  readonly warnAt: number;
  readonly appearance: Appearance;
  readonly tagId: string | null;
  readonly scheduledAt: number | null;
}

export interface Message {
  readonly text: string;
  readonly flash: boolean;
  readonly color: MessageColor;
  readonly bold: boolean;
}

export interface Settings {
  readonly zeroBehavior: ZeroBehavior;
  readonly autoAdvance: boolean;
}

/** Running: the end instant on the monotonic clock. Paused: what is left. */
export type Transport =
  | { readonly running: true; readonly endMonoMs: number }
  | { readonly running: false; readonly remainingMs: number };

export interface Room {
  readonly seq: number;
  readonly timers: readonly Timer[];
  readonly activeTimerId: string;
  readonly transport: Transport;
  readonly message: Message | null;
  readonly blackout: boolean;
  readonly onAir: boolean;
  readonly settings: Settings;
}

/** The editable fields of a timer, as the update operations take them. */
export interface TimerFields {
  readonly label?: string;
  readonly speaker?: string;
  readonly duration?: number;
  readonly warnAt?: number;
  readonly appearance?: Appearance;
}

export type Command =
  | { readonly type: 'start' }
  | { readonly type: 'pause' }
  | { readonly type: 'toggle' }
  | { readonly type: 'reset' }
  | { readonly type: 'next' }
  | { readonly type: 'previous' }
  | { readonly type: 'adjust'; readonly ms: number }
  | { readonly type: 'message.set'; readonly message: Message }
  | { readonly type: 'message.clear' }
  | { readonly type: 'blackout.set'; readonly on: boolean }
  | { readonly type: 'blackout.toggle' }
  | { readonly type: 'onair.set'; readonly on: boolean }
  | { readonly type: 'onair.toggle' }
  | { readonly type: 'settings.set'; readonly zeroBehavior?: ZeroBehavior; readonly autoAdvance?: boolean }
  | { readonly type: 'timer.create'; readonly id: string; readonly fields: TimerFields }
  | { readonly type: 'timer.select'; readonly id: string }
  | { readonly type: 'timer.update'; readonly id: string; readonly fields: TimerFields }
  | { readonly type: 'timer.delete'; readonly id: string }
  | { readonly type: 'timer.move'; readonly id: string; readonly to: number };

export type CommandType = Command['type'];

/** `invalid` maps to HTTP 400, `not_found` to 404. */
export interface CommandError {
  readonly kind: 'invalid' | 'not_found';
  readonly message: string;
}
