// The conversation: the visitor's messages and the avatar's replies. It shows the history the service
// remembers, chats when the composer sends, and streams each reply into its bubble, rendered as
// Markdown by markdown-it with HTML off: HTML in a reply is shown as text, never made into an element;
// the visitor's own text is text; a link in a reply opens in a new tab, never in place of the chat.
// While a reply is pending the avatar is 'thinking', while it streams 'speaking'. A streaming bubble is
// aria-busy until its reply is complete, so a screen reader says the reply once, whole.
import markdownit from '/assets/vendor/markdown-it.js';
import { eventFrames } from './event-frames.js';
import { getJson, goToErrorPage } from './service.js';

const markdown = markdownit({ html: false, linkify: true, breaks: true });
// Every link of a reply opens a new tab that cannot reach back to this page or learn where it came from.
const renderLinkOpen = markdown.renderer.rules.link_open ?? ((tokens, i, options, _env, self) => self.renderToken(tokens, i, options));
markdown.renderer.rules.link_open = (tokens, i, options, env, self) => {
  tokens[i].attrSet('target', '_blank');
  tokens[i].attrSet('rel', 'noopener noreferrer');
  return renderLinkOpen(tokens, i, options, env, self);
};

/** Renders a reply's Markdown: markdown-it with HTML off escapes any tag, and refuses javascript: links. */
function renderReply(element, text) {
  element.innerHTML = markdown.render(text);
}

export function mountConversation(bus) {
  const conversation = document.getElementById('conversation');
  const newConversation = document.getElementById('new-conversation');
  let sending = false;
  let historyShown = false;

  const setActivity = (activity) => bus.emit('activity', activity);
  const giveBack = (text) => bus.emit('restore', { text });

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

  /** A rejection before the stream (JSON, the statuses of docs/specification.md#chat): says why, and gives the message back. */
  function rejected(response, body, text) {
    if (body.status === 'missing_llm_key') {
      goToErrorPage('/error');
      return;
    }
    say('error', body.error || `The service answered ${response.status}.`);
    giveBack(text); // nothing typed is lost
    if (body.status === 'initializing') bus.emit('restart');
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
      bus.emit('streaming', true);
      for await (const { event, data } of eventFrames(response)) {
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
          ended = true;
          cancelAnimationFrame(drawing);
          doneThinking();
          reply ??= bubble('bot');
          streamed = String(data.response ?? '');
          redraw();
          reply.item.setAttribute('aria-busy', 'false');
          bus.emit('mood', data);
        } else if (event === 'error') {
          ended = true;
          cancelAnimationFrame(drawing);
          doneThinking();
          if (data.code === 'CHAT_STOPPED' && reply) {
            redraw();
            reply.item.classList.add('stopped');
            reply.item.setAttribute('aria-busy', 'false');
          } else {
            reply?.item.remove();
            say('error', data.error || 'The reply failed.');
            if (data.code !== 'CHAT_STOPPED') giveBack(text);
          }
        }
      }
      if (!ended) throw new Error('the reply was cut off');
    } catch {
      doneThinking();
      reply?.item.remove();
      say('error', 'Cannot reach the service. Your message is back in the box.');
      giveBack(text);
    } finally {
      doneThinking();
      bus.emit('streaming', false);
      setActivity('idle');
    }
  }

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

  bus.on('send', async ({ text }) => {
    sending = true;
    bus.emit('sending', true);
    say('user', text);
    try {
      await chat(text);
    } finally {
      sending = false;
      bus.emit('sending', false);
    }
  });

  bus.on('notice', ({ text }) => say('error', text));

  // The stream itself says when the reply has stopped (event: error).
  bus.on('stop', () => {
    fetch('/api/chat/stop', { method: 'POST', cache: 'no-store' }).catch(() => undefined);
  });

  bus.on('started', () => {
    if (historyShown) return;
    historyShown = true;
    void showHistory();
  });

  newConversation.addEventListener('click', async () => {
    if (sending) return;
    try {
      const { response, body } = await getJson('/api/history', { method: 'DELETE' });
      if (!response.ok) throw new Error(body.error);
      conversation.replaceChildren();
      bus.emit('cleared');
    } catch (error) {
      say('error', `The conversation could not be forgotten${error?.message ? `: ${error.message}` : ''}.`);
    }
  });
}
