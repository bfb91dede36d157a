import t, { type Test } from 'tap';
import { launchChromium } from '../support/browser.js';
import { eventually } from '../../testkit/eventually.js';
import { harness, readyApp } from '../support/harness.js';
import { completion, modelList } from '../../testkit/provider-wire.js';
import { json, providerStandIn } from '../../testkit/provider-stand-in.js';
import { neutralReader } from '../support/appraisal-models.js';

// docs/specification.md#chat, read line by line against the real app over the real actor system.
const EMOTION_NAMES = ['joy', 'sadness', 'anger', 'fear', 'curiosity'];
const SHAPES = ['Circle', 'Triangle', 'Square'];

/** The specification's emotions object: all five numbers, within 0..1, rounded to 2 decimal places. */
function assertEmotions(t: Test, emotions: unknown, where: string): void {
  t.type(emotions, 'object', `${where}: emotions object`);
  for (const name of EMOTION_NAMES) {
    const value = (emotions as Record<string, unknown>)[name];
    t.type(value, 'number', `${where}: ${name} is a number`);
    t.ok((value as number) >= 0 && (value as number) <= 1, `${where}: ${name} within 0..1`);
    t.equal(Math.round((value as number) * 100) / 100, value, `${where}: ${name} has at most 2 decimals`);
  }
}

/** ISO 8601 as `Date#toISOString` writes it. */
function assertIso(t: Test, value: unknown, where: string): void {
  t.type(value, 'string', where);
  t.equal(new Date(value as string).toISOString(), value, `${where} is ISO 8601`);
}

t.test('every JSON endpoint of a ready service: Content-Type JSON and the specified fields with their types', async (t) => {
  const { app } = await readyApp(t);
  const json = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const response = await app.inject({ method, url, ...(payload ? { payload } : {}) });
    t.match(response.headers['content-type'], /^application\/json/, `${method} ${url} is JSON`);
    return { status: response.statusCode, body: response.json() as Record<string, any> };
  };

  const chat = await json('POST', '/api/chat', { message: 'I love this wonderful day' });
  t.equal(chat.status, 200);
  t.type(chat.body.response, 'string');
  t.equal(chat.body.response, 'I hear you.');
  t.ok(SHAPES.includes(chat.body.avatar_shape), 'avatar_shape is a specified shape');
  assertEmotions(t, chat.body.emotions, 'chat');
  t.equal(chat.body.is_initialized, true);

  const avatar = await json('GET', '/api/avatar');
  t.equal(avatar.status, 200);
  t.ok(SHAPES.includes(avatar.body.avatar_shape));
  assertEmotions(t, avatar.body.emotions, 'avatar');
  t.same(avatar.body.emotions, chat.body.emotions, 'the avatar shows the state the chat left');
  t.equal(avatar.body.sentiment.sentiment, 'positive', 'the label of the last analysed message');
  t.type(avatar.body.sentiment.positive, 'number');
  t.type(avatar.body.sentiment.negative, 'number');
  t.equal(avatar.body.is_initialized, true);
  assertIso(t, avatar.body.last_updated, 'last_updated');
  t.equal(avatar.body.status, 'ready');

  const health = await json('GET', '/health');
  t.equal(health.status, 200);
  t.equal(health.body.status, 'healthy');
  assertIso(t, health.body.timestamp, 'timestamp');

  const availability = await json('GET', '/api/availability');
  t.equal(availability.status, 200);
  t.match(availability.body, { available: true, is_initialized: true, status: 'ready' });

  const initialized = await json('GET', '/api/is_initialized');
  t.match(initialized.body, { is_initialized: true, initializing: false, missing_llm_key: false });

  const status = await json('GET', '/status');
  t.match(status.body, { is_initialized: true, initializing: false, missing_llm_key: false, avatar_shape: avatar.body.avatar_shape });
  assertEmotions(t, status.body.emotions, 'status');

  const empty = await json('POST', '/api/chat', {});
  t.equal(empty.status, 400);
  t.same(empty.body, { error: 'No message provided' });
});

t.test("the seed's numbers, wired: a message decays every emotion by 0.97, and responses round to two decimals", async (t) => {
  // Literals, not the model's own functions: a changed decay factor or rounding must fail here.
  // From the default state (0.5, 0.2, 0.1, 0.1, 0.5) a message read as wholly neutral leaves 0.97
  // of each emotion: 0.485, 0.194, 0.097, 0.097, 0.485.
  const { app } = await readyApp(t, {}, { appraisalModel: neutralReader() });
  const chat = await app.inject({ method: 'POST', url: '/api/chat', payload: { message: 'the table is brown' } });
  t.equal(chat.statusCode, 200);
  const rounded = { joy: 0.49, sadness: 0.19, anger: 0.1, fear: 0.1, curiosity: 0.49 };
  t.same(chat.json().emotions, rounded, 'rounded half up to two decimals (0.485 shows as 0.49)');
  t.same((await app.inject('/api/avatar')).json().emotions, rounded, 'the avatar shows the same');
});

t.test('/ and /error are HTML pages with 200', async (t) => {
  const { app } = await readyApp(t);
  for (const url of ['/', '/error']) {
    const response = await app.inject(url);
    t.equal(response.statusCode, 200, url);
    t.match(response.headers['content-type'], /^text\/html/, url);
  }
});

