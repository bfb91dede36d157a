import { readFileSync } from 'node:fs';

/**
 * A hub `repo.content` delivery grown to about `bytes` with more updated refs,
 * as a push of many branches and tags sends.
 */
export function hubPayloadOfSize(bytes: number): string {
  const fixture = new URL('../../../src/webhooks/samples/repo.content.json', import.meta.url);
  const payload = JSON.parse(readFileSync(fixture, 'utf8')) as { updatedRefs: { ref: string; oldSha: string | null; newSha: string }[] };
  for (let n = 1; JSON.stringify(payload).length < bytes; n += 1) {
    const sha = n.toString(16).padStart(40, 'a');
    payload.updatedRefs.push({ ref: `refs/tags/v1.${n}.0`, oldSha: null, newSha: sha });
  }
  return JSON.stringify(payload);
}
