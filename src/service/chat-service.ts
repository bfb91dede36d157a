import type { FastifyInstance } from 'fastify';
import type { ChatSystem, ChatSystemDeps } from '../system/chat-system.js';
import { Bus } from '../bus/bus.js';
import { EventLog } from '../bus/event-log.js';
import type { ChatConfig } from '../config/chat-config.js';
import { buildApp, type AppOptions } from '../http/app.js';
import { systemClock, type Clock } from '../runtime/clock.js';
import type { MoodLedger } from '../mood-ledger/mood-ledger.js';
import type { Logger } from '../runtime/logger.js';
import type { Replica } from '../redis/replica.js';
import { Redactor } from '../runtime/secrets.js';
import type { EmbeddedStore } from '../embedded/embedded-store.js';
import { sessionBoundsOf } from '../conversations/session-bounds.js';
import type { ConversationStore } from '../conversations/conversation-store.js';
import { systemRandom, type Random } from '../runtime/random.js';
import { loadSessionSecret } from '../config/session-secret.js';
import { openLoadingDesk } from './loading-desk.js';
import { probeStoreFile } from '../embedded/store-probe.js';
import { loadEmotionsFile } from '../persistence/emotions-file.js';
import { takeHandedConnections, type HandedConnections } from './handed-connections.js';
import { narrateChats } from './chat-narrator.js';
import { announceReady } from './ready-announcer.js';
import { startupWarnings } from './startup-warnings.js';

/** What the service gives the actor system: `createChatSystem`'s deps, with the service's own exit. */
export type SystemDeps = Pick<
  ChatSystemDeps,
  'bus' | 'config' | 'clock' | 'random' | 'logger' | 'ledger' | 'conversations' | 'driftLease'
> & {
  readonly exit: (code: number) => void;
};

/** All the service needs of the actor system: it answers on the bus once started, and stops with a flush. */
export type RunnableSystem = Pick<ChatSystem, 'start' | 'stop'>;

export type SystemFactory = (deps: SystemDeps) => RunnableSystem;

