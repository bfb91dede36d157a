// The chat page: polls the service and listens to its pushed mood, draws the
// avatar and the five bars, shows the visitor's history, and sends messages
// whose replies stream into their bubble (with a Stop button while they do).
// A reply is rendered as Markdown by markdown-it with HTML off: HTML in a reply
// is shown as text, never made into an element; the visitor's own text is text.
// The state line tells the truth: which state the service is in, whether it can
// be reached, and that the avatar is thinking while a reply is pending and
// speaking while it streams in.
import markdownit from '/assets/vendor/markdown-it.js';
import { drawAvatar, setAvatarActivity } from './avatar.js';

const markdown = markdownit({ html: false, linkify: true, breaks: true });
const POLL_MS = Number(document.body.dataset.pollMs) || 1000;
const EMOTIONS = ['joy', 'sadness', 'anger', 'fear', 'curiosity'];

const stateLine = document.getElementById('state');
const conversation = document.getElementById('conversation');
const form = document.getElementById('chat-form');
const input = document.getElementById('message');
const send = document.getElementById('send');
const stop = document.getElementById('stop');
const newConversation = document.getElementById('new-conversation');

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

/** The one place the page draws the mood: the bars and the avatar, from an /api/avatar-shaped body. */
function drawState(body) {
  drawEmotions(body.emotions);
  drawAvatar(body);
}

/** What the avatar is doing ('idle', 'thinking', 'speaking'): its face follows, and the page's body says it. */
function setActivity(activity) {
  document.body.dataset.activity = activity;
  setAvatarActivity(activity);
}

/** Renders a reply's Markdown: markdown-it with HTML off escapes any tag, and refuses javascript: links. */
function renderReply(element, text) {
  element.innerHTML = markdown.render(text);
}

/** A new bubble at the end of the conversation; a bot's body is Markdown, anything else plain text. */
function bubble(kind) {
  const item = document.createElement('li');
  item.className = `message ${kind}`;
  const who = document.createElement('span');
  who.className = 'who';
  who.textContent = { user: 'You', bot: 'Avatar', error: 'Error' }[kind];
  const body = document.createElement(kind === 'bot' ? 'div' : 'p');
  if (kind === 'bot') body.className = 'markdown';
  item.append(who, body);
  conversation.append(item);
  return { item, body };
}

function say(kind, text) {
  const { item, body } = bubble(kind);
  if (kind === 'bot') renderReply(body, text);
  else body.textContent = text;
  item.scrollIntoView({ block: 'nearest' });
  return item;
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
  setActivity('thinking');
  return () => {
    item.remove();
    document.body.dataset.thinking = 'false';
    setActivity('idle');
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
    if (response.ok) drawState(body);
    if (started || body.status === 'missing_llm_key') followStatus(body.status);
  } catch {
    setReachable(false);
  } finally {
    polling = false;
  }
}

/** Reads an event stream (a fetch response) frame by frame: `{ event, data }`, the data parsed as JSON. */
async function* eventFrames(response) {
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end = buffer.indexOf('\n\n');
    while (end !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      const data = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      // Comments (the heartbeat) carry no data.
      if (data.length > 0) yield { event, data: JSON.parse(data.join('\n')) };
      end = buffer.indexOf('\n\n');
    }
  }
}

/** A rejection before the stream (JSON, the statuses of docs/specification.md#chat): says why, and gives the message back. */
function rejected(response, body, text) {
  if (body.status === 'missing_llm_key') {
    goToErrorPage('/error');
    return;
  }
  say('error', body.error || `The service answered ${response.status}.`);
  input.value = text; // nothing typed is lost
  if (body.status === 'initializing') void start();
}

function showStop(visible) {
  stop.hidden = !visible;
  stop.disabled = !visible;
}

/**
 * Sends a message and streams the reply into its bubble as it comes, re-rendering its Markdown once
 * per frame. `done` brings the committed reply and the mood; `error` ends it (a stopped reply keeps
 * what came, marked stopped; a failed one is taken back, since nothing of it was kept).
 */
