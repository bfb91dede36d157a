/** Reads an event stream (a fetch response) frame by frame: `{ event, data, id }`, the data parsed as JSON, `id` a number when the frame has one. */
export async function* eventFrames(response) {
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
      let id;
      const data = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
        else if (line.startsWith('id:')) id = Number(line.slice(3).trim());
      }
      // Comments (the heartbeat) carry no data.
      if (data.length > 0) yield { event, data: JSON.parse(data.join('\n')), id };
      end = buffer.indexOf('\n\n');
    }
  }
}