t.test('startup order: the four critical components in parallel, then the rest, then ready', async (t) => {
  // Two distinct providers, so each key has its own validation call; both are held until both arrived.
  const arrived: string[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  let release: () => void = () => undefined;
  const bothArrived = new Promise<void>((resolve) => (release = resolve));
  const provider = providerStandIn(async (request) => {
    arrived.push(request.host);
    mostInFlight = Math.max(mostInFlight, ++inFlight);
    if (arrived.length === 2) release();
    // A sequential startup would never send the second call: give up after a moment so the test fails, not hangs.
    await Promise.race([bothArrived, new Promise((resolve) => setTimeout(resolve, 300))]);
    inFlight--;
    return json(200, request.url.endsWith('/models') ? modelList() : completion('hi'));
  });
  const env = {
    LLM_API_KEY: 'sk-primary',
    LLM_BASE_URL: 'http://primary.test/v1',
    CHAT_API_KEY: 'sk-secondary',
    CHAT_BASE_URL: 'http://secondary.test/v1',
  };
  const { system, events, exits, advance } = harness(t, { system: 'real', env, fetch: provider.fetch, debug: false });
  system.start();
  await bothArrived;
  t.same(arrived.sort(), ['primary.test', 'secondary.test'], 'each key is validated');
  t.equal(mostInFlight, 2, 'both key validations are in flight at once');
  t.equal(await system.settled(), 'ready');
  t.same(exits, []);
  const order = events.map((event) =>
    event.type === 'system.component.ready' ? event.component : event.type === 'system.phase.changed' ? `phase:${event.phase}` : undefined,
  );
  const readyAt = order.indexOf('phase:ready');
  for (const component of ['memoryStore', 'sentimentAnalyzer', 'primaryProvider', 'secondaryProvider']) {
    const at = order.indexOf(component);
    t.ok(at >= 0 && at < readyAt, `${component} is ready before the system is`);
  }
  // Stage 2 runs only now: the drift ticks after ready, every 10 s by default.
  advance(10_000);
  t.equal(events.filter((event) => event.type === 'mood.changed').length, 1, 'one drift tick at 10 s');
});

t.test('the page polls /api/avatar once a second, measured in real time in Chromium', async (t) => {
  // The interval the page really keeps, read from the page's own resource timings (its clock, not
  // this process's, which a busy machine delays). The median of several intervals, with room either
  // way for a loaded machine: a 2 s poll (or a 0.5 s one) falls outside.
  const setup = await harness(t, { system: 'fake', app: { timeouts: { statusMs: 500, chatMs: 2000 } } });
  const address = await setup.app.listen({ host: '127.0.0.1', port: 0 });
  const context = await launchChromium(t);
  const page = await context.newPage();
  await page.goto(`${address}/`);
  const starts = await eventually(
    'seven polls of /api/avatar',
    async () => {
      const times = await page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .filter((entry) => new URL(entry.name).pathname === '/api/avatar')
          .map((entry) => entry.startTime),
      );
      return times.length >= 7 ? times : undefined;
    },
    { timeoutMs: 60_000, intervalMs: 200 },
  );
  const intervals = starts.slice(1).map((start, i) => start - starts[i]!);
  const median = [...intervals].sort((a, b) => a - b)[Math.floor(intervals.length / 2)]!;
  t.ok(
    median >= 800 && median <= 1500,
    `the median interval is about 1 s (${Math.round(median)} ms of ${intervals.map(Math.round).join(', ')})`,
  );
});

t.test('the page polls /api/avatar every 1 second by default, and redraws the bars from each reply', async (t) => {
  const setup = await harness(t, { system: 'fake', app: { timeouts: { statusMs: 500, chatMs: 2000 } } });
  const address = await setup.app.listen({ host: '127.0.0.1', port: 0 });
  const context = await launchChromium(t);
  // Paused virtual time in the page: only runFor moves it. The clock runs in real time between
  // install and pause, so the pause lies well ahead (no page is open yet for it to fire timers in).
  await context.clock.install({ time: 0 });
  await context.clock.pauseAt(60_000);
  const page = await context.newPage();
  let polls = 0;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/avatar') polls++;
  });
  await page.goto(`${address}/`);
  await page.locator('#joy-bar[style*="width: 50%"]').waitFor();
  const first = polls;
  t.equal(first, 1, 'one poll at load');
  await context.clock.runFor(999);
  t.equal(polls, first, 'not before a second has passed');
  // The page's clock is virtual, but its poll reaches this process and comes back in real time: on a
  // loaded machine that takes a while. Each poll brings new emotions, and the next step waits (bounded)
  // until the page has drawn them: only then is that poll over, and the page ready for the next one.
  const { system } = setup;
  system.emotions = { ...system.emotions, joy: 0.6 };
  await context.clock.runFor(1);
  await page.locator('#joy-bar[style*="width: 60%"]').waitFor();
  t.equal(polls, first + 1, 'a poll at 1 s');
  system.emotions = { ...system.emotions, joy: 0.7 };
  await context.clock.runFor(1000);
  await page.locator('#joy-bar[style*="width: 70%"]').waitFor();
  t.equal(polls, first + 2, 'and again at 2 s');

  // The virtual clock stands still now, so no poll can redraw: the bars move from the reply alone.
  system.chatBehaviour = { kind: 'reply', response: 'Nice.', emotions: { joy: 0.9, sadness: 0.05, anger: 0.1, fear: 0.1, curiosity: 0.7 } };
  await page.locator('body[data-ready="true"]').waitFor();
  await page.getByLabel('Your message').fill('hello');
  await page.getByLabel('Your message').press('Enter');
  await page.locator('.message.bot:not(.thinking)').waitFor();
  // The bubble may show before the reply's emotions are drawn: wait for the drawing, not for time.
  await page.locator('#joy-bar[style*="width: 90%"]').waitFor();
  t.equal(polls, first + 2, 'no poll in between');
  t.same(
    await page.evaluate(
      `['joy', 'sadness', 'anger', 'fear', 'curiosity'].map((name) => document.getElementById(name + '-bar').style.width)`,
    ),
    ['90%', '5%', '10%', '10%', '70%'],
    'each bar is the reply value times 100 as a percentage',
  );
});
