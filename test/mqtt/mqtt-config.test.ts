// The `mqtt` section of the config file and its environment variables: off by
// default, every mistake named by its field, the password never printed.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { hostSlug, mqttConfigured } from '../../src/config/mqtt-config.js';
import { useConfigDir, installScriptExample, configCommandOutput } from '../config/config-dir.js';

const configs = useConfigDir('showclock-mqtt-config-');
const withFile = (content: unknown, env: NodeJS.ProcessEnv = {}) => configs.load(content, env);
const problemOf = (content: unknown, env: NodeJS.ProcessEnv = {}): string => configs.problem(content, env);

describe('mqtt config', () => {
  it('is off by default, with the base topic showclock and the room from the host name', () => {
    const { mqtt } = loadConfig({}, configs.path());
    expect(mqttConfigured(mqtt)).toBe(false);
    expect(mqtt).toMatchObject({ url: undefined, username: undefined, password: undefined, baseTopic: 'showclock', room: hostSlug(), discovery: true, discoveryPrefix: 'homeassistant' });
  });

  it('makes a topic level of a host name', () => {
    expect(hostSlug('Stage-A.local')).toBe('stage-a');
    expect(hostSlug('Saal 2 (groß)')).toBe('saal-2-gro');
    expect(hostSlug('...')).toBe('showclock');
  });

  it('reads the file, and the environment on top', () => {
    const { mqtt } = withFile(
      { mqtt: { url: 'mqtt://10.0.0.5:1883', username: 'box', password: 'pw', baseTopic: 'venue/showclock', room: 'hall-1' } },
      { SHOWCLOCK_MQTT_ROOM: 'hall-2', SHOWCLOCK_MQTT_PASSWORD: 'pw2' },
    );
    expect(mqtt).toMatchObject({ url: 'mqtt://10.0.0.5:1883', username: 'box', password: 'pw2', baseTopic: 'venue/showclock', room: 'hall-2' });
    expect(mqttConfigured(mqtt)).toBe(true);
    expect(loadConfig({ SHOWCLOCK_MQTT_URL: 'mqtts://broker.example:8883' }, configs.path()).mqtt.url).toBe('mqtts://broker.example:8883');
  });

  it('names the field of every bad value', () => {
    expect(problemOf({ mqtt: { url: 'http://x' } })).toContain('mqtt.url: expected mqtt:// or mqtts:// (TLS), got http://');
    expect(problemOf({ mqtt: { url: 'mqtt://u:p@x' } })).toContain('mqtt.url: give the user name and password as mqtt.username and mqtt.password');
    expect(problemOf({ mqtt: { url: 'mqtt://x', room: 'a/b' } })).toContain('mqtt.room: expected 1 to 64 characters');
    expect(problemOf({ mqtt: { url: 'mqtt://x', baseTopic: 'show/#' } })).toContain('mqtt.baseTopic: expected topic levels');
    expect(problemOf({ mqtt: { url: 'mqtt://x', port: 1883 } })).toContain('mqtt');
    expect(problemOf({ mqtt: { url: 'mqtt://x', password: 'pw' } })).toContain('mqtt.password: given without mqtt.username');
    expect(problemOf({ mqtt: { url: 'mqtt://x', caFile: '/etc/ca.pem' } })).toContain('mqtt.caFile: only for an mqtts:// broker');
    expect(problemOf({ mqtt: { url: 'mqtts://x', caFile: path.join(configs.path(), 'missing.pem') } })).toContain('mqtt.caFile:');
    const notPem = path.join(configs.path(), 'ca.key');
    writeFileSync(notPem, '-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMG\n-----END PRIVATE KEY-----\n');
    expect(problemOf({ mqtt: { url: 'mqtts://x', caFile: notPem } })).toContain(`mqtt.caFile: ${notPem} holds no certificate in PEM form`);
    expect(problemOf({}, { SHOWCLOCK_MQTT_URL: 'tcp://x' })).toContain('environment SHOWCLOCK_MQTT_URL: expected mqtt:// or mqtts://');
    expect(problemOf({}, { SHOWCLOCK_MQTT_ROOM: 'a+b' })).toContain('environment SHOWCLOCK_MQTT_ROOM:');
  });
});

describe('the install script', () => {
  it('has a commented mqtt example that is valid once uncommented', () => {
    const block = installScriptExample('mqtt');
    expect(withFile(JSON.parse(block)).mqtt).toMatchObject({ url: 'mqtt://192.168.1.5:1883', username: 'showclock', password: '...', room: 'stage-a' });
  });
});

describe('showclock config', () => {
  it('says the MQTT password is set and never prints it', () => {
    const config = withFile({ mqtt: { url: 'mqtt://127.0.0.1:1883', username: 'box', password: 'do-not-print-me' } });
    const written = configCommandOutput(config, [], ['mqtt']);
    expect(written.join('')).not.toContain('do-not-print-me');
    expect(JSON.parse(written[1] ?? '')).toMatchObject({ url: 'mqtt://127.0.0.1:1883', username: 'box', password: '(set)' });
  });
});
