import { LOADED_MESSAGE, SERVE_MESSAGE } from '../service/supervisor-messages.js';

/**
 * The standby child of `hub serve --supervise`: loads what a start loads (the HTTP app, the actor
 * system, the embedded store, the appraisal's weights) without opening anything, then waits for the
 * supervisor's word. So a restart after a model failure costs a listen and a load of the state, not
 * a Node start, the loading of some thousand modules and the parse of the weights. Ends with the
 * supervisor (its channel closes).
 */
export async function standBy(): Promise<void> {
  await Promise.all([
    import('../service/chat-service.js'),
    import('../system/chat-system.js'),
    import('../embedded/embedded-store.js'),
    import('../http/app.js'),
    // Kept by the module for the start to take; a failed load is not kept, and the start reports it.
    import('../appraisal/shipped-model.js').then(({ loadShippedModel }) => loadShippedModel().catch(() => undefined)),
  ]);
  process.send?.(LOADED_MESSAGE);
  await new Promise<void>((resolve) => {
    // Nothing to stop yet: a standby whose supervisor is gone just ends.
    const orphaned = (): never => process.exit(0);
    const onMessage = (message: unknown): void => {
      if ((message as { type?: unknown } | null)?.type !== SERVE_MESSAGE.type) return;
      process.removeListener('message', onMessage);
      process.removeListener('disconnect', orphaned);
      resolve();
    };
    process.on('message', onMessage);
    process.once('disconnect', orphaned);
  });
}
