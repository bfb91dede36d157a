// The event stream: the mood, pushed by /api/events, each change said at once as a 'mood'.
// The status's 1 s poll stays: the contract, and the fallback where this stream is cut.

export function mountEventStream(bus) {
  if (typeof EventSource !== 'function') return;
  const source = new EventSource('/api/events');
  source.addEventListener('message', (event) => {
    try {
      const body = JSON.parse(event.data);
      if (body.emotions) bus.emit('mood', body);
    } catch {
      // A frame that is not the avatar's JSON is ignored; the poll still draws.
    }
  });
}
