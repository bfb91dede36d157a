import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { escapeHtml } from '../runtime/html.js';

/** The page templates and their assets, at the package root (listed in package.json "files"). */
export const PUBLIC_DIR = fileURLToPath(new URL('../../public/', import.meta.url));

export type PageName = 'index' | 'error' | 'not-found';

export interface PageRenderer {
  /** The page filled with the renderer's values and `values` (this request's: they win). */
  render(page: PageName, values?: Readonly<Record<string, string | number>>): Promise<string>;
}

/** A `{{name}}` the template asks for and no value fills. */
export class TemplateError extends Error {
  override readonly name = 'TemplateError';
}

/** Fills every `{{name}}` with its HTML-escaped value; a name without a value is an error, never left in the page. */
export function fillTemplate(template: string, values: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{\{\s*([A-Za-z]\w*)\s*\}\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new TemplateError(`the template asks for {{${name}}}, which has no value`);
    return escapeHtml(String(value));
  });
}

export interface PageRendererOptions {
  /** Folder holding `<page>.html`. */
  readonly root?: string;
  readonly values: Readonly<Record<string, string | number>>;
}

/** Reads `<root>/<page>.html` once, then fills it on every render. */
export function createPageRenderer(options: PageRendererOptions): PageRenderer {
  const root = options.root ?? PUBLIC_DIR;
  const templates = new Map<PageName, Promise<string>>();
  return {
    async render(page, values) {
      let template = templates.get(page);
      if (!template) {
        template = readFile(join(root, `${page}.html`), 'utf8');
        templates.set(page, template);
        // A failed read is not cached: the next request tries again.
        template.catch(() => templates.delete(page));
      }
      return fillTemplate(await template, values === undefined ? options.values : { ...options.values, ...values });
    },
  };
}
