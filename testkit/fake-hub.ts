// An in-memory stand-in for the Hub's webhook routes (docs/hub-client-and-cli.md), on 127.0.0.1, port 0.
// Used by the end-to-end CLI test and by benchmarks: it speaks the real routes, bodies and errors.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StoredWebhook {
  id: string;
  url?: string;
  job?: Record<string, unknown>;
  watched: { type: string; name: string }[];
  domains: string[];
  secret?: string;
  disabled: boolean;
}

export interface RecordedRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: unknown;
}

export interface FakeHub {
  /** Base URL to put in HF_ENDPOINT. */
  url: string;
  close(): Promise<void>;
  /** The stored webhooks by id: assert on it, or seed it. */
  webhooks: Map<string, StoredWebhook>;
  /** Every request received, in order. */
  requests: RecordedRequest[];
}

export interface FakeHubOptions {
  /** The only token accepted (default `hf_fake_token`). */
  token?: string;
}

const WATCHED_TYPES = ['dataset', 'model', 'org', 'space', 'user'];
// The hub accepts the singular; the Python client's type names the plural, so both are taken.
const DOMAINS = ['repo', 'discussion', 'discussions'];
const ID_BASE = 0x654bbbc16f2ec14d77f10000n;

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseJson(text: string): Record<string, unknown> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'Invalid JSON body');
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new HttpError(400, 'The body must be a JSON object');
  return body as Record<string, unknown>;
}

function watchedOf(value: unknown): StoredWebhook['watched'] {
  if (!Array.isArray(value) || value.length === 0) throw new HttpError(400, '"watched" must be a non-empty array');
  return value.map((item: { type?: unknown; name?: unknown }) => {
    if (typeof item?.type !== 'string' || !WATCHED_TYPES.includes(item.type))
      throw new HttpError(400, `Invalid watched type: ${String(item?.type)}`);
    if (typeof item.name !== 'string' || item.name === '') throw new HttpError(400, 'Each watched item needs a name');
    return { type: item.type, name: item.name };
  });
}

function domainsOf(value: unknown): string[] {
  if (!Array.isArray(value) || !value.every((d) => typeof d === 'string' && DOMAINS.includes(d))) {
    throw new HttpError(400, `"domains" must be a list of: ${DOMAINS.join(', ')}`);
  }
  return value as string[];
}

function stringOf(body: Record<string, unknown>, key: string): string | undefined {
  const value = body[key];
  if (value !== undefined && typeof value !== 'string') throw new HttpError(400, `"${key}" must be a string`);
  return value;
}

export async function startFakeHub(options: FakeHubOptions = {}): Promise<FakeHub> {
  const token = options.token ?? 'hf_fake_token';
  const webhooks = new Map<string, StoredWebhook>();
  const requests: RecordedRequest[] = [];
  let created = 0;
  let requestCount = 0;

  function find(id: string): StoredWebhook {
    const webhook = webhooks.get(id);
    if (!webhook) throw new HttpError(404, 'Webhook not found');
    return webhook;
  }

  function create(body: Record<string, unknown>): StoredWebhook {
    const url = stringOf(body, 'url');
    const jobSourceId = stringOf(body, 'jobSourceId');
    if ((url === undefined) === (jobSourceId === undefined)) throw new HttpError(400, 'Provide exactly one of "url" and "jobSourceId"');
    const secret = stringOf(body, 'secret');
    created += 1;
    const webhook: StoredWebhook = {
      id: (ID_BASE + BigInt(created)).toString(16),
      ...(url !== undefined
        ? { url }
        : { job: { sourceId: jobSourceId, dockerImage: 'ubuntu', command: ['bash', '-c', 'echo $WEBHOOK_PAYLOAD'], flavor: 'cpu-basic' } }),
      watched: watchedOf(body.watched),
      domains: body.domains === undefined ? ['repo', 'discussion'] : domainsOf(body.domains),
      ...(secret !== undefined && { secret }),
      disabled: false,
    };
    webhooks.set(webhook.id, webhook);
    return webhook;
  }

  function update(webhook: StoredWebhook, body: Record<string, unknown>): StoredWebhook {
    // Only the given fields change. The Python client sends `watched: []` when it means "unchanged".
    const changes: Partial<StoredWebhook> = {};
    if (Array.isArray(body.watched) && body.watched.length > 0) changes.watched = watchedOf(body.watched);
    if (body.domains !== undefined) changes.domains = domainsOf(body.domains);
    const url = stringOf(body, 'url');
    const secret = stringOf(body, 'secret');
    if (url !== undefined) changes.url = url;
    if (secret !== undefined) changes.secret = secret;
    return Object.assign(webhook, changes);
  }

  async function route(method: string, path: string, req: IncomingMessage): Promise<[number, unknown]> {
    const parts = path.split('/').slice(4).map(decodeURIComponent); // after /api/settings/webhooks
    if (!path.startsWith('/api/settings/webhooks') || (path.length > 22 && path[22] !== '/')) throw new HttpError(404, 'Not found');
    const [id, action, ...rest] = parts;
    if (rest.length > 0) throw new HttpError(404, 'Not found');
    const text = method === 'POST' ? await readBody(req) : '';
    const body = method === 'POST' && text !== '' ? parseJson(text) : {};
    requests[requests.length - 1]!.body = text === '' ? undefined : body;
    if (id === undefined || id === '') {
      if (method === 'GET') return [200, [...webhooks.values()]];
      if (method === 'POST') return [200, { webhook: create(body) }];
    } else if (action === undefined) {
      if (method === 'GET') return [200, { webhook: find(id) }];
      if (method === 'POST') return [200, { webhook: update(find(id), body) }];
      if (method === 'DELETE') {
        find(id);
        webhooks.delete(id);
        return [200, {}];
      }
    } else if ((action === 'enable' || action === 'disable') && method === 'POST') {
      const webhook = find(id);
      webhook.disabled = action === 'disable';
      return [200, { webhook }];
    }
    throw new HttpError(404, `Cannot ${method} ${path}`);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    requestCount += 1;
    const method = req.method ?? 'GET';
    const path = new URL(req.url ?? '/', 'http://fake-hub').pathname;
    requests.push({ method, path, authorization: req.headers.authorization, body: undefined });
    res.setHeader('x-request-id', `fake-req-${requestCount}`);
    res.setHeader('content-type', 'application/json');
    try {
      if (req.headers.authorization !== `Bearer ${token}`) throw new HttpError(401, 'Invalid credentials in Authorization header');
      const [status, body] = await route(method, path, req);
      res.writeHead(status).end(JSON.stringify(body));
    } catch (error) {
      const status = error instanceof HttpError ? error.status : 500;
      res.writeHead(status).end(JSON.stringify({ error: (error as Error).message }));
    }
  }

  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    webhooks,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
