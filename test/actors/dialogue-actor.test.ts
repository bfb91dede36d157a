import t from 'tap';
import { systemPrompt } from '../../src/providers/reply-writer.js';

t.test('the system prompt carries the current emotions, rounded', (t) => {
  const prompt = systemPrompt({ joy: 0.123, sadness: 0.5, anger: 0, fear: 0.999, curiosity: 1 });
  t.match(prompt, 'joy 0.12, sadness 0.50, anger 0.00, fear 1.00, curiosity 1.00');
  t.match(prompt, /plain text/);
  t.end();
});
