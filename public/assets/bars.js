// The five bars: each mood the page hears is drawn as five widths, meters and numbers.
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

/** What a change was, as the panel says it: a visitor's own message, someone else's, the drift. */
function sourceOf(change, ownReplies) {
  if (change.kind === 'drift') return 'drift';
  if (change.kind === 'snapshot') return 'shared';
  return ownReplies.has(change.at) ? 'yours' : 'others';
}

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

/** Draws every 'mood' (an /api/avatar-shaped body); a bar's name, focused or hovered, shows what moved it. */
export function mountBars(bus) {
  bus.on('mood', (body) => drawEmotions(body?.emotions));
  const panel = document.getElementById('mood-why');
  let shown;
  const hide = () => {
    shown = undefined;
    panel.hidden = true;
    for (const name of document.querySelectorAll('.bar-name')) name.setAttribute('aria-expanded', 'false');
  };
  const show = async (button) => {
    const emotion = button.dataset.emotion;
    shown = emotion;
    const [why, history] = await Promise.all([
      fetch('/api/mood/why', { cache: 'no-store' }).then((response) => (response.ok ? response.json() : undefined)),
      fetch('/api/history', { cache: 'no-store' }).then((response) => (response.ok ? response.json() : undefined)),
    ]).catch(() => []);
    if (shown !== emotion) return; // another bar, or none, by now
    const ownReplies = new Set((history?.messages ?? []).filter((message) => message.role === 'assistant').map((message) => message.at));
    const lines = why ? whyLines(emotion, why, ownReplies) : { title: 'What moved it cannot be read right now', totals: [], latest: [] };
    const title = document.createElement('p');
    title.className = 'mood-why-title';
    title.textContent = lines.title;
    const parts = [title];
    if (lines.totals.length > 0) {
      const totals = document.createElement('p');
      totals.textContent = lines.totals.join(' · ');
      parts.push(totals);
    }
    if (lines.latest.length > 0) {
      const list = document.createElement('ul');
      for (const line of lines.latest) {
        const item = document.createElement('li');
        item.textContent = line;
        list.append(item);
      }
      parts.push(list);
    }
    panel.replaceChildren(...parts);
    panel.hidden = false;
    for (const name of document.querySelectorAll('.bar-name')) name.setAttribute('aria-expanded', String(name === button));
  };
  for (const button of document.querySelectorAll('.bar-name')) {
    const row = button.closest('.emotion');
    button.addEventListener('focus', () => show(button));
    button.addEventListener('click', () => (shown === button.dataset.emotion && !panel.hidden ? hide() : show(button)));
    button.addEventListener('blur', hide);
    row.addEventListener('mouseenter', () => show(button));
    row.addEventListener('mouseleave', () => {
      if (document.activeElement !== button) hide();
    });
    button.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') hide();
    });
  }
}
