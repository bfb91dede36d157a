import { existsSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';

/**
 * The repository's folder (ends with a separator): the nearest one above with a package-lock.json, as
 * this runs from its source, compiled into dist-test/ (which links package.json, not the lock) and
 * compiled into dist-bench/.
 */
export const ROOT = packageRoot(import.meta.dirname);

function packageRoot(from: string): string {
  return existsSync(join(from, 'package-lock.json')) || dirname(from) === from ? from + sep : packageRoot(dirname(from));
}
