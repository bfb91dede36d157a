import { randomBytes } from 'node:crypto';
import { mkdir, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as Flags from '@oclif/core/flags';
import { type Fixture, fixturesOf } from '../../../webhooks/fixtures/fixture-kinds.js';
import { FIXTURE_TEST_FILE, FIXTURE_TEST_TEXT } from '../../../webhooks/fixtures/fixture-test.js';
import { CliCommand } from '../../cli-command.js';
import { parseDuration } from '../../duration.js';
import { CliError, ExitCode } from '../../exit-codes.js';
import { journalFlag, printable, readDeliveries } from '../../journal-source.js';

export default class WebhooksFixtures extends CliCommand {
  static override summary = 'Write one test fixture per kind of delivery in a journal, scrubbed, and a ready test for your receiver.';
  static override description =
    'Reads the journal and writes to --out one JSON file per distinct kind of delivery (scope, action, repository type), from the newest ' +
    'of each kind, with the values of credential-like fields, tokens and e-mail addresses replaced; and ' +
    `${FIXTURE_TEST_FILE}, a test without dependencies that launches your WebhooksServer app (WEBHOOKS_APP, default ./app.mjs) ` +
    'and posts every fixture to it, expecting 2xx: `node --test fixtures/`.';
  static override examples = [
    '<%= config.bin %> webhooks fixtures --journal deliveries.jsonl --out test/fixtures/webhooks',
    '<%= config.bin %> webhooks fixtures --journal deliveries.jsonl --out fixtures --since 7d --scope discussion.comment',
  ];
  static override flags = {
    journal: journalFlag,
    out: Flags.string({
      required: true,
      helpValue: 'DIR',
      description: 'The folder to write the fixtures and the test into (made if needed).',
    }),
    since: Flags.string({ helpValue: 'DURATION', description: 'Only deliveries received this long ago or later (30m, 2h, 7d).' }),
    scope: Flags.string({
      description: 'Only deliveries of this scope (repo, repo.content, repo.config, discussion, discussion.comment).',
    }),
  };

  async run(): Promise<{ out: string; fixtures: string[]; test: string }> {
    const { flags } = await this.parse(WebhooksFixtures);
    const since = flags.since === undefined ? undefined : new Date(Date.now() - parseDuration(flags.since, '--since')).toISOString();
    const { entries } = await readDeliveries(flags.journal);
    const fixtures = fixturesOf(since === undefined ? entries : entries.filter((entry) => entry.receivedAt >= since), flags.scope);
    if (fixtures.length === 0)
      throw new CliError(
        `No delivery with a payload in ${flags.journal}${flags.scope ? ` of scope ${flags.scope}` : ''}${flags.since ? ` in the last ${flags.since}` : ''}: no fixture to write.`,
        ExitCode.usage,
      );
    await mkdir(flags.out, { recursive: true }).catch((error: Error) => {
      throw new CliError(`Cannot make ${flags.out}: ${error.message}`, ExitCode.usage);
    });
    for (const fixture of fixtures) await writeWhole(join(flags.out, fixture.file), `${JSON.stringify(fixture.payload, null, 2)}\n`);
    await writeWhole(join(flags.out, FIXTURE_TEST_FILE), FIXTURE_TEST_TEXT);
    for (const fixture of fixtures) this.log(`${printable(fixture.file)}  ${printable(fixture.kind)}`);
    this.log(`Wrote ${fixtures.length} fixture${fixtures.length === 1 ? '' : 's'} and ${FIXTURE_TEST_FILE} to ${flags.out}.`);
    this.log(`Run: WEBHOOKS_APP=./app.mjs node --test ${join(flags.out, FIXTURE_TEST_FILE)}`);
    return { out: flags.out, fixtures: fixtures.map((fixture: Fixture) => fixture.file), test: FIXTURE_TEST_FILE };
  }
}

/** Written to a temporary file, then renamed: a file is there whole or not at all. */
async function writeWhole(path: string, text: string): Promise<void> {
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, text);
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw new CliError(`Cannot write ${path}: ${(error as Error).message}`, ExitCode.aborted);
  }
}
