// The chat page: polls the service, draws the avatar and the five bars, and
// sends messages. Replies are put in with textContent only: a model reply is
// text, never HTML.
const POLL_MS = Number(document.body.dataset.pollMs) || 1000;
const EMOTIONS = ['joy', 'sadness', 'anger', 'fear', 'curiosity'];
const SHAPES = ['Circle', 'Triangle', 'Square'];

const stateLine = document.getElementById('state');
const avatar = document.getElementById('avatar');
const shapeName = document.getElementById('avatar-shape');
const conversation = document.getElementById('conversation');
const form = document.getElementById('chat-form');
const input = document.getElementById('message');
const send = document.getElementById('send');

let ready = false;
let sending = false;

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

function drawShape(shape) {
  const known = SHAPES.includes(shape) ? shape : 'Circle';
  avatar.dataset.shape = known;
  shapeName.textContent = known;
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

function setReady(value, text) {
  ready = value;
  send.disabled = !ready || sending;
  stateLine.textContent = text;
  document.body.dataset.ready = String(ready);
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
      if (body.is_initialized) {
        setReady(true, 'Ready. Say something.');
        return;
      }
      if (!body.initializing) {
        goToErrorPage(body.error_page);
        return;
      }
      setReady(false, body.message || 'The system is initializing…');
    } catch {
      setReady(false, 'Cannot reach the service. Retrying…');
    }
    await sleep(POLL_MS);
  }
}

/** Redraws from /api/avatar every POLL_MS, whatever the phase; a slow answer is not asked for twice. */
let polling = false;
async function pollAvatar() {
  if (polling) return;
  polling = true;
  try {
    const { response, body } = await getJson('/api/avatar');
    if (response.ok) {
      drawEmotions(body.emotions);
      drawShape(body.avatar_shape);
      if (body.status === 'missing_llm_key') goToErrorPage('/error');
    }
  } catch {
    // The service is away for a moment; the next poll tries again.
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
  send.disabled = true;
  say('user', text);
  input.value = '';
  try {
    const { response, body } = await getJson('/api/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: text }),
    });
    if (response.ok) {
      say('bot', String(body.response ?? ''));
      drawEmotions(body.emotions);
      drawShape(body.avatar_shape);
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
    sending = false;
    send.disabled = !ready;
    input.focus();
  }
});

async function start() {
  setReady(false, 'Connecting…');
  await waitUntilInitialized();
}

void start();
void pollAvatar();
setInterval(pollAvatar, POLL_MS);
