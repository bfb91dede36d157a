import type { FastifyPluginAsync } from 'fastify';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { httpError } from '../errors.js';

/** The page's Markdown renderer: markdown-it's self-contained ES module build, from the installed package (no CDN). */
export const MARKDOWN_IT_PATH = '/assets/vendor/markdown-it.js';

function markdownItBuild(): string {
  const packageJson = createRequire(import.meta.url).resolve('markdown-it/package.json');
  return join(dirname(packageJson), 'dist', 'browser', 'markdown-it.esm.min.mjs');
}

export const vendorRoutes: FastifyPluginAsync = async (app) => {
  // Read on first use and kept: the page asks for it once per visit, and it never changes while running.
  let source: Promise<string> | undefined;
  app.get(MARKDOWN_IT_PATH, async (_request, reply) => {
    source ??= readFile(markdownItBuild(), 'utf8');
    const text = await source.catch((cause: unknown) => {
      source = undefined;
      throw httpError('PAGE_FAILED', 'The Markdown renderer cannot be read', cause);
    });
    return reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').send(text);
  });
};
