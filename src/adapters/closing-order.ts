import type { Logger } from '../runtime/logger.js';

/** Anything the adapters open: a ledger, a store, a lease, a database, a connection. */
export interface Closable {
  close(): Promise<void>;
}

/**
 * What has been opened, in the order it was, closed in the reverse order, one after another: what
 * was opened later may need what was opened before it to close (a drift lease hands itself over
 * through the connection opened first, the ledger commits into the database it was opened on). A
 * close that fails is logged with the name of what failed, and the rest still close.
 */
export class ClosingOrder {
  readonly #logger: Logger;
  readonly #opened: { readonly name: string; readonly thing: Closable }[] = [];
  #closing: Promise<void> | undefined;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  /** Records `thing`, just opened, under `name`; returns it. */
  add<T extends Closable>(name: string, thing: T): T {
    this.#opened.push({ name, thing });
    return thing;
  }

  /** Closes everything recorded, last opened first. Once: a second call waits for the first. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      for (const { name, thing } of this.#opened.splice(0).reverse()) {
        try {
          await thing.close();
        } catch (error) {
          this.#logger.error({ err: error, adapter: name }, `the ${name} did not close cleanly; the others were still closed`);
        }
      }
    })();
    return this.#closing;
  }
}
