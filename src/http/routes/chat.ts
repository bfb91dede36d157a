import type {} from '@fastify/sse';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { BusTimeoutError } from '../../bus/errors.js';
import { phaseError, rejectionError } from '../phase-errors.js';
import { httpError, type HttpError } from '../errors.js';
import { chatBody, doneFrameBody } from '../present.js';
import { chatResponse } from '../response-schemas.js';
import type { CookiePolicy } from '../cookie-attributes.js';
import { visitorSession } from '../session.js';
import { pacedWrites } from '../paced-writes.js';
import { sseFrame } from '../sse-frame.js';
import { randomUUID } from 'node:crypto';
import type { TurnEvent, TurnLog } from '../../turns/turn-log.js';
import type { VisitorFeed } from '../visitor-feed.js';
import type { VisitorRelay } from '../../turns/visitor-relay.js';
import type { ChatRejected, ChatReplied, SessionKey, SystemPhase } from '../../bus/events.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The visitor's session key (never the cookie's id), set before the chat handler runs. */
    session: SessionKey;
    /** Set once the chat was handed to the system: an error before that is the request's own. */
    chatAsked: boolean;
  }
}
import type { Redo, SystemClient } from '../system-client.js';

export interface ChatRoutesOptions {
  readonly system: SystemClient;
  readonly maxMessageLength: number;
  /** Signs and checks the session ids. */
  readonly sessionSecret: string;
  /** The session cookie's SameSite/Secure/Partitioned rule (default: SameSite=Lax). */
  readonly cookiePolicy?: CookiePolicy;
  /** Where each streamed turn's frames are kept for a page that comes back. */
  readonly turns: TurnLog;
  /** Tells the visitor's other tabs of each turn. */
  readonly feed: VisitorFeed;
  /** With replicas: a stop reaches the replica writing the reply. */
  readonly visitors?: VisitorRelay;
}

/** The phase's 503 (docs/specification.md#chat), or nothing when the system is ready to chat. */
function readinessError(phase: SystemPhase): HttpError | undefined {
  const code = phaseError(phase);
  return code === undefined ? undefined : httpError(code);
}

function unreachableSystem(cause: unknown): HttpError {
  return httpError('SYSTEM_UNREACHABLE', { cause });
}

/** The error a chat gets when the system does not answer it in time, or at all. */
function unansweredChat(cause: unknown): HttpError {
  return httpError(cause instanceof BusTimeoutError ? 'CHAT_TIMEOUT' : 'CHAT_UNAVAILABLE', { cause });
}

/** Sets the visitor's session: the cookie goes out with every answer, a 503 too, so the visitor keeps one session from the first request. */
function sessionOf(sessionSecret: string, cookiePolicy: CookiePolicy | undefined) {
  return (request: FastifyRequest, reply: FastifyReply, done: () => void): void => {
    request.session = visitorSession(request, reply, sessionSecret, cookiePolicy);
    done();
  };
}

/** What the chat routes share: the system, the visitors' turns and their tabs' feed. */
interface ChatDesk {
  readonly system: SystemClient;
  readonly turns: TurnLog;
  readonly feed: VisitorFeed;
}

/** The `event: error` data of a chat that got no reply; the system's own words go to the log. */
function errorFrameData(request: FastifyRequest, error: HttpError): string {
  request.log.debug({ code: error.code, reason: (error.cause as Error | undefined)?.message ?? error.cause }, error.message);
  return JSON.stringify({ error: error.message, code: error.code });
}

