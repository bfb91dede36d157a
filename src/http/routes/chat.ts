import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { BusTimeoutError } from '../../bus/errors.js';
import { phaseError, REJECTION_ERRORS } from '../../errors/phase-errors.js';
import { httpError, type HttpError } from '../errors.js';
import { chatBody } from '../present.js';
import { chatResponse } from '../response-schemas.js';
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
  /** Signs and checks the session ids. */
  readonly sessionSecret: string;
}

/** The phase's 503 of seed 000, or nothing when the system is ready to chat. */
function readinessError(status: StatusReported): HttpError | undefined {
  const code = phaseError(status.phase);
  return code === undefined ? undefined : httpError(code);
}

function unreachableSystem(cause: unknown): HttpError {
  return httpError('CHAT_UNAVAILABLE', 'Chat is unavailable: the system does not answer.', cause);
}

export const chatRoutes: FastifyPluginAsyncTypebox<ChatRoutesOptions> = async (app, { system, maxMessageLength, sessionSecret }) => {
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
      error ? done(httpError('MALFORMED_JSON', `Malformed JSON in request body: ${error.message}`, error)) : done(null, value),
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
      // Before the body is read: a system that cannot chat answers 503 whatever the body (seed 000).
      // A callback hook with one then(): an async hook awaiting an async check cost several ticks per chat.
      onRequest: (request: FastifyRequest, reply: FastifyReply, done: (error?: HttpError) => void) => {
        // The cookie goes out with every answer, a 503 too: the visitor keeps one session from the first request.
        request.session = visitorSession(request, reply, sessionSecret);
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
        throw tooLong ? httpError('MESSAGE_TOO_LONG', `Message too long: at most ${maxMessageLength} characters`) : httpError('NO_MESSAGE');
      }
      let answer: ChatReplied | ChatRejected;
      try {
        answer = await system.chat((request.body as { message: string }).message, request.session);
      } catch (cause) {
        throw httpError(cause instanceof BusTimeoutError ? 'CHAT_TIMEOUT' : 'CHAT_UNAVAILABLE', undefined, cause);
      }
      // The system's own words (a provider's detail among them) go to the log, not to the visitor.
      if (answer.type === 'chat.rejected') throw httpError(REJECTION_ERRORS[answer.reason], undefined, answer.error);
      return reply.send(chatBody(answer));
    },
  );
};
