// The webhook inspector's page: the list (filtered on the server), one delivery's detail, Replay, Diff,
// and the live feed. Everything shown is set as text: a delivery's content never becomes markup.

const $ = (selector) => document.querySelector(selector);
const el = (tag, text, attributes = {}) => {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = String(text);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
};

const filters = $('#filters');
const rows = $('#deliveries tbody');
let current; // the id of the delivery shown
let listed = [];

async function api(path, init) {
  const response = await fetch(path, { ...init, headers: { 'content-type': 'application/json', ...init?.headers } });
  const body = await response.json();
  if (!response.ok) throw new Error(body.error ?? `HTTP ${response.status}`);
  return body;
}

function query() {
  const params = new URLSearchParams();
  for (const [name, value] of new FormData(filters)) {
    if (typeof value !== 'string' || value.trim() === '') continue;
    // datetime-local is the reader's own time: the server compares ISO times.
    params.set(name, name === 'from' || name === 'to' ? new Date(value).toISOString() : value.trim());
  }
  return params;
}

const outcomeCell = (summary) => el('td', `${summary.status} ${summary.outcome}`, { class: `outcome-${summary.outcome}` });
const verdictText = (verdict) => verdict ?? '–';
const time = (iso) => new Date(iso).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'medium' });

// Answers can come back out of order (a live refresh beside a filter's): only the latest asked is shown.
let asked = 0;
async function refreshList() {
  const mine = ++asked;
  const { total, matched, deliveries, tookMs } = await api(`/api/deliveries?${query()}`);
  if (mine !== asked) return;
  listed = deliveries;
  rows.replaceChildren(
    ...deliveries.map((summary) => {
      const row = el('tr', undefined, { 'data-id': summary.id });
      if (summary.id === current) row.setAttribute('aria-current', 'true');
      const link = el('a', time(summary.receivedAt), { href: `#d=${summary.id}` });
      const first = el('td');
      first.append(link);
      const verdict = el('td', verdictText(summary.verdict));
      if (summary.verdict) verdict.className = `verdict-${summary.verdict.replace(' ', '-')}`;
      row.append(first, el('td', summary.event), el('td', summary.repo), outcomeCell(summary), el('td', summary.ms), verdict);
      return row;
    }),
  );
  $('#count').textContent = `${matched} of ${total} deliveries (filtered in ${tookMs} ms on the server)`;
  fillDiffChoices();
}

function fillDiffChoices() {
  const select = $('#diff-form select');
  const chosen = select.value;
  select.replaceChildren(
    ...listed
      .filter((summary) => summary.id !== current)
      .map((summary) =>
        el('option', `${time(summary.receivedAt)} ${summary.event} ${summary.repo} (${summary.status})`, { value: summary.id }),
      ),
  );
  if ([...select.options].some((option) => option.value === chosen)) select.value = chosen;
}

