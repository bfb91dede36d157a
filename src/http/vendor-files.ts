import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The page's files that come from installed packages, by their path under `/assets/` (no CDN), served
 * from memory like the page's own assets: markdown-it's self-contained ES module browser build renders
 * the replies' Markdown; mitt's ES module build (what `import` resolves to) is the one emitter the
 * page's parts talk through.
 */
export function vendorFiles(): Record<string, string> {
  const markdownIt = dirname(createRequire(import.meta.url).resolve('markdown-it/package.json'));
  return {
    'vendor/markdown-it.js': join(markdownIt, 'dist', 'browser', 'markdown-it.esm.min.mjs'),
    'vendor/mitt.js': fileURLToPath(import.meta.resolve('mitt')),
  };
}
