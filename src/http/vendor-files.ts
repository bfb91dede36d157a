import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The page's files that come from installed packages, by their path under `/assets/`: markdown-it's
 * self-contained ES module browser build renders the replies' Markdown (no CDN). They are served
 * from memory like the page's own assets.
 */
export function vendorFiles(): Record<string, string> {
  const markdownIt = dirname(createRequire(import.meta.url).resolve('markdown-it/package.json'));
  return { 'vendor/markdown-it.js': join(markdownIt, 'dist', 'browser', 'markdown-it.esm.min.mjs') };
}