/** A JSON value as nested, collapsible sections; the first two levels open. */
function jsonTree(value, key, depth = 0) {
  const label = key === undefined ? '' : `${key}: `;
  if (value !== null && typeof value === 'object') {
    const entries = Array.isArray(value) ? value.map((item, i) => [i, item]) : Object.entries(value);
    const details = el('details');
    if (depth < 2) details.open = true;
    const summary = el('summary');
    summary.append(el('span', label, { class: 'key' }), `${Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`}`);
    details.append(summary, ...entries.map(([name, item]) => jsonTree(item, name, depth + 1)));
    return details;
  }
  const leaf = el('div', undefined, { class: 'leaf' });
  leaf.append(el('span', label, { class: 'key' }), JSON.stringify(value));
  return leaf;
}

async function showDelivery(id) {
  const detail = await api(`/api/deliveries/${encodeURIComponent(id)}`);
  current = id;
  const { summary } = detail;
  $('#detail').hidden = false;
  $('#detail-title').textContent = `Delivery ${summary.webhookId ?? ''} · ${summary.event}`;
  const facts = [
    ['Webhook-Id', summary.webhookId ?? '–'],
    ['Received', `${time(summary.receivedAt)} (${summary.receivedAt})`],
    ['Route', summary.route === '' ? '/webhooks' : `/webhooks/${summary.route}`],
    ['Event', summary.event],
    ['Repository', summary.repo],
    ['Forward target', detail.target ?? 'none recorded'],
  ];
  $('#facts').replaceChildren(...facts.flatMap(([name, value]) => [el('dt', name), el('dd', value)]));
  $('#answer-facts').replaceChildren(outcomeSpan(summary), ` in ${summary.ms} ms`);
  $('#answer').textContent = detail.answer || '(empty)';
  $('#headers tbody').replaceChildren(
    ...Object.entries(detail.headers).map(([name, value]) => {
      const row = el('tr');
      row.append(el('td', name), el('td', value));
      return row;
    }),
  );
  $('#payload').replaceChildren(jsonTree(detail.body));
  $('#replays').replaceChildren(
    ...detail.replays
      .slice()
      .reverse()
      .map((replay) =>
        el(
          'li',
          `${time(replay.at)}: ${replay.verdict} (${replay.status ?? 'no answer'} in ${replay.ms} ms, to ${replay.to}, by ${replay.by})`,
        ),
      ),
  );
  const latest = detail.replays.at(-1);
  setVerdict(latest);
  $('#replay-form input').placeholder = detail.target ?? 'http://127.0.0.1:7860/webhooks/…';
  $('#diff').hidden = true;
  $('#diff-summary').textContent = '';
  for (const row of rows.children) {
    if (row.dataset.id === id) row.setAttribute('aria-current', 'true');
    else row.removeAttribute('aria-current');
  }
  fillDiffChoices();
}

function outcomeSpan(summary) {
  return el('span', `${summary.status} ${summary.outcome}`, { class: `outcome-${summary.outcome}` });
}

function setVerdict(replay) {
  const verdict = $('#verdict');
  verdict.replaceChildren();
  if (replay === undefined) return;
  verdict.append('Latest replay: ', el('strong', replay.verdict, { class: `verdict-${replay.verdict.replace(' ', '-')}` }));
  verdict.append(` (${replay.status ?? 'no answer'})`);
}

function showError(error) {
  $('#live').textContent = `Error: ${error.message}`;
}

async function route() {
  const id = /^#d=(.+)$/.exec(location.hash)?.[1];
  if (id === undefined) return;
  await showDelivery(id).catch(showError);
  $('#detail-title').focus();
}

let pending;
function soon() {
  clearTimeout(pending);
  pending = setTimeout(() => refreshList().catch(showError), 50);
}

filters.addEventListener('input', soon);
filters.addEventListener('submit', (event) => {
  event.preventDefault();
  soon();
});

$('#replay-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const button = event.target.querySelector('button');
  button.disabled = true;
  $('#verdict').textContent = 'Replaying…';
  try {
    const to = new FormData(event.target).get('to');
    const replay = await api(`/api/deliveries/${encodeURIComponent(current)}/replay`, { method: 'POST', body: JSON.stringify({ to }) });
    await showDelivery(current);
    setVerdict(replay);
    await refreshList();
  } catch (error) {
    $('#verdict').textContent = `Replay failed: ${error.message}`;
  } finally {
    button.disabled = false;
  }
});

$('#diff-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const other = new FormData(event.target).get('with');
  if (!other) return;
  const { changes } = await api(`/api/deliveries/${encodeURIComponent(current)}/diff?with=${encodeURIComponent(other)}`);
  $('#diff-summary').textContent = changes.length === 0 ? 'The payloads are the same.' : `${changes.length} differences.`;
  $('#diff tbody').replaceChildren(
    ...changes.map((change) => {
      const row = el('tr');
      const show = (value) => (value === undefined ? '' : JSON.stringify(value));
      row.append(
        el('td', change.path || '(the whole body)'),
        el('td', change.kind),
        el('td', show(change.before)),
        el('td', show(change.after)),
      );
      return row;
    }),
  );
  $('#diff').hidden = changes.length === 0;
});

window.addEventListener('hashchange', route);

const feed = new EventSource('/api/events');
feed.addEventListener('open', () => ($('#live').textContent = 'Live: new deliveries appear as they come.'));
feed.addEventListener('error', () => ($('#live').textContent = 'Reconnecting…'));
feed.addEventListener('delivery', soon);
feed.addEventListener('replay', (event) => {
  soon();
  if (JSON.parse(event.data).id === current) showDelivery(current).catch(showError);
});

refreshList().then(route).catch(showError);
