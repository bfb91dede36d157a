import t from 'tap';
import { ERRORS } from '../../src/errors/catalogue.js';
import { phaseError, phaseRejection, REJECTION_ERRORS } from '../../src/errors/phase-errors.js';

t.test('one error per phase but ready, each a 503', (t) => {
  t.equal(phaseError('ready'), undefined);
  t.equal(phaseError('initializing'), 'NOT_INITIALIZED');
  t.equal(phaseError('keyMissing'), 'MISSING_LLM_KEY');
  t.equal(phaseError('failed'), 'SYSTEM_FAILED');
  for (const phase of ['initializing', 'keyMissing', 'failed'] as const) t.equal(ERRORS[phaseError(phase)!].statusCode, 503, phase);
  t.end();
});

t.test("a phase's rejection on the bus reads back as the same error, in the same words", (t) => {
  for (const phase of ['initializing', 'keyMissing'] as const) {
    const rejection = phaseRejection(phase);
    t.equal(REJECTION_ERRORS[rejection.reason], phaseError(phase), phase);
    t.equal(rejection.error, ERRORS[phaseError(phase)!].message, phase);
  }
  t.same(phaseRejection('failed'), { reason: 'system_failed', error: ERRORS.SYSTEM_FAILED.message });
  t.equal(ERRORS[REJECTION_ERRORS.unavailable].statusCode, 503);
  t.end();
});
