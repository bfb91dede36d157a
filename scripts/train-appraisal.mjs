#!/usr/bin/env node
// `npm run train:appraisal`: trains the message appraisal on data/goemotions/ (train split), writes
// models/appraisal.json and prints the dev split's scores. Seeded: a re-run writes the same file.
import { main } from '../dist/appraisal/training/training-run.js';

await main();
