import t from 'tap';
import { ERRORS } from '../../src/errors/catalogue.js';
import { phaseRejection } from '../../src/bus/phase-rejection.js';
import { PHASES, phaseError, rejectionError } from '../../src/http/phase-errors.js';

const REFUSING = ['initializing', 'keyMissing', 'failed'] as const;

t.test('one error per phase but ready, each a 503', (t) => {
  t.equal(phaseError('ready'), undefined);
  t.equal(phaseError('initializing'), 'NOT_INITIALIZED');
  t.equal(phaseError('keyMissing'), 'MISSING_LLM_KEY');
  t.equal(phaseError('failed'), 'SYSTEM_FAILED');
  for (const phase of REFUSING) t.equal(ERRORS[phaseError(phase)!].statusCode, 503, phase);
  t.end();
});

t.test("a phase's rejection on the bus reads back as the same error, in the same words", (t) => {
  for (const phase of REFUSING) {
    const rejection = phaseRejection(phase);
    t.equal(rejectionError(rejection.reason), phaseError(phase), phase);
    t.equal(rejection.error, ERRORS[phaseError(phase)!].message, phase);
  }
  t.same(phaseRejection('failed'), { reason: 'system_failed', error: ERRORS.SYSTEM_FAILED.message });
  t.equal(rejectionError('unavailable'), 'CHAT_UNAVAILABLE');
  t.equal(rejectionError('provider_timeout'), 'PROVIDER_TIMEOUT');
  t.end();
});

t.test("the chat's 503 body says the same status as the phase's row", (t) => {
  for (const phase of REFUSING) t.equal(ERRORS[phaseError(phase)!].body.status, PHASES[phase].status, phase);
  t.end();
});

t.test('the status strings of docs/specification.md#status-strings, each endpoint its own', (t) => {
  t.same(
    Object.entries(PHASES).map(([phase, row]) => [phase, row.status, row.pollStatus, row.availabilityStatus]),
    [
      ['ready', 'ready', 'ready', 'ready'],
      ['initializing', 'initializing', 'initializing', 'initializing'],
      ['keyMissing', 'missing_llm_key', 'missing_api_key', 'initializing'],
      ['failed', 'error', 'error', 'error'],
    ],
  );
  t.end();
});
