import t from 'tap';
import { ConversationMemory, DEFAULT_MEMORY_EXCHANGES } from '../../src/actors/memory-store.js';
import { systemPrompt } from '../../src/actors/dialogue-actor.js';

t.test('the conversation memory keeps the last exchanges only, oldest forgotten first', (t) => {
  const memory = new ConversationMemory(2);
  memory.remember('one', 'reply one');
  memory.remember('two', 'reply two');
  memory.remember('three', 'reply three');
  t.same(memory.history(), [
    { role: 'user', content: 'two' },
    { role: 'assistant', content: 'reply two' },
    { role: 'user', content: 'three' },
    { role: 'assistant', content: 'reply three' },
  ]);
  t.equal(new ConversationMemory().maxExchanges, DEFAULT_MEMORY_EXCHANGES);
  t.end();
});

t.test('the system prompt carries the current emotions, rounded', (t) => {
  const prompt = systemPrompt({ joy: 0.123, sadness: 0.5, anger: 0, fear: 0.999, curiosity: 1 });
  t.match(prompt, 'joy 0.12, sadness 0.50, anger 0.00, fear 1.00, curiosity 1.00');
  t.match(prompt, /plain text/);
  t.end();
});
