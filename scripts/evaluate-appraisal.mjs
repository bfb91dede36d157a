#!/usr/bin/env node
// `npm run evaluate:appraisal`: scores the shipped model (models/appraisal.json) on data/goemotions/
// (dev split; the test split is held out), prints the tables docs/appraisal.md shows and writes
// docs/appraisal-calibration.svg. Deterministic: a re-run writes the same chart.
import { main } from '../dist/appraisal/evaluation/evaluation-run.js';

await main();
