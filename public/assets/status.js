// The status: the state line tells the truth about the service (which state it is in, whether it can
// be reached). It waits for the start to be over, polls /api/avatar every pollMs whatever the phase
// (each answer is a 'mood'), and says 'service' ({ ready, reachable }) whenever either changes.
import { getJson, goToErrorPage } from './service.js';

/** What the state line says for each status /api/avatar reports other than ready. */
const STATE_TEXT = {
  initializing: 'The service is initializing; chat is off until it is ready…',
  error: 'The service has failed (state: error); chat is off.',
  missing_llm_key: 'The service has no language model key (state: missing_llm_key); chat is off.',
};
const READY_TEXT = 'Ready. Say something.';
const UNREACHABLE_TEXT = 'The service cannot be reached; Send is off until it answers again…';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function mountStatus(bus, { pollMs }) {
  const stateLine = document.getElementById('state');
  let ready = false;
  // False while the polls fail: Send stays off until one succeeds again.
  let reachable = true;
  // Whether the start is over: until then the poll draws but does not follow the state.
  let started = false;
  let polling = false;

  const tell = () => bus.emit('service', { ready, reachable });

  function setReady(value, text) {
    ready = value;
    tell();
    stateLine.textContent = text;
    document.body.dataset.ready = String(ready);
  }

  function setReachable(value) {
    if (reachable === value) return;
    reachable = value;
    document.body.dataset.reachable = String(value);
    tell();
    // Back in reach, the next answer's state says what to show.
    if (!value) stateLine.textContent = UNREACHABLE_TEXT;
  }

  /** Follows the state /api/avatar reports: says which one when it is not ready, and comes back when it is. */
  function followStatus(status) {
    if (status === 'ready') {
      if (!ready || stateLine.textContent !== READY_TEXT) setReady(true, READY_TEXT);
    } else if (status === 'missing_llm_key') {
      goToErrorPage('/error');
    } else {
      setReady(false, STATE_TEXT[status] || `The service is not ready (state: ${status}); chat is off.`);
    }
  }

  /** Polls /api/is_initialized until the system is ready, or sends the visitor to the error page. */
  async function waitUntilInitialized() {
    for (;;) {
      try {
        const { body } = await getJson('/api/is_initialized');
        setReachable(true);
        if (body.is_initialized) {
          setReady(true, READY_TEXT);
          return;
        }
        if (!body.initializing) {
          goToErrorPage(body.error_page);
          return;
        }
        setReady(false, body.message || 'The system is initializing…');
      } catch {
        setReachable(false);
      }
      await sleep(pollMs);
    }
  }

  /**
   * Redraws from /api/avatar, and follows the state it reports once the start is over; a slow answer
   * is not asked for twice. A poll that fails (no answer, or not the avatar's JSON) marks the service
   * unreachable until one succeeds.
   */
  async function pollAvatar() {
    if (polling) return;
    polling = true;
    try {
      const { response, body } = await getJson('/api/avatar');
      if (typeof body.status !== 'string') throw new Error(`no state in the answer (${response.status})`);
      setReachable(true);
      if (response.ok) bus.emit('mood', body);
      if (started || body.status === 'missing_llm_key') followStatus(body.status);
    } catch {
      setReachable(false);
    } finally {
      polling = false;
    }
  }

  async function start() {
    started = false;
    setReady(false, 'Connecting…');
    await waitUntilInitialized();
    started = true;
    bus.emit('started');
  }

  bus.on('restart', () => void start());
  void start();
  void pollAvatar();
  setInterval(pollAvatar, pollMs);
}
