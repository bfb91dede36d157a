import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { HistoryImported, HistoryReported } from '../../bus/events.js';
import { roundAppraisal } from '../../emotions/model.js';
import { ImportFileError } from '../../history-files/imported-message.js';
import type { Clock } from '../../runtime/clock.js';
import type { CookiePolicy } from '../cookie-attributes.js';
import { httpError } from '../errors.js';
import { visitorSession } from '../session.js';
import type { SystemClient } from '../system-client.js';
import type { TurnLog } from '../../turns/turn-log.js';
import type { VisitorFeed } from '../visitor-feed.js';

export interface HistoryTransferRoutesOptions {
  readonly system: SystemClient;
  readonly sessionSecret: string;
  readonly cookiePolicy?: CookiePolicy;
  /** Tells the visitor's other tabs that the conversation changed. */
  readonly feed: VisitorFeed;
  /** The visitor's streamed replies (on every replica): an import waits for them to end. */
  readonly turns: TurnLog;
  readonly clock: Clock;
  /** A visitor's message at most this many characters, in an import as in a chat. */
  readonly maxMessageLength: number;
  /** The largest file an import takes, in bytes: the conversations' own bound (`MAX_SESSION_BYTES`). */
  readonly maxImportBytes: number;
}

// The file formats validate with typebox: loaded at the first export or import, never before the
// server listens (what `hub serve` loads first holds no typebox: test/package/subpath-exports).
type ReadImport = typeof import('../../history-files/read-import.js')['readImport'];
type ExportDocument = typeof import('../../history-files/emotion-hub-format.js')['exportDocument'];
let formats: Promise<{ readImport: ReadImport; exportDocument: ExportDocument }> | undefined;
const historyFormats = () =>
  (formats ??= Promise.all([import('../../history-files/read-import.js'), import('../../history-files/emotion-hub-format.js')]).then(
    ([reader, writer]) => ({ readImport: reader.readImport, exportDocument: writer.exportDocument }),
  ));

interface ImportQuery {
  /** Which conversation of a file of several, from 0 (digits: the app does not coerce query strings). */
  readonly index?: string;
  readonly replace?: '1' | 'true' | '0' | 'false';
}

/**
 * `GET /api/history/export`: the visitor's conversation as a download in emotion-hub's versioned
 * format; `POST /api/history/import`: a file in that format, ChatGPT's or Open WebUI's, appended to
 * the conversation or (`?replace=1`) in its place. The files are read by src/history-files/; the
 * system remembers the messages; the mood is never asked.
 */
export const historyTransferRoutes: FastifyPluginAsync<HistoryTransferRoutesOptions> = async (
  app,
  { system, sessionSecret, cookiePolicy, feed, turns, clock, maxMessageLength, maxImportBytes },
) => {
  const historyOf = async (session: string): Promise<HistoryReported> => {
    const report = await system.history(session, false).catch((cause: unknown) => {
      throw httpError('HISTORY_UNAVAILABLE', { cause });
    });
    if (report.error !== undefined) throw httpError('HISTORY_UNAVAILABLE', { cause: report.error });
    return report;
  };

  app.get('/api/history/export', async (request, reply) => {
    const report = await historyOf(visitorSession(request, reply, sessionSecret, cookiePolicy));
    const messages = report.messages.map((message) =>
      message.appraisal ? { ...message, appraisal: roundAppraisal(message.appraisal) } : message,
    );
    const now = clock.now().toISOString();
    const { exportDocument } = await historyFormats();
    return reply
      .header('content-disposition', `attachment; filename="emotion-hub-conversation-${now.slice(0, 10)}.json"`)
      .send(exportDocument(messages, now));
  });

  app.post(
    '/api/history/import',
    {
      bodyLimit: maxImportBytes,
      schema: {
        querystring: {
          type: 'object',
          properties: {
            index: { type: 'string', pattern: '^[0-9]{1,6}$' },
            replace: { type: 'string', enum: ['1', 'true', '0', 'false'] },
          },
        },
      },
    },
    async (request: FastifyRequest<{ Querystring: ImportQuery }>, reply) => {
      const session = visitorSession(request, reply, sessionSecret, cookiePolicy);
      const replace = request.query.replace === '1' || request.query.replace === 'true';
      const { readImport } = await historyFormats();
      let read: ReturnType<ReadImport>;
      try {
        read = readImport(request.body, {
          index: Number(request.query.index ?? 0),
          now: clock.now().toISOString(),
          bounds: { maxMessageLength },
        });
      } catch (error) {
        if (error instanceof ImportFileError) throw httpError('IMPORT_INVALID', { args: [error.message], cause: error });
        throw error;
      }
      if ((await turns.running(session)).length > 0) throw httpError('IMPORT_DURING_REPLY');
      let imported: HistoryImported;
      try {
        imported = await system.importHistory(session, read.messages, replace);
      } catch (cause) {
        throw httpError('IMPORT_FAILED', { cause });
      }
      if (imported.error !== undefined) throw httpError('IMPORT_FAILED', { cause: imported.error });
      feed.tell(session, { event: 'imported', data: {} });
      const kept = (await historyOf(session)).messages.length;
      return reply.send({
        format: read.format,
        exchanges: imported.exchanges,
        skipped: imported.skipped,
        replaced: replace,
        messages: kept,
      });
    },
  );
};
