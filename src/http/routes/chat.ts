import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { BusTimeoutError } from '../../bus/errors.js';
import { phaseError, rejectionError } from '../../errors/phase-errors.js';
import { httpError, type HttpError } from '../errors.js';
import { chatBody } from '../present.js';
import { chatResponse } from '../response-schemas.js';
import type { CookiePolicy } from '../cookie-attributes.js';
import { visitorSession } from '../session.js';
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

export const chatRoutes: FastifyPluginAsync<ChatRoutesOptions> = async (app, { system, maxMessageLength, cookiePolicy }) => {
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
      // Before the body is read: a system that cannot chat answers 503 whatever the body (docs/specification.md#chat).
      // A callback hook with one then(): an async hook awaiting an async check cost several ticks per chat.
      onRequest: (request: FastifyRequest, reply: FastifyReply, done: (error?: HttpError) => void) => {
        // The cookie goes out with every answer, a 503 too: the visitor keeps one session from the first request.
        request.session = visitorSession(request, reply, cookiePolicy);
        system.status().then(
          (status) => done(readinessError(status)),
          (cause: unknown) => done(unreachableSystem(cause)),
        );
      },
    },
    async (request, reply) => {
      if (request.validationError) {
        const tooLong = request.validationError.validation.some(
          (problem: { keyword: string; instancePath: string }) => problem.keyword === 'maxLength' && problem.instancePath === '/message',
        );
        throw tooLong ? httpError('MESSAGE_TOO_LONG', { args: [maxMessageLength] }) : httpError('NO_MESSAGE');
      }
      let answer: ChatReplied | ChatRejected;
      try {
        answer = await system.chat((request.body as { message: string }).message, request.session);
      } catch (cause) {
        throw httpError(cause instanceof BusTimeoutError ? 'CHAT_TIMEOUT' : 'CHAT_UNAVAILABLE', { cause });
      }
      // The system's own words (a provider's detail among them) go to the log, not to the visitor.
      if (answer.type === 'chat.rejected') throw httpError(rejectionError(answer.reason), { cause: answer.error });
      return reply.send(chatBody(answer));
    },
  );
};
