// The composer: the message box with Send and Stop. It sends a 'send' when the visitor submits a
// message, turns Send on only while the service is ready, reachable and no chat is in flight, shows
// Stop while a reply streams, and takes back any message the conversation gives back ('restore').

export function mountComposer(bus) {
  const form = document.getElementById('chat-form');
  const input = document.getElementById('message');
  const send = document.getElementById('send');
  const stop = document.getElementById('stop');
  let ready = false;
  let reachable = true;
  let sending = false;

  const updateSend = () => {
    send.disabled = !ready || sending || !reachable;
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
  });
  bus.on('cleared', () => input.focus());

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = input.value;
    if (!ready || sending) return;
    if (text.trim() === '') {
      bus.emit('notice', { text: 'Please type a message first.' });
      return;
    }
    input.value = '';
    bus.emit('send', { text });
  });

  stop.addEventListener('click', () => {
    stop.disabled = true;
    bus.emit('stop');
  });
}