export interface ChatServiceOptions {
  readonly config: ChatConfig;
  readonly logger: Logger;
  /** Defaults to the actor system, `createChatSystem`; tests pass a fake. */
  readonly createSystem?: SystemFactory;
  readonly clock?: Clock;
  readonly random?: Random;
  /** Ends the process; tests inject it. Defaults to `process.exit`. */
  readonly exit?: (code: number) => void;
  /** How long in-flight responses may take to go out before an exit. */
  readonly exitGraceMs?: number;
  readonly app?: Pick<AppOptions, 'timeouts' | 'pollIntervalMs' | 'clientTimeoutMs'>;
  /** The mood ledger, chosen here: default in-process (`createChatSystem`'s); a shared one makes this process a replica. */
  readonly ledger?: MoodLedger;
  /** The visitors' conversations: default in-process (`createChatSystem`'s). */
  readonly conversations?: ConversationStore;
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

/**
 * With `REDIS_URL`, this process joins the replicas sharing that Redis: their ledger, conversations
 * and drift lease replace the in-process ones. Loaded only then, so one process alone needs no Redis client.
 */
async function joinReplicasOf(config: ChatConfig, logger: Logger, clock: Clock): Promise<Replica | undefined> {
  if (config.redis === undefined) return undefined;
  const { joinReplicas } = await import('../redis/replica.js');
  try {
    return await joinReplicas({ redis: config.redis, config, logger, clock });
  } catch (error) {
    throw new ServiceStartError(`REDIS_URL: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * One process alone keeps its mood and conversations in the embedded database beside the emotions
 * file (lmdb, loaded only then), unless the caller gave its own ledger or store. Its file is probed
 * first: lmdb trusts what it maps, and a damaged file would crash or spin the process instead of
 * failing. An empty store beside an emotions file with a saved mood means conversations were lost
 * (the store deleted or replaced): said once, at `warn`.
 */
async function openEmbeddedOf(config: ChatConfig, clock: Clock, logger: Logger): Promise<EmbeddedStore> {
  const { embeddedStorePath, openEmbeddedStore } = await import('../embedded/embedded-store.js');
  const path = embeddedStorePath(config.emotionsFile);
  let problem: string | undefined;
  try {
    problem = await probeStoreFile(path);
  } catch (error) {
    throw startError(`cannot open the conversation store ${path}`, error);
  }
  if (problem !== undefined)
    throw new ServiceStartError(
      `the conversation store ${path} is damaged: ${problem}. Move it away (mv ${path} ${path}.damaged) and start again: ` +
        `the mood in ${config.emotionsFile} is kept, the conversations in the damaged store are not`,
    );
  let store: EmbeddedStore;
  try {
    store = openEmbeddedStore(config.emotionsFile, sessionBoundsOf(config, clock));
  } catch (error) {
    throw startError(`cannot open the conversation store ${path}`, error);
  }
  if (store.ledger.held === undefined) {
    const saved = await loadEmotionsFile(config.emotionsFile).catch(() => undefined);
    if (saved !== undefined)
      logger.warn(
        { store: path, emotionsFile: config.emotionsFile, savedAt: saved.lastUpdated },
        'the conversation store is empty while the emotions file holds a saved mood: the conversations from before are not there (was the store deleted or replaced?)',
      );
  }
  return store;
}

function startError(message: string, error: unknown): ServiceStartError {
  return new ServiceStartError(`${message} (${(error as Error).message})`, { cause: error });
}

/**
 * The composition root: one bus (stamped by the clock), the event log when
 * configured, the HTTP app and the actor system, with the in-process ledger and
 * conversation store, or the shared ones of a replica (`REDIS_URL`). The server
 * listens before the system is even loaded, so clients see `initializing` from the start.
 */
export async function startChatService(options: ChatServiceOptions): Promise<ChatService> {
  const { config, logger } = options;
  const clock = options.clock ?? systemClock;
  const exitProcess = options.exit ?? ((code: number) => process.exit(code));
  const bus = new Bus({ clock });
  const redactor = options.redactor ?? Redactor.fromEnv(process.env);
  const eventLog = config.eventLog === undefined ? undefined : await openEventLog(bus, config.eventLog, redactor);
  let replica: Replica | undefined;
  try {
    replica = await joinReplicasOf(config, logger, clock);
  } catch (error) {
    await eventLog?.close();
    bus.close();
    throw error;
  }
  let sessionSecret: string;
  const warnings = startupWarnings(config);
  try {
    const loaded = await loadSessionSecret({
      configured: config.sessionSecret,
      emotionsFile: config.emotionsFile,
      shared: replica?.sharedSessionSecret,
    });
    sessionSecret = loaded.secret;
    if (loaded.replaced) logger.warn(loaded.replaced);
    if (loaded.notKept) warnings.push(`session ids will not outlive this process: ${loaded.notKept}; set SESSION_SECRET`);
  } catch (error) {
    await replica?.close();
    await eventLog?.close();
    bus.close();
    throw startError('SESSION_SECRET: cannot read the one the replicas share', error);
  }
  redactor.add(sessionSecret);
  const app = await buildApp({
    bus,
    clock,
    logger,
    config,
    sessionSecret,
    redact: (text) => redactor.redact(text),
    turns: replica?.turns,
    ...options.app,
  });

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
  const draining = bus.on('system.phase.changed').subscribe(({ phase }) => {
    if (phase !== 'failed') return;
    closingConnections = true;
    if (handed) app.server.closeIdleConnections();
  });
  // The system calls this when it must end the process (a failed start, a
  // provider failure during a chat), once it has answered every chat in flight
  // and flushed the state: those answers go out (the server closes after its
  // last response, within the grace), then the event log and the logger are
  // flushed, synchronously, before exit.
  const exit = (code: number): void => {
    if (exiting) return;
    exiting = true;
    closingConnections = true;
    const grace = new Promise<void>((resolve) => setTimeout(resolve, options.exitGraceMs ?? 1000).unref());
    if (handed) app.server.closeIdleConnections();
    // A server that never listened does not wait for its connections: the handed ones are awaited here.
    const closed = Promise.all([app.close(), handed?.closed()]);
    void Promise.race([closed, grace])
      .catch(() => undefined)
      .finally(() => {
        logger.info({ code }, 'the chat service exits');
        eventLog?.flushSync();
        logger.flush();
        exitProcess(code);
      });
  };

  // Listen first, then open the embedded store (lmdb's native module and files) and load the actor
  // system (xstate, the providers' client, sentiment): a restart answers `initializing` within a
  // fraction of a second instead of after every module has loaded (the `hub serve` start row of
  // `npm run bench`). Only the system uses the store.
  const closeLoadingDesk = openLoadingDesk(bus, () => clock.now());
  let embedded: EmbeddedStore | undefined;
  const abandon = async (failure: ServiceStartError): Promise<never> => {
    closeLoadingDesk();
    await app.close();
    await replica?.close();
    await embedded?.close();
    await eventLog?.close();
    bus.close();
    throw failure;
  };
  let address: string;
  try {
    if (options.handedConnections) {
      await app.ready();
      handed = takeHandedConnections(app.server);
      address = `http://${config.host}:${config.port}`;
    } else address = await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    return abandon(startError(`cannot listen on ${config.host}:${config.port}`, error));
  }
  if (replica === undefined && options.ledger === undefined && options.conversations === undefined) {
    try {
      embedded = await openEmbeddedOf(config, clock, logger);
    } catch (error) {
      return abandon(error instanceof ServiceStartError ? error : startError('cannot load the conversation store', error));
    }
  }
  let createSystem: SystemFactory;
  try {
    createSystem = options.createSystem ?? (await import('../system/chat-system.js')).createChatSystem;
  } catch (error) {
    return abandon(startError('cannot load the chat system', error));
  }
  closeLoadingDesk();
  // Subscribed before the system starts: its first phase change is what the announcer waits for.
  const stopAnnouncing = announceReady({ bus, logger, address, warnings });
  const narration = narrateChats(bus, logger);
  const system = createSystem({
    bus,
    config,
    clock,
    random: options.random ?? systemRandom,
    logger,
    exit,
    ledger: options.ledger ?? replica?.ledger ?? embedded?.ledger,
    conversations: options.conversations ?? replica?.conversations ?? embedded?.conversations,
    driftLease: replica?.driftLease,
  });
  system.start();

  let closing: Promise<void> | undefined;
  return {
    address,
    bus,
    app,
    adoptPredecessorWrites: () => embedded?.conversations.adoptDisk(),
    close() {
      closing ??= (async () => {
        draining.unsubscribe();
        stopAnnouncing();
        narration.unsubscribe();
        await app.close();
        await system.stop();
        await replica?.close();
        await embedded?.close();
        await eventLog?.close();
        bus.close();
      })();
      return closing;
    },
  };
}
