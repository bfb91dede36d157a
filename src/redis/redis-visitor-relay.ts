import type { Redis } from 'ioredis';
import type { SessionKey } from '../bus/events.js';
import type { Logger } from '../runtime/logger.js';
import type { VisitorNews, VisitorRelay, VisitorRelayHandlers } from '../turns/visitor-relay.js';
import type { RedisKeys } from './keys.js';
import type { RunningTurn } from './redis-turn-log.js';

export interface RedisVisitorRelayOptions {
  /** The replicas' shared command connection (publishes go out on it, after the turn's own writes). */
  readonly client: Redis;
  /** A connection of its own, in subscriber mode from `listen` on; closed by its owner. */
  readonly subscriber: Redis;
  readonly keys: RedisKeys;
  readonly logger: Logger;
  /** This replica's id: its own messages come back to it and are not heard. */
  readonly replica: string;
  /** The visitor's running turns on every replica (the turn log's). */
  readonly runningOn: (session: SessionKey) => Promise<readonly RunningTurn[]>;
}

/** A message on the visitors' channel: news, or a stop (of one turn, or `null`: all of them). */
type RelayMessage =
  | { readonly from: string; readonly session: SessionKey; readonly news: VisitorNews }
  | { readonly from: string; readonly session: SessionKey; readonly stop: string | null };

/**
 * The replicas' visitor relay on one Redis Pub/Sub channel: every replica hears every message and
 * keeps those of visitors it serves. Published on the command connection, after the turn's own
 * keys: a replica told of a turn finds it. Pub/Sub keeps nothing: a replica away from Redis misses
 * the news of that while (its tabs' feeds catch up from the running turns when they reconnect).
 */
export class RedisVisitorRelay implements VisitorRelay {
  readonly #options: RedisVisitorRelayOptions;

  constructor(options: RedisVisitorRelayOptions) {
    this.#options = options;
  }

  publish(session: SessionKey, news: VisitorNews): void {
    this.#send({ from: this.#options.replica, session, news });
  }

  async stop(session: SessionKey, turn: string | undefined): Promise<number> {
    const elsewhere = (await this.#options.runningOn(session)).filter(
      (running) => running.replica !== this.#options.replica && (turn === undefined || running.id === turn),
    );
    if (elsewhere.length > 0) this.#send({ from: this.#options.replica, session, stop: turn ?? null });
    return elsewhere.length;
  }

  listen(handlers: VisitorRelayHandlers): void {
    const { subscriber, keys, logger, replica } = this.#options;
    subscriber.on('message', (channel: string, text: string) => {
      if (channel !== keys.visitorChannel) return;
      let message: RelayMessage;
      try {
        message = JSON.parse(text) as RelayMessage;
      } catch {
        return logger.warn({ channel }, 'a message on the visitors channel is not JSON; it is ignored');
      }
      if (message.from === replica) return;
      if ('news' in message) handlers.news(message.session, message.news);
      else handlers.stop(message.session, message.stop ?? undefined);
    });
    subscriber.subscribe(keys.visitorChannel).catch((error: unknown) => {
      logger.warn({ err: error }, "the visitors channel could not be heard: other replicas' tabs and stops do not reach this one");
    });
  }

  #send(message: RelayMessage): void {
    this.#options.client.publish(this.#options.keys.visitorChannel, JSON.stringify(message)).catch((error: unknown) => {
      this.#options.logger.debug({ err: error }, 'a visitor message could not reach the other replicas');
    });
  }
}
