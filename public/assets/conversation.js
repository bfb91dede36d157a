// The conversation: the visitor's messages and the avatar's replies. It shows the history the service
// remembers, chats when the composer sends, and streams each reply into its bubble, rendered as
// Markdown by markdown-it with HTML off: HTML in a reply is shown as text, never made into an element;
// the visitor's own text is text; a link in a reply opens in a new tab, never in place of the chat.
// While a reply is pending the avatar is 'thinking', while it streams 'speaking'. A streaming bubble is
// aria-busy until its reply is complete, so a screen reader says the reply once, whole.
//
// Each streamed reply is a turn (its Turn-Id): when the connection drops, the reply is followed again
// from the last frame seen (GET /api/chat/turns/:id with Last-Event-ID), so it shows whole, with no
// gap and no repeat; after a reload the turns still running are picked up from the visitor's feed
// (GET /api/chat/feed), which also brings what the visitor's other tabs do: a message sent there,
// its reply growing, a stop, a new conversation. The last reply can be regenerated and the last
// message edited (also with ↑ in the empty box); earlier versions show as ‹ 1/2 ›. Esc stops this
// tab's reply. New conversation can be undone for a few seconds before anything is forgotten.
import markdownit from '/assets/vendor/markdown-it.js';
import { addCodeCopyButtons, copyButton } from './copy.js';
import { followEnd } from './follow-end.js';
import { refreshTimes, timeElement } from './message-time.js';
import { getJson, goToErrorPage } from './service.js';
import { followTurn } from './turns.js';

const markdown = markdownit({ html: false, linkify: true, breaks: true });
// Every link of a reply opens a new tab that cannot reach back to this page or learn where it came from.
const renderLinkOpen = markdown.renderer.rules.link_open ?? ((tokens, i, options, _env, self) => self.renderToken(tokens, i, options));
markdown.renderer.rules.link_open = (tokens, i, options, env, self) => {
  tokens[i].attrSet('target', '_blank');
  tokens[i].attrSet('rel', 'noopener noreferrer');
  return renderLinkOpen(tokens, i, options, env, self);
};

/** How the page names the emotion a message expressed most. */
const SOUNDED = { joy: 'happy', sadness: 'sad', anger: 'angry', fear: 'afraid', curiosity: 'curious', neutral: 'neutral' };

/**
 * "you sounded angry: furious, hate", "you sounded happy and a little afraid: excited" for an
 * appraisal (its `reading`, and `also` when it names a second emotion); nothing without one. A
 * message kept from before `reading` existed reads as its strongest emotion, or neutral.
 */
export function readingWords(appraisal) {
  const strongest = appraisal?.strongest;
  if (!(strongest in SOUNDED)) return undefined;
  const fallback = Number(appraisal.neutral) > Number(appraisal.emotions?.[strongest]) ? 'neutral' : strongest;
  const reading = appraisal.reading in SOUNDED ? appraisal.reading : fallback;
  const also = appraisal.also in SOUNDED && appraisal.also !== reading ? ` and a little ${SOUNDED[appraisal.also]}` : '';
  const cues = reading !== 'neutral' && Array.isArray(appraisal.cues) ? appraisal.cues.map(String).filter((cue) => cue !== '') : [];
  return `you sounded ${SOUNDED[reading]}${also}${cues.length > 0 ? `: ${cues.join(', ')}` : ''}`;
}

/** The visitor's message a reply answers: the nearest one before it. */
function messageBefore(item) {
  let previous = item?.previousElementSibling;
  while (previous && !previous.classList.contains('user')) previous = previous.previousElementSibling;
  return previous ?? undefined;
}

/** How long New conversation can be undone before the conversation is forgotten. */
const UNDO_MS = 5000;

/** A small secondary button with its accessible name (its text is a sign, or a word). */
function smallButton(className, text, label) {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = `secondary ${className}`;
  button.textContent = text;
  button.setAttribute('aria-label', label);
  return button;
}

/** Renders a reply's Markdown: markdown-it with HTML off escapes any tag, and refuses javascript: links. Its code blocks get their Copy buttons; the text stays as written for the reply's own. */
function renderReply(element, text) {
  element.innerHTML = markdown.render(text);
  element.source = text;
  addCodeCopyButtons(element);
}

