// The OSC adapter: owns the OSC input port, the plain-text port and the feedback
// to surfaces, for the life of the service (config `osc`, README "OSC"). Each part
// is off unless configured. A port that cannot be had is logged and that part
// stays off: the timer, HTTP and the buttons run on, as with a missing GPIO.
import { unrefScheduler, type Scheduler } from '../app/clock.js';
import type { OscConfig } from '../config/config.js';
import type { FixedWindowLimiter } from '../app/rate-limit.js';
import type { Logger } from '../log/logger.js';
import { BadInputLog } from './bad-input-log.js';
import { CommandGate, type CommandTarget } from './command-gate.js';
import { OscFeedback, type DatagramOut, type FeedbackSource } from './osc-feedback.js';
import type { GatedUdpInput } from './gated-udp-input.js';
import { OscInput } from './osc-input.js';
import { ProvenSenders } from './proven-senders.js';
import { Refusals } from './refusals.js';
import { TextInput } from './text-input.js';

export interface OscAdapter {
  /** The bound ports (port 0 in the config picks a free one), null where that part is off. */
  readonly oscPort: number | null;
  readonly textPort: number | null;
  /** Ports closed, feedback stopped. Safe to call twice. */
  close(): void;
}

export interface OscDeps {
  readonly config: OscConfig;
  readonly service: CommandTarget & FeedbackSource;
  /** Read at every message, so a rotated key works at once. */
  readonly apiKey: () => string;
  /** The one HTTP uses: a key's quota is shared by every way in. */
  readonly limiter: FixedWindowLimiter;
  readonly monoMs: () => number;
  readonly scheduler: Scheduler;
  readonly logger: Logger;
  /** For tests: where feedback datagrams go. */
  readonly feedbackOut?: DatagramOut;
}


function bindProblem(error: unknown, what: string, host: string, port: number): string {
  const code = (error as NodeJS.ErrnoException).code;
  switch (code) {
    case 'EADDRINUSE':
      return `${what} off: UDP port ${port} on ${host} is already in use (QLab, Companion or another Showclock?); choose another port in the config`;
    case 'EACCES':
      return `${what} off: no permission for UDP port ${port}: use a port above 1023`;
    case 'EADDRNOTAVAIL':
      return `${what} off: osc.host ${host} is not an address of this machine; use 0.0.0.0 for all of them`;
    default:
      return `${what} off: cannot listen on UDP ${host}:${port} (${code ?? (error instanceof Error ? error.message : String(error))})`;
  }
}

/** Starts what the config asks for; never rejects. */
export async function startOsc(deps: OscDeps): Promise<OscAdapter> {
  const { config } = deps;
  const logger = deps.logger.child({ component: 'osc' });
  const closers: (() => void)[] = [];
  const feedback =
    config.feedback.length === 0
      ? null
      : new OscFeedback({
          source: deps.service,
          targets: config.feedback,
          monoMs: deps.monoMs,
          scheduler: deps.scheduler,
          logger,
          ...(deps.feedbackOut === undefined ? {} : { out: deps.feedbackOut }),
        });
  // Shared by both inputs: a console that proved the key over OSC is answered on the plain-text port too.
  const proven = new ProvenSenders({ nowMs: deps.monoMs });
  const gate = new CommandGate({ service: deps.service, apiKey: deps.apiKey, limiter: deps.limiter, proven, logger });
  const refusals = new Refusals({
    log: new BadInputLog({ logger, nowMs: deps.monoMs, scheduler: unrefScheduler(deps.monoMs) }),
    reply: config.reply,
    nowMs: deps.monoMs,
    answerable: (to) => proven.has(to) || (feedback?.sendsTo(to) ?? false),
  });

  const listen = async (what: string, port: number | undefined, make: (port: number) => GatedUdpInput): Promise<number | null> => {
    if (port === undefined) return null;
    const input = make(port);
    try {
      const bound = await input.start();
      closers.push(() => input.close());
      logger.info({ host: config.host, port: bound }, `${what} listening on UDP ${config.host}:${bound}`);
      return bound;
    } catch (error) {
      logger.error({ host: config.host, port, code: (error as NodeJS.ErrnoException).code }, bindProblem(error, what, config.host, port));
      return null;
    }
  };
  const oscPort = await listen('OSC input', config.port, (port) => new OscInput({ host: config.host, port, gate, refusals, logger }));
  const textPort = await listen('plain-text input', config.textPort, (port) => new TextInput({ host: config.host, port, gate, refusals, logger }));

  if (feedback !== null) {
    feedback.start();
    closers.push(() => feedback.close());
    logger.info({ targets: config.feedback.map((t) => `${t.host}:${t.port}`) }, `OSC feedback to ${config.feedback.length} target(s)`);
  }

  let closed = false;
  return {
    oscPort,
    textPort,
    close() {
      if (closed) return;
      closed = true;
      for (const close of closers.reverse()) close();
    },
  };
}
