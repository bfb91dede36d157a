// The five bars: each mood the page hears is drawn as five widths, meters and numbers; each
// emotion's name opens the why view (what moved it lately, and the mood's timeline).
import { drawTimeline, fillTimelineTable, sourceOf, timelineSummary } from './timeline.js';

const EMOTIONS = ['joy', 'sadness', 'anger', 'fear', 'curiosity'];

function clamp01(value) {
  const number = Number(value);
  return Number.isFinite(number) ? Math.min(1, Math.max(0, number)) : 0;
}

function drawEmotions(emotions) {
  if (!emotions) return;
  for (const name of EMOTIONS) {
    const value = clamp01(emotions[name]);
    const bar = document.getElementById(`${name}-bar`);
    bar.style.width = `${value * 100}%`;
    bar.parentElement.setAttribute('aria-valuenow', String(Math.round(value * 100)));
    document.getElementById(`${name}-value`).textContent = value.toFixed(2);
  }
}

/** How many of the latest changes the panel lists one by one. */
const LISTED = 5;

const signed = (value) => `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(2)}`;

const SOURCE_WORDS = { yours: 'your messages', others: 'others’ messages', drift: 'drift', shared: 'taken from another replica' };
const ONE_SOURCE = { yours: 'your message', others: 'someone’s message', drift: 'drift', shared: 'taken from another replica' };
const READ_AS = { joy: 'joy', sadness: 'sadness', anger: 'anger', fear: 'fear', curiosity: 'curiosity' };

/**
 * The panel's lines for one emotion: what each kind of change added up to, then the latest changes.
 * `why` is GET /api/mood/why's body; `ownReplies` the times of this visitor's replies (a chat's change
 * commits at its reply's time), which tell the visitor's own messages from everyone else's.
 */
export function whyLines(emotion, why, ownReplies) {
  const changes = (why?.changes ?? []).filter((change) => Math.abs(change.delta?.[emotion] ?? 0) >= 0.005);
  if (changes.length === 0) return { title: `${emotion}: nothing has moved it lately`, totals: [], latest: [] };
  const totals = new Map();
  for (const change of changes) {
    const source = sourceOf(change, ownReplies);
    const total = totals.get(source) ?? { sum: 0, count: 0 };
    totals.set(source, { sum: total.sum + change.delta[emotion], count: total.count + 1 });
  }
  const latest = changes
    .slice(-LISTED)
    .reverse()
    .map((change) => {
      const read = change.kind === 'chat' && change.strongest ? `, read as ${READ_AS[change.strongest] ?? change.strongest}` : '';
      const time = new Date(change.at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
      return `${time} ${ONE_SOURCE[sourceOf(change, ownReplies)]}${read}: ${signed(change.delta[emotion])}`;
    });
  return {
    title: `What moved ${emotion} lately`,
    totals: [...totals].map(([source, { sum, count }]) => `${SOURCE_WORDS[source]} ${signed(sum)} (${count})`),
    latest,
  };
}

/** How soon after a change of the mood the open why view asks again (a burst of changes, one read). */
const LIVE_MS = 300;

/**
 * Draws every 'mood' (an /api/avatar-shaped body). Each emotion's name is a button that opens the
 * why view (and closes it; Escape too): what moved that emotion lately, and the timeline of all five
 * with that one drawn strongest, kept live while it is open by each change the feed brings ('moved').
 */
export function mountBars(bus) {
  bus.on('mood', (body) => drawEmotions(body?.emotions));
  const panel = document.getElementById('mood-why');
  const lines = document.getElementById('mood-why-lines');
  const chart = document.getElementById('timeline-chart');
  const summary = document.getElementById('timeline-summary');
  const moves = document.getElementById('timeline-moves');
  const table = document.getElementById('timeline-table');
  const buttons = [...document.querySelectorAll('.bar-name')];
  let shown;
  let again;
  const hide = () => {
    shown = undefined;
    panel.hidden = true;
    for (const name of buttons) name.setAttribute('aria-expanded', 'false');
  };
  const draw = async (emotion) => {
    const [why, history] = await Promise.all([
      fetch('/api/mood/why', { cache: 'no-store' }).then((response) => (response.ok ? response.json() : undefined)),
      fetch('/api/history', { cache: 'no-store' }).then((response) => (response.ok ? response.json() : undefined)),
    ]).catch(() => []);
    if (shown !== emotion) return; // another emotion, or none, by now
    const ownReplies = new Set((history?.messages ?? []).filter((message) => message.role === 'assistant').map((message) => message.at));
    const said = why ? whyLines(emotion, why, ownReplies) : { title: 'What moved it cannot be read right now', totals: [], latest: [] };
    const title = document.createElement('p');
    title.className = 'mood-why-title';
    title.textContent = said.title;
    const parts = [title];
    if (said.totals.length > 0) {
      const totals = document.createElement('p');
      totals.textContent = said.totals.join(' · ');
      parts.push(totals);
    }
    if (said.latest.length > 0) {
      const list = document.createElement('ul');
      for (const line of said.latest) {
        const item = document.createElement('li');
        item.textContent = line;
        list.append(item);
      }
      parts.push(list);
    }
    lines.replaceChildren(...parts);
    if (why) {
      const text = timelineSummary(why, ownReplies);
      summary.textContent = text.summary;
      moves.textContent = text.moves;
      drawTimeline(chart, why, ownReplies, emotion);
      fillTimelineTable(table, why, ownReplies);
    }
  };
  const show = (button) => {
    shown = button.dataset.emotion;
    panel.hidden = false;
    for (const name of buttons) name.setAttribute('aria-expanded', String(name === button));
    void draw(shown);
  };
  for (const button of buttons) {
    button.addEventListener('click', () => (shown === button.dataset.emotion ? hide() : show(button)));
  }
  panel.parentElement.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || shown === undefined) return;
    const button = buttons.find((name) => name.dataset.emotion === shown);
    hide();
    button?.focus();
  });
  bus.on('moved', () => {
    if (shown === undefined) return;
    clearTimeout(again);
    const emotion = shown;
    again = setTimeout(() => shown === emotion && void draw(emotion), LIVE_MS);
  });
}