/** A finished reply's Copy button (once): it copies the version shown, as written. */
function addReplyCopy(item) {
  if (item.querySelector(':scope > .copy')) return;
  const body = item.querySelector('.markdown');
  item.append(copyButton('Copy the reply', () => body?.source ?? body?.textContent ?? ''));
}

/** How often the messages' times are said again ("just now" ages). */
const TIMES_MS = 60_000;

/** Reads of the history, 500 ms apart, before a turn's fate counts as unknown. */
const HISTORY_TRIES = 20;

/** The end of a turn that died with the process writing it, as the page says it (a replica's death says the same through Redis). */
const LOST_REPLY = {
  error: 'The service stopped before this reply ended: your message changed nothing. Please send it again.',
  code: 'TURN_LOST',
};

/** The conversation's messages as the history holds them (a pending "Thinking…" is none). */
const MESSAGES = '.message.user, .message.bot:not(.thinking)';

const ROUTES = { chat: '/api/chat', regenerate: '/api/chat/regenerate', edit: '/api/chat/edit' };

export function mountConversation(bus) {
  const conversation = document.getElementById('conversation');
  const newConversation = document.getElementById('new-conversation');
  const input = document.getElementById('message');
  const toEnd = followEnd(conversation, document.getElementById('to-end'));
  let sending = false;
  /** Whether the history has been shown once: the first showing (a load, a reload) starts at its end. */
  let shown = false;
  let started = false;
  /** This tab's turn streaming now: what Stop and Esc stop. */
  let ownTurn;
  /** The turns this tab started: the feed's news of them is this tab's own. */
  const ownTurns = new Set();
  /** Resolves once this tab's chat in flight knows its turn (its answer's Turn-Id), or has none. */
  let ownTurnKnown = Promise.resolve();
  /** The turns of other tabs (or before a reload) this tab follows: their reply views and the last frame shown. */
  const followed = new Map();
  /** The next message replaces the last exchange (↑ in the empty box, or Edit). */
  let editing = false;
  /** A New conversation that can still be undone. */
  let pendingClear;
  let lastMessages = [];
  /** Errors said so far: a history read while one was said is older than the page. */
  let errorsSaid = 0;
  /** Readings of the history under way (the list is `aria-busy` meanwhile). */
  let reading = 0;

  const setActivity = (activity) => bus.emit('activity', activity);
  const giveBack = (text) => bus.emit('restore', { text });

  /** A new bubble at the end of the conversation, said at `at`; a bot's body is Markdown, anything else plain text. */
  function bubble(kind, at = new Date().toISOString()) {
    const item = document.createElement('li');
    item.className = `message ${kind}`;
    const who = document.createElement('span');
    who.className = 'who';
    who.textContent = { user: 'You', bot: 'Avatar', error: 'Error' }[kind];
    if (kind !== 'error') who.append(' ', timeElement(at));
    const body = document.createElement(kind === 'bot' ? 'div' : 'p');
    if (kind === 'bot') body.className = 'markdown';
    item.append(who, body);
    conversation.append(item);
    return { item, body };
  }

  function say(kind, text, at) {
    if (kind === 'error') errorsSaid += 1;
    const { item, body } = bubble(kind, at);
    if (kind === 'bot') renderReply(body, text);
    else body.textContent = text;
    return item;
  }

  /** Under the visitor's message, how the service read it: "you sounded angry: furious, hate". */
  function markReading(item, appraisal) {
    const words = readingWords(appraisal);
    if (!item || !words) return;
    const note = item.querySelector('.reading') ?? document.createElement('span');
    note.className = 'reading';
    note.textContent = words;
    item.append(note);
  }

  /** A stopped reply says so, as the history keeps it. */
  function markStopped(item) {
    item.classList.add('stopped');
    if (item.querySelector('.stopped-note')) return;
    const note = document.createElement('span');
    note.className = 'stopped-note';
    note.textContent = '(stopped)';
    item.append(note);
  }

  /** ‹ n/m ›: the earlier versions of a message or a reply (regenerated, edited), the current one last. */
  function addVersions(item, message) {
    const versions = [...message.alternatives, { content: message.content, stopped: message.stopped }];
    let shown = versions.length - 1;
    const body = item.querySelector('.markdown, p');
    const nav = document.createElement('span');
    nav.className = 'versions';
    const previous = smallButton('version-previous', '‹', 'Earlier version');
    const label = document.createElement('span');
    label.className = 'version-label';
    const next = smallButton('version-next', '›', 'Later version');
    const show = () => {
      const version = versions[shown];
      if (message.role === 'assistant') renderReply(body, String(version.content));
      else body.textContent = String(version.content);
      item.classList.toggle('stopped', Boolean(version.stopped));
      label.textContent = `${shown + 1}/${versions.length}`;
      previous.disabled = shown === 0;
      next.disabled = shown === versions.length - 1;
    };
    previous.addEventListener('click', () => {
      shown = Math.max(0, shown - 1);
      show();
    });
    next.addEventListener('click', () => {
      shown = Math.min(versions.length - 1, shown + 1);
      show();
    });
    nav.append(previous, label, next);
    item.append(nav);
    show();
  }

  /** Regenerate on the last reply, Edit on the last message: only the last exchange can be redone. */
  function placeRedoButtons() {
    for (const button of conversation.querySelectorAll('.redo')) button.remove();
    const items = [...conversation.querySelectorAll(MESSAGES)];
    const [user, bot] = items.slice(-2);
    if (!user?.classList.contains('user') || !bot?.classList.contains('bot')) return;
    const redo = (item, text, label, action) => {
      const button = smallButton('redo', text, label);
      button.disabled = sending;
      button.addEventListener('click', action);
      item.append(button);
    };
    redo(user, 'Edit', 'Edit your last message', startEditing);
    redo(bot, 'Regenerate', 'Regenerate the last reply', () => bus.emit('send', { text: '', redo: 'regenerate' }));
  }

  /** The notices said in the conversation (a lost reply, a refusal), each with how many messages came before it. */
  function noticesShown() {
    const notices = [];
    let before = 0;
    for (const item of conversation.children) {
      if (item.matches('.message.error')) notices.push({ item, before });
      else if (item.matches(MESSAGES)) before += 1;
    }
    return notices;
  }

  /**
   * The history as the service keeps it, with each entry's versions and marks. The notices said are
   * in no history: they stay, each after the messages it followed (a lost reply's word must not go
   * with the next reading of the history, whenever that comes).
   */
  function render(messages) {
    const notices = noticesShown();
    lastMessages = messages;
    conversation.replaceChildren();
    for (const message of messages) {
      const item = say(message.role === 'user' ? 'user' : 'bot', String(message.content), message.at);
      if (message.turn) item.dataset.turn = message.turn;
      if (message.role === 'user') markReading(item, message.appraisal);
      if (message.stopped) markStopped(item);
      if (Array.isArray(message.alternatives) && message.alternatives.length > 0) addVersions(item, message);
      if (message.role === 'assistant') addReplyCopy(item);
    }
    for (const { item, before } of notices) {
      conversation.insertBefore(item, conversation.querySelectorAll(MESSAGES)[before] ?? null);
    }
    placeRedoButtons();
    if (!shown) toEnd();
    shown = true;
  }

  /** The avatar's reply is pending: a "thinking" line under the visitor's message, which stays. */
  function showThinking(own) {
    const item = document.createElement('li');
    if (own) item.id = 'thinking';
    item.className = 'message bot thinking';
    item.setAttribute('aria-busy', 'true');
    const who = document.createElement('span');
    who.className = 'who';
    who.textContent = 'Avatar';
    const body = document.createElement('p');
    body.textContent = 'Thinking';
    item.append(who, body);
    conversation.append(item);
    document.body.dataset.thinking = 'true';
    setActivity('thinking');
    let done = false;
    return () => {
      if (done) return;
      done = true;
      item.remove();
      document.body.dataset.thinking = 'false';
      setActivity('idle');
    };
  }

  /**
   * A reply growing in its bubble from a turn's frames, re-rendering its Markdown once per frame:
   * `done` brings the committed reply and the mood; a stopped reply keeps what came, marked stopped;
   * a failed one is taken back, since nothing of it was kept. Returns the frame handler.
   */
  function replyView({ onFailure, own = false }) {
    const doneThinking = showThinking(own);
    let reply;
    let streamed = '';
    let drawing = 0;
    const redraw = () => {
      drawing = 0;
      renderReply(reply.body, streamed);
    };
    const handle = (event, data) => {
      if (event === 'token') {
        if (!reply) {
          doneThinking();
          setActivity('speaking');
          reply = bubble('bot');
          reply.item.setAttribute('aria-busy', 'true');
        }
        streamed += String(data.text ?? '');
        drawing ||= requestAnimationFrame(redraw);
      } else if (event === 'done') {
        cancelAnimationFrame(drawing);
        doneThinking();
        reply ??= bubble('bot');
        streamed = String(data.response ?? '');
        redraw();
        reply.item.setAttribute('aria-busy', 'false');
        addReplyCopy(reply.item);
        markReading(messageBefore(reply.item), data.appraisal);
        bus.emit('mood', data);
      } else if (event === 'error') {
        cancelAnimationFrame(drawing);
        doneThinking();
        if (data.code === 'CHAT_STOPPED') {
          reply ??= bubble('bot');
          redraw();
          markStopped(reply.item);
          addReplyCopy(reply.item);
          reply.item.setAttribute('aria-busy', 'false');
        } else {
          reply?.item.remove();
          say('error', data.error || 'The reply failed.');
          onFailure(data);
        }
      }
    };
    // The service stopped answering: "Thinking…" would be a promise nobody keeps, so it says so instead.
    let unreachable;
    const trouble = (on) => {
      if (on && !unreachable) {
        doneThinking();
        unreachable = say('error', 'Cannot reach the service. Still trying: the reply shows here if it comes back.');
        unreachable.classList.add('trouble');
      } else if (!on) {
        unreachable?.remove();
        unreachable = undefined;
      }
    };
    const end = () => {
      cancelAnimationFrame(drawing);
      doneThinking();
      trouble(false);
      setActivity('idle');
    };
    const heard = (event, data) => {
      trouble(false);
      handle(event, data);
    };
    return { handle: heard, trouble, end };
  }

  /**
   * Whether the service's history holds the turn's exchange: a turn it no longer keeps either ended
   * while the page was away (kept) or died with the process writing it (lost). A service that has
   * just restarted may not answer the history yet: asked again for about 10 s, after which unknown
   * counts as kept (better say nothing than something false).
   */
  async function inHistory(turn) {
    for (let tries = 0; tries < HISTORY_TRIES; tries += 1) {
      try {
        const { response, body } = await getJson('/api/history');
        if (response.ok && Array.isArray(body.messages)) return body.messages.some((message) => message.turn === turn);
      } catch {
        // Not reachable yet: asked again below.
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    return true;
  }

  /** A rejection before the stream (JSON, the statuses of docs/specification.md#chat): says why, and gives the message back. */
  function rejected(response, body, text) {
    if (body.status === 'missing_llm_key') {
      goToErrorPage('/error');
      return;
    }
    say('error', body.error || `The service answered ${response.status}.`);
    if (text) giveBack(text); // nothing typed is lost
    if (body.status === 'initializing') bus.emit('restart');
  }

  /** Shows the history again, as the service keeps it (after a reply of another tab, a regenerate, an edit). */
  async function refresh() {
    const before = errorsSaid;
    // Busy while the history is read and shown: assistive technology (and a test) knows when it is settled.
    conversation.setAttribute('aria-busy', String((reading += 1) > 0));
    try {
      const { response, body } = await getJson('/api/history');
      if (!response.ok || !Array.isArray(body.messages)) return false;
      // A reply of this tab or another, still growing, stays as it is; the next refresh shows it kept.
      // An error said meanwhile (a lost reply) is in no history: the history read before it would hide it.
      if (sending || followed.size > 0 || errorsSaid !== before) return true;
      render(body.messages);
      return true;
    } catch {
      return false;
    } finally {
      conversation.setAttribute('aria-busy', String((reading -= 1) > 0));
    }
  }

  /**
   * Sends a message (or a regenerate, or an edit) and follows its turn. A connection that drops is
   * followed again from the last frame seen; a message the service never took is given back.
   */
  async function chat(text, redo) {
    const view = replyView({ own: true, onFailure: (data) => data.code !== 'CHAT_STOPPED' && text && giveBack(text) });
    let outcome;
    let ownTurnOf;
    let known = () => undefined;
    ownTurnKnown = new Promise((resolve) => (known = resolve));
    try {
      const response = await fetch(ROUTES[redo ?? 'chat'], {
        method: 'POST',
        cache: 'no-store',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify(redo === 'regenerate' ? {} : { message: text }),
      });
      if (!(response.headers.get('content-type') || '').startsWith('text/event-stream')) {
        view.end();
        rejected(response, await response.json().catch(() => ({})), text);
        return false;
      }
      ownTurn = response.headers.get('turn-id') || undefined;
      ownTurnOf = ownTurn;
      if (ownTurn) ownTurns.add(ownTurn);
      known();
      tellTurns();
      outcome = await followTurn(ownTurn, view.handle, { response, onTrouble: view.trouble });
      if (outcome === 'gone' && !(await inHistory(ownTurn))) {
        view.handle('error', LOST_REPLY);
        outcome = 'error';
      }
    } catch {
      outcome = 'unreachable';
    } finally {
      known();
      view.end();
      ownTurn = undefined;
      tellTurns();
    }
    // A message the service never took comes back to the box; one it took is in the history.
    if (outcome === 'unreachable' && ownTurnOf === undefined) {
      say('error', 'Cannot reach the service. Your message is back in the box.');
      if (text) giveBack(text);
    } else if (outcome === 'unreachable') say('error', 'Cannot reach the service; the reply shows here once it is back.');
    // A regenerate or an edit keeps versions the history shows; a turn no longer kept is in the history.
    return (redo !== undefined && outcome === 'done') || outcome === 'gone';
  }

  /** A frame of a followed turn, from the feed or a catch-up read, shown once (by its id); its end ends the follow. */
  function deliver(turn, id, event, data) {
    const follow = followed.get(turn);
    if (follow === undefined || id <= follow.last) return;
    follow.last = id;
    follow.view.handle(event, data);
    if (event !== 'done' && event !== 'error') return;
    follow.view.end();
    followed.delete(turn);
    tellTurns();
    // A lost turn is in no history: showing the history again would take the word of it away.
    if (data?.code !== 'TURN_LOST') void refresh();
  }

  /** Reads a followed turn's frames after the last one shown (after a reload, or the feed's drop); the feed brings the rest too. */
  function catchUp(turn) {
    const follow = followed.get(turn);
    if (follow === undefined) return;
    const frame = (event, data, id) => deliver(turn, id, event, data);
    void followTurn(turn, frame, { after: follow.last, onTrouble: follow.view.trouble }).then(async (outcome) => {
      if (outcome !== 'gone') return;
      const kept = await inHistory(turn);
      if (followed.get(turn) !== follow) return;
      if (!kept) return frame('error', LOST_REPLY, follow.last + 1);
      // No longer kept: the history has it.
      follow.view.end();
      followed.delete(turn);
      tellTurns();
      void refresh();
    });
  }

  /**
   * A turn started elsewhere (another tab, or this page before a reload): its message, then its reply
   * as it grows. The feed may tell of this tab's own turn before its answer has said which it is: a
   * turn told while this tab's chat is on its way waits for that answer, then reads what it missed.
   */
  async function followElsewhere({ id, message, redo }) {
    if (sending && ownTurn === undefined) {
      await ownTurnKnown;
      if (!followed.has(id) && !ownTurns.has(id)) queueMicrotask(() => catchUp(id));
    }
    if (followed.has(id) || ownTurns.has(id)) return;
    const bubbles = [...conversation.querySelectorAll(MESSAGES)];
    if (redo === 'regenerate') bubbles.at(-1)?.remove();
    if (redo === 'edit') for (const item of bubbles.slice(-2)) item.remove();
    if (redo !== 'regenerate') say('user', String(message));
    followed.set(id, { view: replyView({ onFailure: () => undefined }), last: 0 });
    tellTurns();
  }

  /**
   * One turn at a time, whoever started it (this tab, another, this page before a reload): while one
   * runs, Send is off and Stop shows, and stops it by its turn.
   */
  function tellTurns() {
    bus.emit('sending', sending || followed.size > 0);
    bus.emit('streaming', ownTurn !== undefined || followed.size > 0);
  }

  /** Edit the last message: it comes back to the box, and the next send replaces the last exchange. */
  function startEditing() {
    const last = lastMessages.findLast?.((message) => message.role === 'user');
    const items = conversation.querySelectorAll('.message.user');
    const text = last?.content ?? items[items.length - 1]?.querySelector('p')?.textContent;
    if (sending || text === undefined) return;
    editing = true;
    document.body.dataset.editing = 'true';
    giveBack(String(text));
    input.focus();
    bus.emit('notice', { text: 'Editing your last message: Enter sends it in its place, Esc cancels.' });
  }

  function stopEditing() {
    editing = false;
    document.body.dataset.editing = 'false';
  }

  /** Forgets the conversation on the service (New conversation, once its undo time is over). */
  async function forget() {
    const clear = pendingClear;
    pendingClear = undefined;
    clearTimeout(clear?.timer);
    clear?.notice.remove();
    try {
      const { response, body } = await getJson('/api/history', { method: 'DELETE' });
      if (!response.ok) throw new Error(body.error);
      lastMessages = [];
    } catch (error) {
      if (clear) conversation.replaceChildren(...clear.items);
      say('error', `The conversation could not be forgotten${error?.message ? `: ${error.message}` : ''}.`);
    }
  }

  bus.on('send', async ({ text, redo }) => {
    if (sending || followed.size > 0) return;
    sending = true;
    bus.emit('sending', true);
    toEnd(); // the visitor sent something: what comes of it is what they want to see
    if (pendingClear) await forget();
    const mode = redo ?? (editing ? 'edit' : undefined);
    stopEditing();
    for (const button of conversation.querySelectorAll('.redo')) button.remove();
    const bubbles = [...conversation.querySelectorAll(MESSAGES)];
    if (mode === 'regenerate') bubbles.at(-1)?.remove();
    if (mode === 'edit') for (const item of bubbles.slice(-2)) item.remove();
    if (mode !== 'regenerate') say('user', text);
    let stale = true;
    try {
      stale = await chat(text, mode);
    } finally {
      sending = false;
      tellTurns();
    }
    // A regenerate, an edit or a reply that did not end normally: the history says how it is kept.
    if (stale) await refresh();
    else placeRedoButtons();
  });

  // Stops the turn running (this tab's own, or the one it follows); the stream itself says when it has stopped (event: error).
  bus.on('stop', () => {
    const turn = ownTurn ?? [...followed.keys()].at(-1);
    fetch('/api/chat/stop', {
      method: 'POST',
      cache: 'no-store',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(turn ? { turn } : {}),
    }).catch(() => undefined);
  });

  // The feed: the turns running when it (re)connects, then what the visitor's tabs do.
  bus.on('feed', ({ event, data }) => {
    if (event === 'running') {
      // Followed turns missed frames while the feed was away, their end perhaps: read from the last shown.
      for (const turn of followed.keys()) catchUp(turn);
      void refresh().then(() => {
        const shown = new Set(lastMessages.map((message) => message.turn).filter(Boolean));
        for (const turn of data.turns ?? []) {
          if (shown.has(turn.id) || ownTurns.has(turn.id) || followed.has(turn.id)) continue;
          void followElsewhere(turn).then(() => catchUp(turn.id));
        }
      });
    } else if (event === 'turn') void followElsewhere(data);
    else if (event === 'frame') deliver(data.turn, data.id, data.event, data.data);
    else if (event === 'imported') void refresh();
    else if (event === 'cleared' && !pendingClear && !sending) {
      conversation.replaceChildren();
      lastMessages = [];
    }
  });

  bus.on('history', () => void refresh());

  bus.on('started', () => {
    if (started) return;
    started = true;
    void refresh();
  });

  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return;
    if (ownTurn || followed.size > 0) bus.emit('stop');
    else if (editing) {
      stopEditing();
      giveBack('');
    }
  });
  input.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowUp' && input.value === '' && !event.shiftKey) {
      event.preventDefault();
      startEditing();
    }
  });

  newConversation.addEventListener('click', () => {
    if (sending || pendingClear) return;
    const items = [...conversation.children];
    conversation.replaceChildren();
    const notice = document.createElement('p');
    notice.className = 'undo-clear';
    notice.setAttribute('role', 'status');
    notice.textContent = 'Conversation cleared. ';
    const undo = document.createElement('button');
    undo.type = 'button';
    undo.className = 'secondary';
    undo.textContent = 'Undo';
    notice.append(undo);
    conversation.after(notice);
    const timer = setTimeout(() => void forget(), UNDO_MS);
    pendingClear = { items, notice, timer };
    undo.addEventListener('click', () => {
      if (pendingClear === undefined) return;
      clearTimeout(pendingClear.timer);
      conversation.replaceChildren(...pendingClear.items);
      pendingClear.notice.remove();
      pendingClear = undefined;
      newConversation.focus();
    });
    undo.focus();
    bus.emit('cleared');
  });
  setInterval(() => refreshTimes(conversation), TIMES_MS);
  // Leaving during the undo time: the conversation is forgotten as asked.
  window.addEventListener('pagehide', () => {
    if (pendingClear) fetch('/api/history', { method: 'DELETE', keepalive: true }).catch(() => undefined);
  });
}
