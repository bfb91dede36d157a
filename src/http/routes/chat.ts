import type {} from '@fastify/sse';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { BusTimeoutError } from '../../bus/errors.js';
import { phaseError, rejectionError } from '../../errors/phase-errors.js';
import { httpError, type HttpError } from '../errors.js';
import { chatBody, doneFrameBody } from '../present.js';
import { chatResponse } from '../response-schemas.js';
import type { CookiePolicy } from '../cookie-attributes.js';
import { visitorSession } from '../session.js';
import { sseFrame } from '../sse-frame.js';
import type { ChatRejected, ChatReplied, SessionKey, StatusReported } from '../../bus/events.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The visitor's session key (never the cookie's id), set before the chat handler runs. */
    session: SessionKey;
  }
}
import type { SystemClient } from '../system-client.js';

export interface ChatRoutesOptions {
  readonly system: SystemClient;
  readonly maxMessageLength: number;
  /** Signs and checks the session ids. */
  readonly sessionSecret: string;
  /** The session cookie's SameSite/Secure/Partitioned rule (default: SameSite=Lax). */
  readonly cookiePolicy?: CookiePolicy;
}

/** The phase's 503 (docs/specification.md#chat), or nothing when the system is ready to chat. */
function readinessError(status: StatusReported): HttpError | undefined {
  const code = phaseError(status.phase);
  return code === undefined ? undefined : httpError(code);
}

function unreachableSystem(cause: unknown): HttpError {
  return httpError('SYSTEM_UNREACHABLE', { cause });
}

/** The error a chat gets when the system does not answer it in time, or at all. */
function unansweredChat(cause: unknown): HttpError {
  return httpError(cause instanceof BusTimeoutError ? 'CHAT_TIMEOUT' : 'CHAT_UNAVAILABLE', { cause });
}

/**
 * Sets the visitor's session, then answers the phase's 503 unless the system is ready: before the
 * body is read, so a system that cannot chat answers 503 whatever the body (docs/specification.md#chat).
 * A callback hook with one then(): an async hook awaiting an async check cost several ticks per chat.
 */
function sessionAndReadiness(system: SystemClient, sessionSecret: string, cookiePolicy: CookiePolicy | undefined) {
  return (request: FastifyRequest, reply: FastifyReply, done: (error?: HttpError) => void): void => {
    // The cookie goes out with every answer, a 503 too: the visitor keeps one session from the first request.
    request.session = visitorSession(request, reply, sessionSecret, cookiePolicy);
    system.status().then(
      (status) => done(readinessError(status)),
      (cause: unknown) => done(unreachableSystem(cause)),
    );
  };
}

/**
 * A streamed chat (`Accept: text/event-stream`), once the request is valid: the stream opens at
 * once, each piece of the reply goes out as `event: token`, then `event: done` with the body of
 * docs/specification.md#chat once the mood has committed, or `event: error`. A visitor who goes
 * away has not stopped: the chat runs to its end and commits, and only the writing stops (seen on
 * the response, which closes; the request's own signal fires as soon as a POST's body has been read).
 */
async function streamChat(system: SystemClient, request: FastifyRequest, reply: FastifyReply, message: string): Promise<void> {
  const sse = reply.sse;
  // @fastify/sse says `Connection: keep-alive` whatever the client asked: a client that sent
  // `Connection: close` (or HTTP/1.0) gets its socket closed once the reply is done.
  if (!reply.raw.shouldKeepAlive) reply.header('connection', 'close');
  sse.sendHeaders();
  const socket = reply.raw;
  // Node holds written headers until the first body write: the client would wait for the first piece.
  socket.flushHeaders();
  const write = (frame: string): void => {
    if (sse.isConnected && !socket.writableEnded) socket.write(frame);
  };
  let frame: string;
  try {
    const answer = await system.chatStream(message, request.session, (text) => write(sseFrame(JSON.stringify({ text }), 'token')));
    if (answer.type === 'chat.replied') {
      frame = sseFrame(JSON.stringify(doneFrameBody(answer)), 'done');
    } else {
      const error = httpError(rejectionError(answer.reason), { cause: answer.error });
      request.log.debug({ code: error.code, reason: answer.error }, error.message);
      frame = sseFrame(JSON.stringify({ error: error.message, code: error.code }), 'error');
    }
  } catch (cause) {
    const error = unansweredChat(cause);
    request.log.debug({ code: error.code, reason: (cause as Error).message }, error.message);
    frame = sseFrame(JSON.stringify({ error: error.message, code: error.code }), 'error');
  }
  write(frame);
}

export const chatRoutes: FastifyPluginAsync<ChatRoutesOptions> = async (app, { system, maxMessageLength, sessionSecret, cookiePolicy }) => {
  const sessionAndReady = sessionAndReadiness(system, sessionSecret, cookiePolicy);
  // Declared up front, so that every request object keeps one shape.
  app.decorateRequest('session', '');
  // JSON only, `+json` types too, a blank body being no message (400 "No message provided"). Any other
  // type finds no parser: fastify's 415, mapped by the error handler. The state check needs none of
  // this: it runs in onRequest, before the body is read.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(/^application\/(?:[\w.-]+\+)?json(?:;|$)/, { parseAs: 'string' }, (request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    parseJson(request, text, (error, value) =>
      error ? done(httpError('MALFORMED_JSON', { args: [error.message], cause: error })) : done(null, value),
    );
  });

  app.post(
    '/api/chat',
    {
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
      onRequest: sessionAndReady,
      // `Accept: text/event-stream` streams the reply (reply.sse is set); any other Accept gets the JSON of docs/specification.md#chat.
      sse: 'dual',
    },
    async (request, reply) => {
      if (request.validationError) {
        const tooLong = request.validationError.validation.some(
          (problem: { keyword: string; instancePath: string }) => problem.keyword === 'maxLength' && problem.instancePath === '/message',
        );
        throw tooLong ? httpError('MESSAGE_TOO_LONG', { args: [maxMessageLength] }) : httpError('NO_MESSAGE');
      }
      const { message } = request.body as { message: string };
      if (reply.sse) return streamChat(system, request, reply, message);
      let answer: ChatReplied | ChatRejected;
      try {
        answer = await system.chat(message, request.session);
      } catch (cause) {
        throw unansweredChat(cause);
      }
      // The system's own words (a provider's detail among them) go to the log, not to the visitor.
      if (answer.type === 'chat.rejected') throw httpError(rejectionError(answer.reason), { cause: answer.error });
      return reply.send(chatBody(answer));
    },
  );

  // Stops this visitor's streamed replies in flight: each ends with `event: error` at once, nothing commits.
  app.post('/api/chat/stop', { onRequest: sessionAndReady }, async (request, reply) => {
    let stopped: number;
    try {
      stopped = await system.stop(request.session);
    } catch (cause) {
      throw unreachableSystem(cause);
    }
    return reply.send({ stopped: stopped > 0 });
  });
};
