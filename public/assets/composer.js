// The composer: the message box with Send and Stop. The box takes several lines (Enter sends,
// Shift+Enter starts a new line) and grows with them up to a few; a message over the service's limit
// is never cut: its count shows how far over it is, and it is not sent until it fits. It sends a
// 'send' when the visitor submits a message, turns Send on only while the service is ready and
// reachable and no chat is in flight, shows Stop while a reply streams, and takes back any message
// the conversation gives back ('restore'). Hints ('notice': an empty Enter, editing) show under the
// box as a status, never as an error, until the visitor types or sends.

/** Characters as the service counts them (code points, not UTF-16 units). */
const lengthOf = (text) => [...text].length;
const number = new Intl.NumberFormat('en');

export function mountComposer(bus) {
  const form = document.getElementById('chat-form');
  const input = document.getElementById('message');
  const send = document.getElementById('send');
  const stop = document.getElementById('stop');
  const count = document.getElementById('message-count');
  const hint = document.getElementById('composer-hint');
  const limit = Number(document.body.dataset.maxLength) || Number.POSITIVE_INFINITY;
  let ready = false;
  let reachable = true;
  let sending = false;

  const over = () => lengthOf(input.value) - limit;
  const updateSend = () => {
    send.disabled = !ready || sending || !reachable || over() > 0;
  };

  /** The count shows from 90 % of the limit; over it, it says by how much, and the box says it is invalid. */
  function updateCount() {
    const length = lengthOf(input.value);
    const excess = length - limit;
    count.textContent =
      excess > 0
        ? `${number.format(length)} of ${number.format(limit)} characters: ${number.format(excess)} too many. Shorten it to send.`
        : length >= limit * 0.9
          ? `${number.format(length)} of ${number.format(limit)} characters.`
          : '';
    count.classList.toggle('over', excess > 0);
    input.setAttribute('aria-invalid', String(excess > 0));
  }

  /** The box grows with its text, up to the height style.css allows (then it scrolls). */
  function fit() {
    input.style.height = 'auto';
    input.style.height = `${input.scrollHeight + input.offsetHeight - input.clientHeight}px`;
  }

  const changed = () => {
    hint.textContent = '';
    updateCount();
    updateSend();
    fit();
  };

  bus.on('service', (service) => {
    ({ ready, reachable } = service);
    updateSend();
  });
  bus.on('sending', (value) => {
    sending = value;
    updateSend();
    if (!value) input.focus();
  });
  bus.on('streaming', (visible) => {
    stop.hidden = !visible;
    stop.disabled = !visible;
  });
  bus.on('restore', ({ text }) => {
    input.value = text;
    changed();
  });
  bus.on('cleared', () => input.focus());
  bus.on('notice', ({ text }) => {
    hint.textContent = text;
  });

  input.addEventListener('input', changed);
  input.addEventListener('keydown', (event) => {
    // Enter sends; Shift+Enter (and Enter while an input method composes) is the textarea's own.
    if (event.key !== 'Enter' || event.shiftKey || event.isComposing) return;
    event.preventDefault();
    form.requestSubmit();
  });

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = input.value;
    if (!ready || sending) return;
    if (text.trim() === '') {
      bus.emit('notice', { text: 'Please type a message first.' });
      return;
    }
    if (over() > 0) {
      // Refused as it is, never cut: the count says by how much.
      updateCount();
      input.focus();
      return;
    }
    input.value = '';
    changed();
    bus.emit('send', { text });
  });

  stop.addEventListener('click', () => {
    stop.disabled = true;
    bus.emit('stop');
  });
}
