import { Errors } from '@oclif/core';
import t from 'tap';
import { CliError, describeFailure, ExitCode } from '../../src/cli/exit-codes.js';
import { HubApiError, HubConfigError, HubConnectionError, WebhookInputError } from '../../src/hub/errors.js';

t.test('each kind of failure has its own status', (t) => {
  const api = new HubApiError({
    status: 404,
    serverMessage: 'Webhook not found',
    requestId: 'r1',
    method: 'GET',
    url: 'https://huggingface.co/api/settings/webhooks/x',
  });
  t.same(describeFailure(api), {
    exitCode: ExitCode.hub,
    message: api.message,
    json: { message: api.message, exitCode: 4, status: 404, serverMessage: 'Webhook not found', requestId: 'r1' },
  });
  t.equal(describeFailure(new WebhookInputError('bad')).exitCode, ExitCode.usage);
  t.equal(describeFailure(new HubConfigError('no token')).exitCode, ExitCode.config);
  t.equal(describeFailure(new HubConnectionError('refused')).exitCode, ExitCode.unreachable);
  t.equal(describeFailure(new CliError('declined', ExitCode.aborted)).exitCode, 1);
  t.equal(describeFailure(new Errors.CLIError('Missing 1 required arg')).exitCode, 2, "oclif's usage errors keep their status");
  t.equal(describeFailure(new Error('bug')).exitCode, 1);
  t.same(describeFailure('thrown string'), { exitCode: 1, message: 'thrown string', json: { message: 'thrown string', exitCode: 1 } });
  t.end();
});

t.test('the statuses are distinct', (t) => {
  const codes = Object.values(ExitCode);
  t.equal(new Set(codes).size, codes.length);
  t.end();
});
