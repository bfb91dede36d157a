import type { FastifyInstance } from 'fastify';
import type { SystemServices } from '../actors/system-setup.js';
import type { ChatSystem } from '../system/chat-system.js';
import { adapters, type Adapters, type SystemAdapters } from '../adapters/adapters.js';
import { Bus } from '../bus/bus.js';
import { EventLog } from '../bus/event-log.js';
import type { ChatConfig } from '../config/chat-config.js';
import { buildApp, type AppOptions } from '../http/app.js';
import { systemClock, type Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';
import { Redactor } from '../runtime/secrets.js';
import { systemRandom, type Random } from '../runtime/random.js';
import { loadSessionSecret } from '../config/session-secret.js';
import { openLoadingDesk } from './loading-desk.js';
import { HANDED_LINGER_MS, takeHandedConnections, type HandedConnections } from './handed-connections.js';
import { narrateChats } from './chat-narrator.js';
import { announceReady } from './ready-announcer.js';
import { startupWarnings } from './startup-warnings.js';

/** Resolves after `ms`; does not keep the process alive. */
const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms).unref());

/** All the service needs of the actor system: it answers on the bus once started, and stops with a flush. */
export type RunnableSystem = Pick<ChatSystem, 'start' | 'stop'>;

/** Builds the actor system from what the service gives it: the bus, the config, the service's exit and the adapters. */
export type SystemFactory = (deps: SystemServices) => RunnableSystem;

export interface ChatServiceOptions {
  readonly config: ChatConfig;
  readonly logger: Logger;
  /** Defaults to the actor system, `createChatSystem`; tests pass a fake. */
  readonly createSystem?: SystemFactory;
  readonly clock?: Clock;
  readonly random?: Random;
  /** Ends the process; tests inject it. Defaults to `process.exit`. */
  readonly exit?: (code: number) => void;
  /** How long in-flight responses may take to go out before an exit (default 1 s; under --supervise the linger and 1 s). */
  readonly exitGraceMs?: number;
  /** Under --supervise, how long a failed process waits for clients to let their connections go before it closes them. */
  readonly handedLingerMs?: number;
  readonly app?: Pick<AppOptions, 'timeouts' | 'pollIntervalMs' | 'clientTimeoutMs'>;
  /** Keep the mood and the conversations in this process only, with no database and no Redis (the bench's in-memory run). */
  readonly inProcess?: boolean;
  /** The secrets blanked out of the event log and error bodies; defaults to those of `process.env`. */
  readonly redactor?: Redactor;
  /** Under `hub serve --supervise`: the supervisor holds the port and hands each connection over (no listen here). */
  readonly handedConnections?: boolean;
}

export interface ChatService {
  /** `http://host:port` the server listens on. */
  readonly address: string;
  readonly bus: Bus;
  readonly app: FastifyInstance;
  /** Graceful stop: no new requests, in-flight ones answered, drift stopped, state and event log flushed. */
  close(): Promise<void>;
  /** Under `hub serve --supervise`, once the process that drained before this one has exited: its last conversations are taken from disk. */
  adoptPredecessorWrites(): void;
}

/** A start-up problem of the service itself (not of the system, which exits on its own). */
export class ServiceStartError extends Error {
  override readonly name = 'ServiceStartError';
}

async function openEventLog(bus: Bus, file: string, redactor: Redactor): Promise<EventLog> {
  const log = new EventLog(bus, file, { redact: (line) => redactor.redact(line) });
  try {
    await log.opened();
  } catch (error) {
    throw startError(`EVENT_LOG: cannot open ${file}`, error);
  }
  return log;
}

function startError(message: string, error: unknown): ServiceStartError {
  return new ServiceStartError(`${message} (${(error as Error).message})`, { cause: error });
}

/**
 * The composition root: one bus (stamped by the clock), the event log when configured, the adapters
 * `adapters(config)` picks (in process when told, a replica's on Redis with `REDIS_URL`, else the
 * embedded database), the HTTP app and the actor system. The server listens before the system is
 * even loaded, so clients see `initializing` from the start. A failed start and close() end in the
 * same teardown.
 */