/** A streamed turn's open stream: each frame goes to the visitor, the turn log and their other tabs. */
function openTurn(desk: ChatDesk, request: FastifyRequest, reply: FastifyReply, turn: string, message: string, redo?: Redo) {
  const { turns, feed } = desk;
  const session = request.session;
  const log = turns.open(turn, session, { message, ...(redo ? { redo } : {}) });
  reply.header('turn-id', turn);
  const sse = reply.sse;
  // @fastify/sse says `Connection: keep-alive` whatever the client asked: a client that sent
  // `Connection: close` (or HTTP/1.0) gets its socket closed once the reply is done.
  if (!reply.raw.shouldKeepAlive) reply.header('connection', 'close');
  sse.sendHeaders();
  const socket = reply.raw;
  // Node holds written headers until the first body write: the client would wait for the first piece.
  socket.flushHeaders();
  feed.tell(session, { event: 'turn', data: { id: turn, message, ...(redo ? { redo } : {}) } });
  // Only the socket's writes are paced: the turn log and the other tabs get each frame at once. A
  // visitor gone while frames waited gets none of them.
  const writes = pacedWrites((text) => sse.isConnected && !socket.writableEnded && socket.write(text));
  return {
    send(event: TurnEvent, data: string): void {
      const frame = log.write(event, data);
      writes.add(sseFrame(frame.data, frame.event, frame.id));
      // The done or error frame ends the turn: it and what waits go out now.
      if (event !== 'token') writes.flush();
      feed.tellFrame(session, turn, frame);
    },
    end(): void {
      feed.tell(session, { event: 'ended', data: { id: turn } });
    },
  };
}

/**
 * A streamed chat (`Accept: text/event-stream`), once the request is valid: a turn (`Turn-Id`),
 * whose stream opens as soon as the system accepts the chat (one it refuses at once, by its phase,
 * gets plain JSON with its status); each piece of the reply goes out as `event: token`, then
 * `event: done` with the body of docs/specification.md#chat once the mood has committed, or
 * `event: error`; each frame with an `id` that grows within the turn, and kept in the turn log for
 * a page that comes back (`GET /api/chat/turns/:id`). The visitor's other tabs hear of it on their
 * feed. A visitor who goes away has not stopped: the chat runs to its end and commits, and only the
 * writing stops (seen on the response, which closes; the request's own signal fires as soon as a
 * POST's body has been read).
 */
async function streamChat(desk: ChatDesk, request: FastifyRequest, reply: FastifyReply, message: string, redo?: Redo): Promise<void> {
  const turn = randomUUID();
  let stream: ReturnType<typeof openTurn> | undefined;
  let answer: ChatReplied | ChatRejected;
  try {
    answer = await desk.system.chatStream(
      message,
      request.session,
      {
        accepted: () => (stream = openTurn(desk, request, reply, turn, message, redo)),
        token: (text) => stream?.send('token', JSON.stringify({ text })),
      },
      { turn, redo },
    );
  } catch (cause) {
    if (stream === undefined) throw unansweredChat(cause);
    stream.send('error', errorFrameData(request, unansweredChat(cause)));
    return stream.end();
  }
  if (stream === undefined) {
    // Refused before it was accepted: no stream was opened, the refusal is the answer's status.
    if (answer.type === 'chat.rejected') throw httpError(rejectionError(answer.reason), { cause: answer.error });
    stream = openTurn(desk, request, reply, turn, message, redo);
  }
  if (answer.type === 'chat.replied') stream.send('done', JSON.stringify(doneFrameBody(answer)));
  else stream.send('error', errorFrameData(request, httpError(rejectionError(answer.reason), { cause: answer.error })));
  stream.end();
}

