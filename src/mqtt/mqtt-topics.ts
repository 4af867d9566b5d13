// What the MQTT adapter publishes (README "MQTT (Home Assistant)"), as pure
// functions of a snapshot: the retained state topics under `{base}/{room}/`, the
// phase and when it next changes by time alone, and Home Assistant's discovery
// configs. Type imports only, so the side file (dist/showclock-mqtt.cjs) holds no
// copy of a module with state.
import type { Snapshot } from '../domain/snapshot.js';

/** What the room is doing, in words an automation can match. */
export type MqttPhase = 'ready' | 'running' | 'paused' | 'warning' | 'danger' | 'overrun';

export const PHASES: readonly MqttPhase[] = ['ready', 'running', 'paused', 'warning', 'danger', 'overrun'];

/**
 * ready: the active timer has not run since it was made active or reset; paused:
 * it has run and is not running (a stop at zero included); while running:
 * overrun from 0:00 on (as the screen turns red), danger at or under `dangerAt`,
 * warning at or under `warnAt`, else running.
 */
export function phaseOf(snapshot: Pick<Snapshot, 'running' | 'started' | 'remaining' | 'warnAt' | 'dangerAt'>): MqttPhase {
  if (!snapshot.running) return snapshot.started ? 'paused' : 'ready';
  if (snapshot.remaining <= 0) return 'overrun';
  if (snapshot.dangerAt > 0 && snapshot.remaining <= snapshot.dangerAt) return 'danger';
  if (snapshot.warnAt > 0 && snapshot.remaining <= snapshot.warnAt) return 'warning';
  return 'running';
}

/** The server instant at which the phase next changes with no command (a threshold or 0:00 reached); null: not by itself. */
export function nextPhaseChangeAt(snapshot: Snapshot): number | null {
  if (!snapshot.running || snapshot.endAt === null) return null;
  const endAt = snapshot.endAt;
  const thresholds = [0, ...[snapshot.warnAt, snapshot.dangerAt].filter((t) => t > 0)];
  const instants = thresholds.map((t) => endAt - t).filter((at) => at > snapshot.serverNow);
  return instants.length === 0 ? null : Math.min(...instants);
}

/** The part of the snapshot `{base}/{room}/state` carries: what a dashboard shows, not the running order. */
export interface MqttState {
  readonly seq: number;
  readonly serverNow: number;
  readonly phase: MqttPhase;
  readonly running: boolean;
  readonly remainingMs: number;
  /** When a running timer reaches 0:00, ms since the epoch on the box's clock; null while not running. */
  readonly endsAt: number | null;
  readonly duration: number;
  readonly timerId: string;
  readonly timer: string;
  readonly speaker: string;
  readonly onAir: boolean;
  readonly blackout: boolean;
  readonly message: string | null;
  readonly tallyOn: boolean | null;
}

export function mqttState(snapshot: Snapshot): MqttState {
  return {
    seq: snapshot.seq,
    serverNow: snapshot.serverNow,
    phase: phaseOf(snapshot),
    running: snapshot.running,
    remainingMs: Math.round(snapshot.remaining),
    endsAt: snapshot.endAt,
    duration: snapshot.duration,
    timerId: snapshot.activeTimerId,
    timer: snapshot.activeLabel,
    speaker: snapshot.activeSpeaker,
    onAir: snapshot.onAir,
    blackout: snapshot.blackout,
    message: snapshot.message?.text ?? null,
    tallyOn: snapshot.tally?.on ?? null,
  };
}

/**
 * The retained topics below `{base}/{room}/`, each with its payload. `state` is
 * the JSON of mqttState; it changes with `seq` and `serverNow`, so it is sent on
 * every change of the room; the simple topics are sent only when their own
 * payload changed (the adapter compares).
 */
export function stateTopics(snapshot: Snapshot): ReadonlyMap<string, string> {
  const state = mqttState(snapshot);
  return new Map([
    ['state', JSON.stringify(state)],
    ['phase', state.phase],
    ['running', String(state.running)],
    ['onAir', state.onAir ? 'ON' : 'OFF'],
    ['blackout', state.blackout ? 'ON' : 'OFF'],
    ['timer', state.timer],
    ['remainingMs', String(state.remainingMs)],
    // `null`, not empty: an empty retained message deletes the topic's retained value.
    ['endsAt', state.endsAt === null ? 'null' : new Date(state.endsAt).toISOString()],
  ]);
}

export interface DiscoveryTarget {
  readonly baseTopic: string;
  readonly room: string;
  readonly discoveryPrefix: string;
  readonly version?: string;
}

/** Home Assistant MQTT discovery: one retained config per entity, each naming the one device of this box. */
export function discoveryConfigs(target: DiscoveryTarget): ReadonlyMap<string, object> {
  const root = `${target.baseTopic}/${target.room}`;
  const nodeId = `showclock_${target.room.replace(/-/g, '_')}`;
  const device = {
    identifiers: [nodeId],
    name: `Showclock ${target.room}`,
    manufacturer: 'Showclock',
    model: 'Showclock countdown timer',
    ...(target.version === undefined ? {} : { sw_version: target.version }),
  };
  const common = (objectId: string, name: string) => ({
    name,
    unique_id: `${nodeId}_${objectId}`,
    object_id: `${nodeId}_${objectId}`,
    availability_topic: `${root}/availability`,
    payload_available: 'online',
    payload_not_available: 'offline',
    device,
  });
  const configs = new Map<string, object>();
  const add = (component: string, objectId: string, config: object) => configs.set(`${target.discoveryPrefix}/${component}/${nodeId}/${objectId}/config`, config);
  add('sensor', 'remaining', {
    ...common('remaining', 'Remaining'),
    state_topic: `${root}/remainingMs`,
    unit_of_measurement: 's',
    device_class: 'duration',
    value_template: '{{ (value | int / 1000) | round(0) }}',
    icon: 'mdi:timer-outline',
  });
  add('sensor', 'ends_at', { ...common('ends_at', 'Ends at'), state_topic: `${root}/endsAt`, device_class: 'timestamp', value_template: "{{ None if value == 'null' else value }}" });
  add('sensor', 'phase', { ...common('phase', 'Phase'), state_topic: `${root}/phase`, device_class: 'enum', options: PHASES, icon: 'mdi:timer-sand' });
  add('sensor', 'timer', { ...common('timer', 'Timer'), state_topic: `${root}/timer`, icon: 'mdi:label-outline' });
  add('switch', 'on_air', {
    ...common('on_air', 'ON AIR'),
    state_topic: `${root}/onAir`,
    command_topic: `${root}/set/onair`,
    payload_on: 'ON',
    payload_off: 'OFF',
    state_on: 'ON',
    state_off: 'OFF',
    icon: 'mdi:broadcast',
  });
  add('switch', 'blackout', {
    ...common('blackout', 'Blackout'),
    state_topic: `${root}/blackout`,
    command_topic: `${root}/set/blackout`,
    payload_on: 'ON',
    payload_off: 'OFF',
    state_on: 'ON',
    state_off: 'OFF',
    icon: 'mdi:monitor-off',
  });
  for (const [objectId, name, icon] of [
    ['start', 'Start', 'mdi:play'],
    ['pause', 'Pause', 'mdi:pause'],
    ['next', 'Next', 'mdi:skip-next'],
  ] as const) {
    add('button', objectId, { ...common(objectId, name), command_topic: `${root}/set/${objectId}`, payload_press: 'PRESS', icon });
  }
  return configs;
}
