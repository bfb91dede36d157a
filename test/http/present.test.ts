import t from 'tap';
import { availabilityBody, isInitializedBody, roundSentiment, statusOf } from '../../src/http/present.js';

t.test('phases become the status strings of docs/specification.md#status-strings', (t) => {
  t.same((['ready', 'initializing', 'keyMissing', 'failed'] as const).map(statusOf), ['ready', 'initializing', 'missing_llm_key', 'error']);
  t.equal(isInitializedBody('keyMissing').status, 'missing_api_key', 'the specification says missing_api_key on this endpoint');
  t.same(availabilityBody('ready'), { available: true, is_initialized: true, status: 'ready' });
  t.end();
});

t.test('sentiment scores are rounded to 2 decimals, the label kept', (t) => {
  t.same(roundSentiment({ sentiment: 'negative', positive: 0.333333, negative: 0.666666 }), {
    sentiment: 'negative',
    positive: 0.33,
    negative: 0.67,
  });
  t.end();
});