export const chatRoutes: FastifyPluginAsync<ChatRoutesOptions> = async (app, options) => {
  const { system, maxMessageLength, sessionSecret, cookiePolicy } = options;
  const desk: ChatDesk = { system, turns: options.turns, feed: options.feed };
  const session = sessionOf(sessionSecret, cookiePolicy);
  // Declared up front, so that every request object keeps one shape.
  app.decorateRequest('session', '');
  app.decorateRequest('chatAsked', false);
  // The system checks a chat's phase when it receives it, once. A request that never reaches it (its
  // body unreadable, too large, not JSON, no message) is answered the phase's 503 all the same when
  // the system cannot chat (docs/specification.md#chat): from the phase it announced, without asking.
  app.setErrorHandler((error, request) => {
    throw (!request.chatAsked && readinessError(system.phase)) || error;
  });
  // JSON only, `+json` types too, a blank body being no message (400 "No message provided"). Any other
  // type finds no parser: fastify's 415, mapped by the error handler.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(/^application\/(?:[\w.-]+\+)?json(?:;|$)/, { parseAs: 'string' }, (request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    parseJson(request, text, (error, value) =>
      error ? done(httpError('MALFORMED_JSON', { args: [error.message], cause: error })) : done(null, value),
    );
  });

  /** A chat's answer, streamed or JSON; `redo` makes it a regenerate or an edit of the last exchange. */
  const answer = async (request: FastifyRequest, reply: FastifyReply, message: string, redo?: Redo) => {
    // A redo acts on the last exchange: while a reply streams (on any replica) it would redo the one before (refused, not queued).
    if (redo !== undefined && (await desk.turns.running(request.session)).length > 0) throw httpError('REPLY_IN_PROGRESS');
    request.chatAsked = true;
    if (reply.sse) return streamChat(desk, request, reply, message, redo);
    let result: ChatReplied | ChatRejected;
    try {
      result = await system.chat(message, request.session, { redo });
    } catch (cause) {
      throw unansweredChat(cause);
    }
    // The system's own words (a provider's detail among them) go to the log, not to the visitor.
    if (result.type === 'chat.rejected') throw httpError(rejectionError(result.reason), { cause: result.error });
    return reply.send(chatBody(result));
  };
  /** The message of a chat or an edit, once the body was checked against `messageBody`. */
  const messageOf = (request: FastifyRequest): string => {
    if (request.validationError) {
      const tooLong = request.validationError.validation.some(
        (problem: { keyword: string; instancePath: string }) => problem.keyword === 'maxLength' && problem.instancePath === '/message',
      );
      throw tooLong ? httpError('MESSAGE_TOO_LONG', { args: [maxMessageLength] }) : httpError('NO_MESSAGE');
    }
    return (request.body as { message: string }).message;
  };
  const messageRoute = {
    schema: {
      // `\S`: an empty or blank message is no message. Types are not coerced (see app.ts): 5 is not "5".
      // Plain JSON schema rather than typebox's builder, which would load before the server can listen.
      body: {
        type: 'object',
        required: ['message'],
        properties: { message: { type: 'string', pattern: '\\S', maxLength: maxMessageLength } },
      },
      response: chatResponse,
    },
    attachValidation: true,
    onRequest: session,
    // `Accept: text/event-stream` streams the reply (reply.sse is set); any other Accept gets the JSON of docs/specification.md#chat.
    sse: 'dual',
  } as const;

  app.post('/api/chat', messageRoute, (request, reply) => answer(request, reply, messageOf(request)));
  // Edit the last message: a new exchange in place of the last one, read like any message.
  app.post('/api/chat/edit', messageRoute, (request, reply) => answer(request, reply, messageOf(request), 'edit'));
  // A new reply to the last message; a body, if any, is not read.
  app.post('/api/chat/regenerate', { schema: { response: chatResponse }, onRequest: session, sse: 'dual' }, (request, reply) =>
    answer(request, reply, '', 'regenerate'),
  );

  // Stops this visitor's streamed replies in flight (one turn with `{"turn"}`, else all): each ends with
  // `event: error` at once, nothing commits, and the stopped reply stays in the history as it was.
  // With replicas, those another replica writes too: it is told, and stops them as it would its own.
  app.post('/api/chat/stop', { onRequest: session }, async (request, reply) => {
    const notReady = readinessError(system.phase);
    if (notReady) throw notReady;
    const turn = (request.body as { turn?: unknown } | undefined)?.turn;
    if (turn !== undefined && typeof turn !== 'string') throw httpError('BAD_REQUEST', { args: ['"turn" must be a Turn-Id'] });
    let stopped: number;
    try {
      stopped = await system.stop(request.session, turn);
    } catch (cause) {
      throw unreachableSystem(cause);
    }
    if (options.visitors && (turn === undefined || stopped === 0)) {
      // Redis away: the replies written here are stopped all the same.
      stopped += await options.visitors.stop(request.session, turn).catch((error: unknown) => {
        request.log.debug({ err: error }, 'the stop could not reach the other replicas');
        return 0;
      });
    }
    return reply.send({ stopped: stopped > 0 });
  });
};
