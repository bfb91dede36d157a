import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { securityHeaders } from '../../http/security-headers.js';
import { sseFrame } from '../../http/sse-frame.js';
import { type DeliveryIndex, parseFilter } from '../../webhooks/inspector/delivery-index.js';
import { jsonDiff } from '../../webhooks/inspector/json-diff.js';
import { redactHeaders, redactSecrets } from '../../webhooks/inspector/redact.js';
import type { ReplayRecord } from '../../webhooks/recovery/replay-record.js';
import { presentedToken, TOKEN_COOKIE, tokenChecker } from './access-token.js';
import { urlWithoutQuery } from '../../runtime/url-credentials.js';

export interface InspectorAppOptions {
  readonly index: DeliveryIndex;
  readonly token: string;
  /** The page's folder (public/inspect). */
  readonly pageDir: string;
  /** Sends a delivery again and records it; `to` undefined means the forward target. */
  readonly replay: (id: string, to: URL | undefined) => Promise<ReplayRecord>;
  /** Values that must never leave the inspector (the secret replays are sent with). */
  readonly secrets: readonly string[];
}

const PAGE_FILES: Readonly<Record<string, string>> = {
  'inspect.js': 'text/javascript; charset=utf-8',
  'inspect.css': 'text/css; charset=utf-8',
};

const UNAUTHORIZED = { error: 'This inspector needs the token of the URL `hub webhooks inspect` printed.' };

/**
 * The inspector's HTTP side: the page, its JSON API and its live feed, all behind the printed token.
 * Every JSON answer goes out through `redactSecrets`, so no secret byte leaves it.
 */
export async function buildInspectorApp(options: InspectorAppOptions): Promise<{
  app: FastifyInstance;
  broadcast(event: 'delivery' | 'replay', data: unknown): void;
}> {
  const { index, secrets } = options;
  const valid = tokenChecker(options.token);
  const headers = securityHeaders();
  const page = await readFile(`${options.pageDir}/index.html`);
  const assets = new Map(
    await Promise.all(Object.keys(PAGE_FILES).map(async (name) => [name, await readFile(`${options.pageDir}/${name}`)] as const)),
  );
  const listeners = new Set<ServerResponse>();
  const json = (reply: FastifyReply, value: unknown, status = 200): FastifyReply =>
    reply
      .code(status)
      .type('application/json; charset=utf-8')
      .send(redactSecrets(JSON.stringify(value), secrets));

  const app = Fastify({ logger: false });
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers({ ...headers, 'cache-control': 'no-store' });
    if (!valid(presentedToken(request.query, request.headers.cookie, request.headers.authorization))) {
      void json(reply, UNAUTHORIZED, 401);
      return;
    }
    done();
  });

  app.get('/', async (request, reply) => {
    if ((request.query as { token?: string }).token !== undefined) {
      // The token goes into a cookie this page alone sends back, and out of the address bar (and history).
      reply.header('set-cookie', `${TOKEN_COOKIE}=${encodeURIComponent(options.token)}; HttpOnly; SameSite=Strict; Path=/`);
      return reply.redirect('/', 303);
    }
    return reply.type('text/html; charset=utf-8').send(page);
  });
  app.get('/assets/:name', async (request, reply) => {
    const { name } = request.params as { name: string };
    const body = assets.get(name);
    if (body === undefined) return json(reply, { error: `No asset ${name}.` }, 404);
    return reply.type(PAGE_FILES[name]!).send(body);
  });

  app.get('/api/deliveries', async (request, reply) => {
    const started = performance.now();
    const filter = parseFilter(request.query as Record<string, string>);
    const { matched, deliveries } = index.filter(filter);
    return json(reply, { total: index.size, matched, deliveries, tookMs: Math.round((performance.now() - started) * 10) / 10 });
  });
  app.get('/api/deliveries/:id', async (request, reply) => {
    const found = index.get((request.params as { id: string }).id);
    if (found === undefined) return json(reply, { error: 'No such delivery in the journal.' }, 404);
    const { entry, summary, replays } = found;
    return json(reply, {
      summary,
      headers: redactHeaders(entry.headers),
      body: entry.body,
      ...(entry.rawBody === undefined ? {} : { rawBody: entry.rawBody }),
      answer: entry.answer ?? '',
      // Where a replay goes by default, shown as every target is: no query, where a token may ride.
      target: entry.target === undefined ? null : urlWithoutQuery(entry.target),
      replays,
    });
  });
  app.get('/api/deliveries/:id/diff', async (request, reply) => {
    const found = index.get((request.params as { id: string }).id);
    const other = index.get(String((request.query as { with?: string }).with ?? ''));
    if (found === undefined || other === undefined) return json(reply, { error: 'No such delivery in the journal.' }, 404);
    return json(reply, { from: other.summary, to: found.summary, changes: jsonDiff(other.entry.body, found.entry.body) });
  });
  app.post('/api/deliveries/:id/replay', async (request, reply) => {
    const { id } = request.params as { id: string };
    const raw = (request.body as { to?: unknown } | undefined)?.to;
    let to: URL | undefined;
    if (typeof raw === 'string' && raw.trim() !== '') {
      try {
        to = new URL(raw.trim());
      } catch {
        return json(reply, { error: `"${raw}" is not a URL.` }, 400);
      }
      if (to.protocol !== 'http:' && to.protocol !== 'https:') return json(reply, { error: 'Replay to an http(s) URL.' }, 400);
    }
    const found = index.get(id);
    if (found === undefined) return json(reply, { error: 'No such delivery in the journal.' }, 404);
    if (to === undefined && found.entry.target === undefined)
      return json(reply, { error: 'This delivery has no forward target in the journal: give the URL to replay it to.' }, 400);
    return json(reply, await options.replay(id, to));
  });

  app.get('/api/events', (request, reply) => {
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, { ...headers, 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
    raw.write(': live\n\n');
    listeners.add(raw);
    request.raw.on('close', () => listeners.delete(raw));
  });
  const heartbeat = setInterval(() => {
    for (const listener of listeners) listener.write(': heartbeat\n\n');
  }, 15_000);
  heartbeat.unref();
  // Before the server stops: it would wait for the open feeds, which never end by themselves.
  app.addHook('preClose', async () => {
    clearInterval(heartbeat);
    for (const listener of listeners) listener.end();
  });

  return {
    app,
    broadcast(event, data) {
      if (listeners.size === 0) return;
      const frame = sseFrame(redactSecrets(JSON.stringify(data), secrets), event);
      for (const listener of listeners) listener.write(frame);
    },
  };
}
