// The chat page: polls the service, draws the avatar and the five bars, and
// sends messages. Replies are put in with textContent only: a model reply is
// text, never HTML. The state line tells the truth: which state the service is
// in, whether it can be reached, and that the avatar is thinking while a reply
// is pending.
import { drawAvatar, setAvatarActivity } from './avatar.js';

const POLL_MS = Number(document.body.dataset.pollMs) || 1000;
const EMOTIONS = ['joy', 'sadness', 'anger', 'fear', 'curiosity'];

const stateLine = document.getElementById('state');
const conversation = document.getElementById('conversation');
const form = document.getElementById('chat-form');
const input = document.getElementById('message');
const send = document.getElementById('send');

let ready = false;
let sending = false;
// False while the polls fail: Send stays off until one succeeds again.
let reachable = true;

/** What the state line says for each status /api/avatar reports other than ready. */
const STATE_TEXT = {
  initializing: 'The service is initializing; chat is off until it is ready…',
  error: 'The service has failed (state: error); chat is off.',
  missing_llm_key: 'The service has no language model key (state: missing_llm_key); chat is off.',
};
const READY_TEXT = 'Ready. Say something.';
const UNREACHABLE_TEXT = 'The service cannot be reached; Send is off until it answers again…';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function clamp01(value) {
  const number = Number(value);
  return Number.isFinite(number) ? Math.min(1, Math.max(0, number)) : 0;
}

function drawEmotions(emotions) {
  if (!emotions) return;
  for (const name of EMOTIONS) {
    const value = clamp01(emotions[name]);
    const bar = document.getElementById(`${name}-bar`);
    bar.style.width = `${value * 100}%`;
    bar.parentElement.setAttribute('aria-valuenow', String(Math.round(value * 100)));
    document.getElementById(`${name}-value`).textContent = value.toFixed(2);
  }
}

function say(kind, text) {
  const item = document.createElement('li');
  item.className = `message ${kind}`;
  const who = document.createElement('span');
  who.className = 'who';
  who.textContent = { user: 'You', bot: 'Avatar', error: 'Error' }[kind];
  const body = document.createElement('p');
  body.textContent = text;
  item.append(who, body);
  conversation.append(item);
  item.scrollIntoView({ block: 'nearest' });
}

function updateSend() {
  send.disabled = !ready || sending || !reachable;
}

function setReady(value, text) {
  ready = value;
  updateSend();
  stateLine.textContent = text;
  document.body.dataset.ready = String(ready);
}

function setReachable(value) {
  if (reachable === value) return;
  reachable = value;
  document.body.dataset.reachable = String(value);
  updateSend();
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

/** The avatar's reply is pending: a "thinking" line under the visitor's message, which stays. */
function showThinking() {
  const item = document.createElement('li');
  item.id = 'thinking';
  item.className = 'message bot thinking';
  item.setAttribute('aria-busy', 'true');
  const who = document.createElement('span');
  who.className = 'who';
  who.textContent = 'Avatar';
  const body = document.createElement('p');
  body.textContent = 'Thinking';
  item.append(who, body);
  conversation.append(item);
  item.scrollIntoView({ block: 'nearest' });
  document.body.dataset.thinking = 'true';
  setAvatarActivity('thinking');
  return () => {
    item.remove();
    document.body.dataset.thinking = 'false';
    setAvatarActivity('idle');
  };
}

function goToErrorPage(path) {
  window.location.assign(path || '/error');
}

async function getJson(url, init) {
  const response = await fetch(url, { cache: 'no-store', ...init });
  const body = await response.json().catch(() => ({}));
  return { response, body };
}

/** Polls /api/is_initialized until the system is ready, or sends the user to the error page. */
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
    await sleep(POLL_MS);
  }
}

/**
 * Redraws from /api/avatar every POLL_MS, whatever the phase, and follows the state it reports once
 * the start is over; a slow answer is not asked for twice. A poll that fails (no answer, or not
 * the avatar's JSON) marks the service unreachable until one succeeds.
 */
let polling = false;
let started = false;
async function pollAvatar() {
  if (polling) return;
  polling = true;
  try {
    const { response, body } = await getJson('/api/avatar');
    if (typeof body.status !== 'string') throw new Error(`no state in the answer (${response.status})`);
    setReachable(true);
    if (response.ok) {
      drawEmotions(body.emotions);
      drawAvatar(body);
    }
    if (started || body.status === 'missing_llm_key') followStatus(body.status);
  } catch {
    setReachable(false);
  } finally {
    polling = false;
  }
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const text = input.value;
  if (!ready || sending) return;
  if (text.trim() === '') {
    say('error', 'Please type a message first.');
    return;
  }
  sending = true;
  updateSend();
  say('user', text);
  input.value = '';
  const doneThinking = showThinking();
  try {
    const { response, body } = await getJson('/api/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: text }),
    });
    doneThinking();
    if (response.ok) {
      say('bot', String(body.response ?? ''));
      drawEmotions(body.emotions);
      drawAvatar(body);
    } else if (body.status === 'missing_llm_key') {
      goToErrorPage('/error');
    } else {
      say('error', body.error || `The service answered ${response.status}.`);
      input.value = text; // nothing typed is lost
      if (body.status === 'initializing') void start();
    }
  } catch {
    say('error', 'Cannot reach the service. Your message is back in the box.');
    input.value = text;
  } finally {
    doneThinking();
    sending = false;
    updateSend();
    input.focus();
  }
});

async function start() {
  started = false;
  setReady(false, 'Connecting…');
  await waitUntilInitialized();
  started = true;
}

void start();
void pollAvatar();
setInterval(pollAvatar, POLL_MS);
