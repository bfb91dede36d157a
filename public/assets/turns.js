// Following the service's event streams through drops: a turn's frames (GET /api/chat/turns/:id, from
// the last frame seen, so that each frame is shown once) and the visitor's feed (GET /api/chat/feed).
// A stream that breaks is opened again after a short wait, at once when the browser is back online
// or the tab is shown again.
import { eventFrames } from './event-frames.js';

/** Tries before a turn counts as unreachable: about half a minute of waits. */
const MAX_FAILURES = 25;

/** Failed tries before the page says the service cannot be reached (about 2 s), while it keeps trying. */
const TROUBLE_AFTER = 3;

/** Resolves after `ms`, or as soon as the browser is back online or the tab shown again. */
function retryAfter(ms) {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      window.removeEventListener('online', done);
      document.removeEventListener('visibilitychange', shown);
      resolve();
    };
    const shown = () => {
      if (document.visibilityState === 'visible') done();
    };
    const timer = setTimeout(done, ms);
    window.addEventListener('online', done);
    document.addEventListener('visibilitychange', shown);
  });
}

// At most a second between tries: a supervised service is back within a few seconds, and a lost
// reply must be said within five.
const backoff = (failures) => Math.min(1000, 150 * 2 ** Math.min(failures, 5));

/**
 * Calls `onFrame(event, data, id)` for each frame of the turn after `after`, once, until `done` or
 * `error`, which it resolves with; `gone` when the service no longer keeps the turn (its reply is in
 * the history, or it was lost with the process writing it), `unreachable` after half a minute without
 * the service. `response` is the stream already open (the chat's own). `onTrouble(true)` once the
 * service has not answered a few tries in a row, `onTrouble(false)` when it answers again.
 */
export async function followTurn(turn, onFrame, { response, after = 0, onTrouble = () => undefined } = {}) {
  let last = after;
  let open = response;
  let failures = 0;
  for (;;) {
    try {
      const stream =
        open ??
        (await fetch(`/api/chat/turns/${encodeURIComponent(turn)}`, {
          cache: 'no-store',
          headers: { accept: 'text/event-stream', ...(last > 0 ? { 'last-event-id': String(last) } : {}) },
        }));
      open = undefined;
      if (failures >= TROUBLE_AFTER) onTrouble(false);
      if (stream.status === 404) return 'gone';
      if (stream.ok) {
        for await (const { event, data, id } of eventFrames(stream)) {
          if (id !== undefined) {
            if (id <= last) continue;
            last = id;
          }
          failures = 0;
          onFrame(event, data, id);
          if (event === 'done' || event === 'error') return event;
        }
      }
    } catch {
      // Dropped: followed again below, from the last frame seen.
    }
    failures += 1;
    if (failures === TROUBLE_AFTER) onTrouble(true);
    if (failures > MAX_FAILURES) return 'unreachable';
    await retryAfter(backoff(failures));
  }
}

/** Calls `onFrame(event, data)` for each frame of the visitor's feed, for as long as the page lives, reconnecting after drops. */
export async function followFeed(onFrame) {
  let failures = 0;
  for (;;) {
    try {
      const stream = await fetch('/api/chat/feed', { cache: 'no-store', headers: { accept: 'text/event-stream' } });
      if (stream.ok) {
        for await (const { event, data } of eventFrames(stream)) {
          failures = 0;
          onFrame(event, data);
        }
      }
    } catch {
      // Dropped: opened again below; its first frame says what runs now.
    }
    failures += 1;
    await retryAfter(backoff(failures));
  }
}
