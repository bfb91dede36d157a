#!/usr/bin/env node
// The `execute` entry alone, not the whole of @oclif/core: `hub` starts faster.
import { execute } from '@oclif/core/execute';

await execute({ dir: import.meta.url });
