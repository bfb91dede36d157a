/**
 * Resolves with the first of SIGINT or SIGTERM, from the moment it is called: a signal that comes while
 * `listen` is still setting up is kept, and the webhook is deleted as soon as it exists. While waiting,
 * neither signal ends the process by itself.
 */
export function stopSignal(): { readonly signal: Promise<NodeJS.Signals>; readonly dispose: () => void } {
  let resolve!: (signal: NodeJS.Signals) => void;
  const signal = new Promise<NodeJS.Signals>((done) => {
    resolve = done;
  });
  const onSignal = (name: NodeJS.Signals): void => resolve(name);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal,
    dispose: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
