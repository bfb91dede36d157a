// The chat service as `hub serve` runs it (debug logging off), its provider the stand-in at BENCH_PROVIDER_URL.
// BENCH_DRIFT_MS makes the mood drift that often (the feed rows).
// BENCH_APPRAISAL=model reads each message with the stand-in as second reader, as APPRAISAL=model does.
// BENCH_REDIS_URL (and BENCH_REDIS_PREFIX) make it one replica on that Redis, as REDIS_URL does.
// Otherwise it keeps its state in the embedded store, as `hub serve` does; BENCH_STORE=memory keeps it in the process only.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
// The built package, as it ships, by its own name.
import { createChatSystem, createLogger, loadChatConfig, startChatService, type ChatSystem } from 'emotion-hub';
import { memoryAfterGc, reportListening } from '../lib/child.js';
import { standInBaseUrl } from '../lib/openai-stand-in.js';

const config = loadChatConfig({
  LLM_API_KEY: 'sk-bench',
  LLM_BASE_URL: standInBaseUrl(),
  // The model the stand-in offers: startup checks that the configured one is in its list.
  LLM_MODEL: 'bench-model',
  PORT: '0',
  EMOTIONS_FILE: join(mkdtempSync(join(tmpdir(), 'emotion-hub-bench-')), 'emotions.json'),
  DEBUG: '0',
  REDIS_URL: process.env.BENCH_REDIS_URL,
  REDIS_PREFIX: process.env.BENCH_REDIS_PREFIX,
  APPRAISAL: process.env.BENCH_APPRAISAL,
  DRIFT_INTERVAL_MS: process.env.BENCH_DRIFT_MS,
});
const logger = createLogger({ debug: false, destination: pino.destination('/dev/null') });
let system: ChatSystem | undefined;
const service = await startChatService({
  config,
  logger,
  inProcess: process.env.BENCH_STORE === 'memory',
  createSystem: (deps) => (system = createChatSystem(deps)),
});
const phase = await system?.settled();
if (phase !== 'ready') throw new Error(`the chat system did not get ready: ${String(phase)}`);

let writes = 0;
let chats = 0;
service.bus.on('persistence.saved').subscribe(() => (writes += 1));
service.bus.on('mood.changed').subscribe(({ change }) => change.kind === 'chat' && (chats += 1));
process.once('SIGTERM', () => void service.close().then(() => process.exit(0)));
reportListening(service.address, () => ({ ...memoryAfterGc(), writes, chats }));