export async function startChatService(options: ChatServiceOptions): Promise<ChatService> {
  const { config, logger } = options;
  const clock = options.clock ?? systemClock;
  const exitProcess = options.exit ?? ((code: number) => process.exit(code));
  const bus = new Bus({ clock });
  const redactor = options.redactor ?? Redactor.fromEnv(process.env);

  // What has started so far, stopped in the one safe order: the server first (no new requests, those
  // in flight answered), the system (drift, final write, actors), the adapters it used, the event
  // log, the bus.
  const started: { eventLog?: EventLog; adapters?: Adapters; app?: FastifyInstance; system?: RunnableSystem } = {};
  const detached: (() => void)[] = [];
  const teardown = async (): Promise<void> => {
    for (const detach of detached.splice(0)) detach();
    await started.app?.close();
    await started.system?.stop();
    await started.adapters?.close();
    await started.eventLog?.close();
    bus.close();
  };
  const abandon = async (failure: ServiceStartError): Promise<never> => {
    await teardown();
    throw failure;
  };
  /** The adapters' failures say what could not be opened. */
  const adapterError = (error: unknown) => new ServiceStartError((error as Error).message, { cause: error });

  if (config.eventLog !== undefined) {
    try {
      started.eventLog = await openEventLog(bus, config.eventLog, redactor);
    } catch (error) {
      return abandon(error as ServiceStartError);
    }
  }
  let chosen: Adapters;
  try {
    chosen = started.adapters = await adapters(config, { clock, logger, inProcess: options.inProcess });
  } catch (error) {
    return abandon(adapterError(error));
  }
  let sessionSecret: string;
  const warnings = startupWarnings(config);
  try {
    const loaded = await loadSessionSecret({
      configured: config.sessionSecret,
      emotionsFile: config.emotionsFile,
      shared: chosen.sharedSessionSecret,
    });
    sessionSecret = loaded.secret;
    if (loaded.replaced) logger.warn(loaded.replaced);
    if (loaded.notKept) warnings.push(`session ids will not outlive this process: ${loaded.notKept}; set SESSION_SECRET`);
  } catch (error) {
    return abandon(startError('SESSION_SECRET: cannot read the one the replicas share', error));
  }
  redactor.add(sessionSecret);
  const app = (started.app = await buildApp({
    bus,
    clock,
    logger,
    config,
    sessionSecret,
    redact: (text) => redactor.redact(text),
    turns: chosen.turns,
    visitors: chosen.visitors,
    // Under --supervise a request that comes while this process closes goes through the hooks: sent
    // on to the successor when this process failed (below), served while a stop lets it.
    return503OnClosing: !options.handedConnections,
    ...options.app,
  }));

  let exiting = false;
  /** From the exit, or the failure that leads to it: each response closes its connection. */
  let closingConnections = false;
  let handed: HandedConnections | undefined;
  // A keep-alive connection whose response was in flight when the exit began would hold app.close()
  // open past the grace: once the exit has begun, each response closes its own connection, and
  // only its own (closing the server's idle connections can cut a socket whose answer is due).
  // So from the moment the system fails and drains: the clients come back on new connections, which
  // under --supervise the next process serves.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closingConnections) reply.header('connection', 'close');
    done(null, payload);
  });
  // Under --supervise the successor serves every new connection. A request that reaches this
  // process on a kept-alive connection once it has failed is sent back to the same address on a new
  // connection (307 keeps the method and the body; it changed nothing here), which the supervisor
  // hands to the successor: the visitor gets its answer, not a 503 of a process on its way out.
  app.addHook('onRequest', (request, reply, done) => {
    if (handed === undefined || !closingConnections) return done();
    void reply.code(307).header('location', request.url).header('cache-control', 'no-store').send();
  });
  // Idle keep-alive connections are not closed here: a client may be sending its next request on one
  // at that very moment, and would get a reset. Each is answered 307 with `Connection: close` on its
  // next use, or ends when its client lets it go (see `exit`).
  const draining = bus.on('system.phase.changed').subscribe(({ phase }) => {
    if (phase === 'failed') closingConnections = true;
  });
  detached.push(() => draining.unsubscribe());
  // The system calls this when it must end the process (a failed start, a
  // provider failure during a chat), once it has answered every chat in flight
  // and flushed the state: those answers go out (the server closes after its
  // last response, within the grace), then the event log and the logger are
  // flushed, synchronously, before exit.
  const exit = (code: number): void => {
    if (exiting) return;
    exiting = true;
    closingConnections = true;
    const lingerMs = options.handedLingerMs ?? HANDED_LINGER_MS;
    const grace = delay(options.exitGraceMs ?? (handed ? lingerMs + 1000 : 1000));
    // Under --supervise the successor serves meanwhile, so the connections clients keep alive are
    // let go by the clients (after a 307 with `Connection: close`, or their idle timeout) before the
    // server closes the rest: closing an idle one can cut the request its client is sending on it.
    // A server that never listened does not wait for its connections: the handed ones are awaited here.
    const closed = handed
      ? Promise.race([handed.closed(), delay(lingerMs)]).then(() => Promise.all([app.close(), handed?.closed()]))
      : app.close();
    void Promise.race([closed, grace])
      .catch(() => undefined)
      .finally(() => {
        logger.info({ code }, 'the chat service exits');
        started.eventLog?.flushSync();
        logger.flush();
        exitProcess(code);
      });
  };

  // Listen first, then open the system's adapters (the embedded store: lmdb's native module and
  // files) and load the actor system (xstate, the providers' client, sentiment): a restart answers
  // `initializing` within a fraction of a second instead of after every module has loaded (the
  // `hub serve` start row of `npm run bench`).
  const closeLoadingDesk = openLoadingDesk(bus, () => clock.now());
  detached.push(closeLoadingDesk);
  let address: string;
  try {
    if (options.handedConnections) {
      await app.ready();
      const taken = (handed = takeHandedConnections(app.server));
      detached.push(() => taken.stop());
      address = `http://${config.host}:${config.port}`;
    } else address = await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    return abandon(startError(`cannot listen on ${config.host}:${config.port}`, error));
  }
  let systemAdapters: SystemAdapters;
  try {
    systemAdapters = await chosen.forSystem();
  } catch (error) {
    return abandon(adapterError(error));
  }
  let createSystem: SystemFactory;
  try {
    createSystem = options.createSystem ?? (await import('../system/chat-system.js')).createChatSystem;
  } catch (error) {
    return abandon(startError('cannot load the chat system', error));
  }
  closeLoadingDesk();
  // Subscribed before the system starts: its first phase change is what the announcer waits for.
  detached.push(announceReady({ bus, logger, address, warnings }));
  const narration = narrateChats(bus, logger);
  detached.push(() => narration.unsubscribe());
  const system = (started.system = createSystem({
    bus,
    config,
    clock,
    random: options.random ?? systemRandom,
    logger,
    exit,
    ...systemAdapters,
  }));
  system.start();

  let closing: Promise<void> | undefined;
  return {
    address,
    bus,
    app,
    adoptPredecessorWrites: () => chosen.adoptPredecessorWrites(),
    close: () => (closing ??= teardown()),
  };
}
