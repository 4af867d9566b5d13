// A scripted obs-websocket v5 server (the protocol OBS 28+ speaks, as its
// protocol.md has it): Hello with an authentication challenge, Identify checked
// (the password's hash, rpcVersion 1, the event subscriptions), Identified,
// answers to GetStreamStatus and GetRecordStatus, and StreamStateChanged /
// RecordStateChanged events pushed when the test starts or stops an output.
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

export const OP = { Hello: 0, Identify: 1, Identified: 2, Event: 5, Request: 6, RequestResponse: 7 } as const;
/** EventSubscription.Outputs of obs-websocket. */
export const OUTPUTS_SUBSCRIPTION = 1 << 6;

const b64sha = (text: string) => createHash('sha256').update(text).digest('base64');

export interface ObsServer {
  readonly url: string;
  readonly port: number;
  /** Identify messages received, as sent. */
  readonly identifies: Record<string, unknown>[];
  /** Request types received, in order. */
  readonly requests: string[];
  readonly clients: () => number;
  setStream(active: boolean): void;
  setRecord(active: boolean): void;
  close(): Promise<void>;
}

export async function obsServer(opts: { password?: string; port?: number; streaming?: boolean; recording?: boolean } = {}): Promise<ObsServer> {
  const wss = new WebSocketServer({ port: opts.port ?? 0, host: '127.0.0.1', handleProtocols: (protocols) => (protocols.has('obswebsocket.json') ? 'obswebsocket.json' : false) });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const port = (wss.address() as AddressInfo).port;
  let streaming = opts.streaming ?? false;
  let recording = opts.recording ?? false;
  const identifies: Record<string, unknown>[] = [];
  const requests: string[] = [];
  const identified = new Set<WebSocket>();
  const salt = 'c2FsdHNhbHQ=';
  const challenge = 'Y2hhbGxlbmdl';
  const send = (ws: WebSocket, op: number, d: unknown) => ws.send(JSON.stringify({ op, d }));

  wss.on('connection', (ws) => {
    send(ws, OP.Hello, {
      obsWebSocketVersion: '5.5.2',
      rpcVersion: 1,
      ...(opts.password === undefined ? {} : { authentication: { challenge, salt } }),
    });
    ws.on('message', (raw) => {
      const message = JSON.parse(String(raw)) as { op: number; d: Record<string, unknown> };
      if (message.op === OP.Identify) {
        identifies.push(message.d);
        if (opts.password !== undefined && message.d.authentication !== b64sha(b64sha(opts.password + salt) + challenge)) {
          ws.close(4009, 'Authentication failed.');
          return;
        }
        identified.add(ws);
        send(ws, OP.Identified, { negotiatedRpcVersion: 1 });
        return;
      }
      if (message.op === OP.Request && identified.has(ws)) {
        const requestType = String(message.d.requestType);
        requests.push(requestType);
        const active = requestType === 'GetStreamStatus' ? streaming : requestType === 'GetRecordStatus' ? recording : null;
        send(ws, OP.RequestResponse, {
          requestType,
          requestId: message.d.requestId,
          requestStatus: active === null ? { result: false, code: 204, comment: 'unknown request' } : { result: true, code: 100 },
          ...(active === null ? {} : { responseData: { outputActive: active, outputReconnecting: false, outputTimecode: '00:00:00.000', outputDuration: 0, outputBytes: 0 } }),
        });
      }
    });
    ws.on('close', () => identified.delete(ws));
  });

  const event = (eventType: string, active: boolean) => {
    for (const ws of identified) {
      send(ws, OP.Event, {
        eventType,
        eventIntent: OUTPUTS_SUBSCRIPTION,
        eventData: { outputActive: active, outputState: active ? 'OBS_WEBSOCKET_OUTPUT_STARTED' : 'OBS_WEBSOCKET_OUTPUT_STOPPED', ...(eventType === 'RecordStateChanged' ? { outputPath: null } : {}) },
      });
    }
  };

  return {
    url: `ws://127.0.0.1:${port}`,
    port,
    identifies,
    requests,
    clients: () => identified.size,
    setStream(active) {
      streaming = active;
      event('StreamStateChanged', active);
    },
    setRecord(active) {
      recording = active;
      event('RecordStateChanged', active);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const ws of wss.clients) ws.terminate();
        wss.close(() => resolve());
      }),
  };
}
