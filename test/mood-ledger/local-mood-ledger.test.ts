import t from 'tap';
import { LocalMoodLedger, MoodLedgerClosedError } from '../../src/mood-ledger/local-mood-ledger.js';
import type { MoodChange } from '../../src/mood-ledger/mood-ledger.js';
import { defaultState, foldMoodChange, type EmotionState } from '../../src/emotions/state.js';

const AT = '2026-11-21T10:00:00.000Z';
const chat = (correlationId: string): MoodChange => ({
  kind: 'chat',
  correlationId,
  sentiment: { sentiment: 'neutral', positive: 0, negative: 0 },
  at: AT,
});
const drift: MoodChange = { kind: 'drift', deltas: { joy: 0.01, sadness: 0, anger: 0, fear: 0, curiosity: 0 }, at: AT };

t.test('append delivers to every subscriber at once, in append order', async (t) => {
  const ledger = new LocalMoodLedger(defaultState(AT));
  const first: MoodChange[] = [];
  const second: MoodChange[] = [];
  ledger.subscribe((change) => first.push(change));
  ledger.subscribe((change) => second.push(change));
  const appended = ledger.append(chat('c1'));
  t.same(first, [chat('c1')], 'delivered before append resolves');
  await appended;
  await ledger.append(drift);
  t.same(first, [chat('c1'), drift]);
  t.same(second, first);
});

t.test('an unsubscribed subscriber hears nothing more; the same function twice is two subscriptions', async (t) => {
  const ledger = new LocalMoodLedger(defaultState(AT));
  const seen: MoodChange[] = [];
  const apply = (change: MoodChange) => seen.push(change);
  const unsubscribe = ledger.subscribe(apply);
  ledger.subscribe(apply);
  await ledger.append(drift);
  t.equal(seen.length, 2);
  unsubscribe();
  await ledger.append(drift);
  t.equal(seen.length, 3);
});

t.test('a closed ledger rejects appends, delivering nothing', async (t) => {
  const ledger = new LocalMoodLedger(defaultState(AT));
  const seen: MoodChange[] = [];
  ledger.subscribe((change) => seen.push(change));
  await ledger.close();
  await t.rejects(ledger.append(chat('late')), MoodLedgerClosedError);
  t.same(seen, []);
});

t.test('each change is folded once, here, and delivered with the state after it', async (t) => {
  const ledger = new LocalMoodLedger();
  await t.rejects(ledger.append(drift), /the state to start from/, 'nothing before the system says where it starts');
  ledger.startFrom(defaultState(AT));
  const states: EmotionState[] = [];
  ledger.subscribe((_change, state) => states.push(state));
  await ledger.append(chat('c1'));
  await ledger.append(drift);
  const afterChat = foldMoodChange(defaultState(AT), chat('c1'));
  t.same(states, [afterChat, foldMoodChange(afterChat, drift)]);
});
