import { request, type IncomingMessage } from 'node:http';

/** Resumed turns measured from the client's side. */
export interface ResumeFigures {
  /** Each resume's time from sending `GET /api/chat/turns/:id` to the first missed frame, in ms. */
  readonly resumeMs: number[];
  /** At the same moments, a fresh `GET /api/events`' time to its first frame (sent at once): the baseline. */
  readonly eventsMs: number[];
  /** Resumes whose first frame was not the one after the last seen (a gap or a repeat), or that failed. */
  readonly errors: number;
}

/** Calls `onFrame(id, event)` for each SSE frame of the response, as it arrives. */
function readFrames(response: IncomingMessage, onFrame: (id: number, event: string) => void): void {
  let buffer = '';
  response.setEncoding('utf8');
  response.on('data', (chunk: string) => {
    buffer += chunk;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const id = /^id: (\d+)$/m.exec(block)?.[1];
      const event = /^event: (\S+)$/m.exec(block)?.[1] ?? 'message';
      onFrame(id === undefined ? -1 : Number(id), event);
    }
  });
}

/** Resolves with the time from now to the first frame of `GET url`, and closes it. */
function firstFrameMs(url: URL, headers: Record<string, string>, expectId?: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const call = request(url, { headers: { accept: 'text/event-stream', ...headers } }, (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        reject(new Error(`status ${response.statusCode}`));
        return;
      }
      let first = true;
      readFrames(response, (id) => {
        if (!first) return;
        first = false;
        const ms = performance.now() - started;
        response.destroy();
        if (expectId !== undefined && id !== expectId) reject(new Error(`frame ${id} after ${expectId - 1}: a gap or a repeat`));
        else resolve(ms);
      });
    });
    call.on('error', reject);
    call.end();
  });
}

/** One streamed turn, dropped after `dropAfter` frames: resolves with its session cookie, Turn-Id and last frame id seen. */
function droppedTurn(chat: URL, body: string, dropAfter: number): Promise<{ cookie: string; turn: string; last: number }> {
  return new Promise((resolve, reject) => {
    const call = request(
      chat,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        const cookie = response.headers['set-cookie']?.[0]?.split(';')[0];
        const turn = response.headers['turn-id'];
        if (response.statusCode !== 200 || cookie === undefined || typeof turn !== 'string') {
          response.resume();
          reject(new Error(`status ${response.statusCode}, no session or no Turn-Id`));
          return;
        }
        let seen = 0;
        readFrames(response, (id, event) => {
          if (event !== 'token' || seen === dropAfter) return;
          seen += 1;
          if (seen === dropAfter) {
            response.destroy();
            resolve({ cookie, turn, last: id });
          }
        });
        response.on('end', () => reject(new Error('the turn ended before it was dropped')));
      },
    );
    call.on('error', reject);
    call.end(body);
  });
}

/**
 * `inFlight` streamed turns at once, each dropped after its third piece; then, while they all still
 * run, each is resumed in turn with `Last-Event-ID`: the time to the first missed frame (checked to
 * be the next one: no gap, no repeat), and beside each, the time to the first frame of a fresh
 * `GET /api/events` on the same server at the same moment. One resume at a time: a burst of 200
 * would measure the burst, not the resume.
 */
export async function measureResume(baseUrl: string, inFlight: number, body: string): Promise<ResumeFigures> {
  const resumeMs: number[] = [];
  const eventsMs: number[] = [];
  let errors = 0;
  const dropped = await Promise.allSettled(Array.from({ length: inFlight }, () => droppedTurn(new URL('/api/chat', baseUrl), body, 3)));
  for (const turn of dropped) {
    if (turn.status === 'rejected') {
      errors += 1;
      continue;
    }
    const { cookie, turn: id, last } = turn.value;
    try {
      const [resumed, events] = await Promise.all([
        firstFrameMs(new URL(`/api/chat/turns/${id}`, baseUrl), { cookie, 'last-event-id': String(last) }, last + 1),
        firstFrameMs(new URL('/api/events', baseUrl), {}),
      ]);
      resumeMs.push(resumed);
      eventsMs.push(events);
    } catch {
      errors += 1;
    }
  }
  return { resumeMs, eventsMs, errors };
}

/** Opens `count` streamed chats and resolves once each has its first piece; `close` drops them all. */
export async function openStreams(url: string, count: number, body: string): Promise<{ close(): void }> {
  const responses: IncomingMessage[] = [];
  await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<void>((resolve, reject) => {
          const call = request(
            url,
            {
              method: 'POST',
              headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'content-length': Buffer.byteLength(body) },
            },
            (response) => {
              responses.push(response);
              let first = true;
              readFrames(response, () => {
                if (first) resolve();
                first = false;
              });
            },
          );
          call.on('error', reject);
          call.end(body);
        }),
    ),
  );
  return {
    close: () => {
      for (const response of responses) response.destroy();
    },
  };
}
