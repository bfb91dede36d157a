// One fresh process loading the appraisal's weights and printing how long it took, in ms: `product`
// loads them as the service does; `baseline` parses the same file as a user would load a JSON
// model (readFile, JSON.parse), and nothing more. Only the load is timed, not the modules' import.
import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { loadShippedModel } from 'emotion-hub';

// From dist-bench/bench/lib/: the file the package ships.
const MODEL = new URL('../../../models/appraisal.json', import.meta.url);

const started = performance.now();
if (process.argv[2] === 'product') await loadShippedModel();
else JSON.parse(await readFile(MODEL, 'utf8'));
process.stdout.write(`${performance.now() - started}\n`);
