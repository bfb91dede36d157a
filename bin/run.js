#!/usr/bin/env node
import { serveWithoutOclif } from '../dist/cli/start/serve-fast-path.js';

if (!(await serveWithoutOclif(process.argv.slice(2)))) {
  // The `execute` entry alone, not the whole of @oclif/core: `hub` starts faster.
  const { execute } = await import('@oclif/core/execute');
  await execute({ dir: import.meta.url });
}
