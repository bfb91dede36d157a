import t from 'tap';
import { availabilityBody, isInitializedBody, statusOf } from '../../src/http/present.js';
import { roundEmotions, roundSentiment } from '../../src/http/round.js';

t.test('phases become the seed status strings', (t) => {
  t.same(
    (['ready', 'initializing', 'keyMissing', 'failed'] as const).map(statusOf),
    ['ready', 'initializing', 'missing_llm_key', 'error'],
  );
  t.equal(isInitializedBody('keyMissing').status, 'missing_api_key', 'the seed says missing_api_key on this endpoint');
  t.same(availabilityBody('ready'), { available: true, is_initialized: true, status: 'ready' });
  t.end();
});

t.test('rounding to 2 decimals, half away from zero on exact halves of a cent', (t) => {
  t.same(roundEmotions({ joy: 0.125, sadness: 0.994, anger: 0.995, fear: 0, curiosity: 1 }), {
    joy: 0.13,
    sadness: 0.99,
    anger: 1,
    fear: 0,
    curiosity: 1,
  });
  t.same(roundSentiment({ sentiment: 'negative', positive: 0.333333, negative: 0.666666 }), {
    sentiment: 'negative',
    positive: 0.33,
    negative: 0.67,
  });
  t.end();
});
