import { join } from 'node:path';
import type { Test } from 'tap';
import { createChatSystem } from '../../src/system/chat-system.js';
import { loadChatConfig } from '../../src/config/chat-config.js';
import { createLogger } from '../../src/runtime/logger.js';
import { seededRandom } from '../../src/runtime/random.js';
import type { SystemServices } from '../../src/actors/system-setup.js';
import { startChatService, type ChatService, type ChatServiceOptions } from '../../src/service/chat-service.js';
import { MOCKED_BASE_URL } from '../../testkit/provider-nock.js';
import { eventually } from '../../testkit/eventually.js';
import { testDir } from './test-dir.js';

export interface Started {
  readonly service: ChatService;
  readonly dir: string;
  readonly exits: number[];
  readonly exited: Promise<number>;
  readonly logs: Array<Record<string, unknown>>;
  get(path: string): Promise<{ status: number; type: string | null; body: any }>;
  chat(body: unknown): Promise<{ status: number; body: any }>;
  /** Polls /api/is_initialized until the system has left `initializing`. */
  settled(): Promise<any>;
}

/**
 * The real composition root and actor system on 127.0.0.1, port 0, with a
 * captured log and an exit that records instead of ending the process.
 */
export async function startRealService(t: Test, env: Record<string, string>, app: ChatServiceOptions['app'] = {}): Promise<Started> {
  const dir = testDir(t);
  const logs: Array<Record<string, unknown>> = [];
  const exits: number[] = [];
  let onExit: (code: number) => void = () => undefined;
  const exited = new Promise<number>((resolve) => (onExit = resolve));
  const service = await startChatService({
    config: loadChatConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      LLM_BASE_URL: MOCKED_BASE_URL,
      LLM_TIMEOUT_MS: '1000',
      EMOTIONS_FILE: join(dir, 'emotions.json'),
      EVENT_LOG: join(dir, 'events.jsonl'),
      ...env,
    }),
    logger: createLogger({ debug: true, destination: { write: (line: string) => void logs.push(JSON.parse(line)) } }),
    createSystem: (deps: SystemServices) => createChatSystem({ ...deps, dialogueRetries: 0, inspect: () => undefined }),
    random: seededRandom(7),
    exit: (code) => {
      exits.push(code);
      onExit(code);
    },
    app,
  });
  t.teardown(() => service.close());
  const get = async (path: string) => {
    const response = await fetch(`${service.address}${path}`);
    const type = response.headers.get('content-type');
    return { status: response.status, type, body: type?.startsWith('application/json') ? await response.json() : await response.text() };
  };
  return {
    service,
    dir,
    exits,
    exited,
    logs,
    get,
    chat: async (body: unknown) => {
      const response = await fetch(`${service.address}/api/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: await response.json() };
    },
    settled: () =>
      eventually('the service to leave initializing', async () => {
        const { body } = await get('/api/is_initialized');
        return body.initializing ? undefined : body;
      }),
  };
}
