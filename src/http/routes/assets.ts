import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { extname, join, sep } from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import { httpError } from '../errors.js';

/** One file of the page, held in memory with what its answer needs. */
interface Asset {
  readonly body: Buffer;
  readonly type: string;
  readonly etag: string;
}

const TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
};

async function loadAsset(file: string, path: string): Promise<Asset> {
  const body = await readFile(file);
  const type = TYPES[extname(path)] ?? 'application/octet-stream';
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  return { body, type, etag };
}

/** Every file under `dir`, by its path relative to it with `/` separators, and each of `files` under its path. */
async function loadAssets(dir: string, files: Readonly<Record<string, string>>): Promise<Map<string, Asset>> {
  const assets = new Map<string, Asset>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    const path = file
      .slice(dir.length + 1)
      .split(sep)
      .join('/');
    assets.set(path, await loadAsset(file, path));
  }
  for (const [path, file] of Object.entries(files)) assets.set(path, await loadAsset(file, path));
  return assets;
}

export interface AssetRoutesOptions {
  readonly dir: string;
  /** Files from elsewhere (an installed package's browser build), by their path under `/assets/`. */
  readonly files?: Readonly<Record<string, string>>;
}

/**
 * The page's few assets, read once at start and answered from memory under `/assets/`. A file
 * opened per request let connections that pipeline requests without reading the answers hold
 * thousands of files open at once; an answer from memory is written at once, so such a connection
 * fills its socket and Node stops reading its requests.
 */
export const assetRoutes: FastifyPluginAsync<AssetRoutesOptions> = async (app, { dir, files = {} }) => {
  const assets = await loadAssets(dir, files);
  app.get('/assets/*', async (request, reply) => {
    const path = (request.params as { '*': string })['*'];
    const asset = assets.get(path);
    if (asset === undefined) throw httpError('NOT_FOUND', { args: [request.method, `/assets/${path}`] });
    reply.header('etag', asset.etag).header('cache-control', 'public, max-age=0');
    if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
    return reply.type(asset.type).send(asset.body);
  });
};
