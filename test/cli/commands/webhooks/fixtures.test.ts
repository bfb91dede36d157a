import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import WebhooksFixtures from '../../../../src/cli/commands/webhooks/fixtures.js';
import { scrubPayload } from '../../../../src/webhooks/fixtures/scrub.js';
import type { JournalEntry } from '../../../../src/webhooks/journal/entry.js';
import { ROOT, requireBuilt } from '../../../support/built-cli.js';
import { runWebhooksCommand } from '../../../support/run-webhooks-command.js';
import { fixture } from '../../../webhooks/helpers.js';
import { testDir } from '../../../support/test-dir.js';
import { untraced } from '../../../../testkit/untraced.js';

const minutesAgo = (minutes: number): string => new Date(Date.now() - minutes * 60_000).toISOString();
const entry = (body: unknown, minutes: number, status = 200): JournalEntry => ({
  webhookId: `wh-${minutes}`,
  route: 'listen',
  receivedAt: minutesAgo(minutes),
  headers: { 'content-type': 'application/json' },
  body,
  status,
  ms: 1,
});

/** A journal of six deliveries of four kinds (one old), one that is no payload, and personal data to scrub. */
function journalFile(dir: string): string {
  const olderContent = fixture('repo-content-update');
  const newerContent = fixture('repo-content-update');
  (newerContent.repo as unknown as Record<string, unknown>).maintainer = 'jane.doe@corp.example.org';
  const comment = fixture('comment-created');
  comment.comment!.content = 'Mail me at jane.doe@corp.example.org, token hf_abcdefghijklmnopqrstu0123';
  const created = fixture('repo-created');
  (created as unknown as Record<string, unknown>).extra = { apiKey: 'sk-live-51Hx', notes: ['Bearer abcdefgh12345678'] };
  const path = join(dir, 'deliveries.jsonl');
  writeFileSync(
    path,
    [
      entry(olderContent, 50),
      entry(newerContent, 10, 500),
      entry(comment, 20),
      entry(created, 30),
      entry(fixture('repo-config-update'), 600),
      entry(null, 5, 404),
    ]
      .map((line) => JSON.stringify(line))
      .join('\n'),
  );
  return path;
}

t.test('scrubbing: credential-like fields, tokens and e-mail addresses; the rest as it came', (t) => {
  t.same(
    scrubPayload({
      a: { secret: 'x', Authorization: 'Bearer y', list: [{ token: 'z' }], n: 3, ok: null },
      text: 'from bob@example.co.uk with hf_AbCdEfGhIjKlMnOp and api_org_QWERTYUIOPASDF; Bearer abc.def-ghi_jkl',
      plain: 'gpt2',
    }),
    {
      a: { secret: 'REDACTED', Authorization: 'REDACTED', list: [{ token: 'REDACTED' }], n: 3, ok: null },
      text: 'from user@example.com with hf_REDACTED and api_org_REDACTED; Bearer REDACTED',
      plain: 'gpt2',
    },
  );
  t.end();
});

t.test('fixtures: one per kind, scrubbed; the generated test passes against a receiver and fails against one answering 500', async (t) => {
  requireBuilt();
  const dir = testDir(t, {});
  const journal = journalFile(dir);
  const out = join(dir, 'project', 'fixtures');
  const written = await runWebhooksCommand(WebhooksFixtures, ['--journal', journal, '--out', out], { env: {} });
  t.equal(written.exitCode, 0, written.stderr);
  t.same(readdirSync(out).sort(), [
    'discussion.comment_create_dataset.json',
    'repo.config_update_model.json',
    'repo.content_update_space.json',
    'repo_create_model.json',
    'webhooks-fixtures.test.mjs',
  ]);
  t.match(written.stdout, /Wrote 4 fixtures and webhooks-fixtures\.test\.mjs to /);
  const all = readdirSync(out)
    .map((file) => readFileSync(join(out, file), 'utf8'))
    .join('\n');
  for (const personal of ['jane.doe', 'hf_abcdefghijklmnopqrstu0123', 'sk-live-51Hx', 'abcdefgh12345678'])
    t.notMatch(all, personal, `no ${personal}`);
  const content = JSON.parse(readFileSync(join(out, 'repo.content_update_space.json'), 'utf8'));
  t.equal(content.repo.maintainer, 'user@example.com', 'the newest of its kind, scrubbed');
  t.same(content.updatedRefs, fixture('repo-content-update').updatedRefs, 'the rest as it came');

  const scoped = await runWebhooksCommand(
    WebhooksFixtures,
    ['--journal', journal, '--out', join(dir, 'scoped'), '--scope', 'discussion.comment', '--since', '1h'],
    { env: {} },
  );
  t.equal(scoped.exitCode, 0, scoped.stderr);
  t.same(readdirSync(join(dir, 'scoped')).sort(), ['discussion.comment_create_dataset.json', 'webhooks-fixtures.test.mjs']);
  const recent = await runWebhooksCommand(WebhooksFixtures, ['--journal', journal, '--out', join(dir, 'recent'), '--since', '1h'], {
    env: {},
  });
  t.notOk(readdirSync(join(dir, 'recent')).includes('repo.config_update_model.json'), '--since leaves the old kind out');
  t.equal(recent.exitCode, 0);
  const none = await runWebhooksCommand(
    WebhooksFixtures,
    ['--journal', journal, '--out', join(dir, 'none'), '--scope', 'repo.config', '--since', '1h'],
    {
      env: {},
    },
  );
  t.equal(none.exitCode, 2, 'nothing to write is a usage error');

  // A fresh project folder beside the package: the package installed by a link, the user's app, node --test.
  const project = join(dir, 'project');
  mkdirSync(join(project, 'node_modules'), { recursive: true });
  symlinkSync(ROOT, join(project, 'node_modules', 'emotion-hub'), 'dir');
  const app = (handler: string) => `import { WebhooksServer, WebhookReply } from 'emotion-hub/webhooks';
const server = new WebhooksServer({ logger: false, print: () => {}, env: { ...process.env, HF_HUB_DISABLE_EXPERIMENTAL_WARNING: '1' } });
server.addWebhook(async function on_event(payload) { ${handler} });
export default server;
`;
  writeFileSync(join(project, 'app.mjs'), app('return { seen: payload.event.scope };'));
  writeFileSync(join(project, 'broken.mjs'), app("return new WebhookReply(500, JSON.stringify({ error: 'broken' }));"));
  const nodeTest = (appFile: string) =>
    new Promise<{ code: number; output: string }>((resolve) =>
      execFile(
        // The TAP reporter on every Node line: from Node 24 the default is the spec reporter, even into a pipe.
        ...untraced(process.execPath, ['--test', '--test-reporter=tap', join('fixtures', 'webhooks-fixtures.test.mjs')]),
        { cwd: project, env: { PATH: process.env.PATH, WEBHOOKS_APP: appFile, WEBHOOK_SECRET: 'fixture-secret' } },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr }),
      ),
    );
  const passing = await nodeTest('./app.mjs');
  t.equal(passing.code, 0, passing.output);
  t.match(passing.output, /# pass 5/, 'the four fixtures and the count');
  const failing = await nodeTest('./broken.mjs');
  t.equal(failing.code, 1, 'a receiver answering 500 fails the generated test');
  t.match(failing.output, /HTTP 500/);
  t.match(failing.output, /# fail 4/);
});
