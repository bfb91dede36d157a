/**
 * Runs `start` once the script's own work is done: Node's `beforeExit` fires
 * when the event loop first runs dry, the analogue of Python's `atexit` that
 * huggingface_hub uses. The listening server then keeps the process alive.
 * Returns a function that cancels it (for `launch()` by hand, or `close()`).
 */
export function scheduleAutoStart(start: () => void, events: NodeJS.EventEmitter = process): () => void {
  const listener = (): void => start();
  events.once('beforeExit', listener);
  return () => {
    events.removeListener('beforeExit', listener);
  };
}