async function chat(text) {
  const doneThinking = showThinking();
  let reply;
  let streamed = '';
  let drawing = 0;
  const redraw = () => {
    drawing = 0;
    renderReply(reply.body, streamed);
    reply.item.scrollIntoView({ block: 'nearest' });
  };
  let ended = false;
  try {
    const response = await fetch('/api/chat', {
      method: 'POST',
      cache: 'no-store',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ message: text }),
    });
    if (!(response.headers.get('content-type') || '').startsWith('text/event-stream')) {
      doneThinking();
      rejected(response, await response.json().catch(() => ({})), text);
      return;
    }
    showStop(true);
    for await (const { event, data } of eventFrames(response)) {
      if (event === 'token') {
        if (!reply) {
          doneThinking();
          setActivity('speaking');
          reply = bubble('bot');
        }
        streamed += String(data.text ?? '');
        drawing ||= requestAnimationFrame(redraw);
      } else if (event === 'done') {
        ended = true;
        cancelAnimationFrame(drawing);
        doneThinking();
        reply ??= bubble('bot');
        streamed = String(data.response ?? '');
        redraw();
        drawState(data);
      } else if (event === 'error') {
        ended = true;
        cancelAnimationFrame(drawing);
        doneThinking();
        if (data.code === 'CHAT_STOPPED' && reply) {
          redraw();
          reply.item.classList.add('stopped');
        } else {
          reply?.item.remove();
          say('error', data.error || 'The reply failed.');
          if (data.code !== 'CHAT_STOPPED') input.value = text;
        }
      }
    }
    if (!ended) throw new Error('the reply was cut off');
  } catch {
    doneThinking();
    reply?.item.remove();
    say('error', 'Cannot reach the service. Your message is back in the box.');
    input.value = text;
  } finally {
    doneThinking();
    showStop(false);
    setActivity('idle');
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
  try {
    await chat(text);
  } finally {
    sending = false;
    updateSend();
    input.focus();
  }
});

stop.addEventListener('click', () => {
  stop.disabled = true;
  // The stream itself says when the reply has stopped (event: error).
  fetch('/api/chat/stop', { method: 'POST', cache: 'no-store' }).catch(() => undefined);
});

/** The visitor's conversation so far, as the service remembers it (after a reload too). */
async function showHistory() {
  try {
    const { response, body } = await getJson('/api/history');
    if (!response.ok || !Array.isArray(body.messages)) return;
    conversation.replaceChildren();
    for (const { role, content } of body.messages) say(role === 'user' ? 'user' : 'bot', String(content));
  } catch {
    // No history to show is no reason to stop the page.
  }
}

newConversation.addEventListener('click', async () => {
  if (sending) return;
  try {
    const { response, body } = await getJson('/api/history', { method: 'DELETE' });
    if (!response.ok) throw new Error(body.error);
    conversation.replaceChildren();
    input.focus();
  } catch (error) {
    say('error', `The conversation could not be forgotten${error?.message ? `: ${error.message}` : ''}.`);
  }
});

/** The mood, pushed: each change redraws at once; the 1 s poll stays, the contract and the fallback. */
function listenToMood() {
  if (typeof EventSource !== 'function') return;
  const source = new EventSource('/api/events');
  source.addEventListener('message', (event) => {
    try {
      const body = JSON.parse(event.data);
      if (body.emotions) drawState(body);
    } catch {
      // A frame that is not the avatar's JSON is ignored; the poll still draws.
    }
  });
}

let historyShown = false;
async function start() {
  started = false;
  setReady(false, 'Connecting…');
  await waitUntilInitialized();
  started = true;
  if (!historyShown) {
    historyShown = true;
    await showHistory();
  }
}

setActivity('idle');
listenToMood();
void start();
void pollAvatar();
setInterval(pollAvatar, POLL_MS);
