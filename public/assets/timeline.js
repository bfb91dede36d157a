// The mood timeline: the five emotions over the latest changes (GET /api/mood/why), one line each in
// its bar's colour, the emotion asked about drawn strongest; under them a marker per change, a
// filled dot for the visitor's own messages, a ring for someone else's, a tick for the drift. Its
// text alternative is a summary (the figure's caption, the chart's name) and a table of the changes.
const EMOTIONS = ['joy', 'sadness', 'anger', 'fear', 'curiosity'];
const SVG = 'http://www.w3.org/2000/svg';
const NAMES = { joy: 'Joy', sadness: 'Sadness', anger: 'Anger', fear: 'Fear', curiosity: 'Curiosity' };
const SOURCE_CELL = { yours: 'your message', others: 'someone’s message', drift: 'drift', shared: 'from another replica' };

/** The chart's frame in its viewBox (0 0 320 150): the lines' area, and the row of markers under it. */
const LEFT = 26;
const RIGHT = 314;
const TOP = 8;
const BOTTOM = 116;
const MARKERS = 134;

const clock = (at) => new Date(at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
const signed = (value) => `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(2)}`;

/** What a change was: the visitor's own message, someone else's, the drift, a replica's snapshot. */
export function sourceOf(change, ownReplies) {
  if (change.kind === 'drift') return 'drift';
  if (change.kind === 'snapshot') return 'shared';
  return ownReplies.has(change.at) ? 'yours' : 'others';
}

/** The emotions before the first change and after each: `from` plus the deltas so far. */
export function timelinePoints(why) {
  let now = { ...why.from };
  const points = [{ at: undefined, emotions: now }];
  for (const change of why.changes ?? []) {
    now = Object.fromEntries(EMOTIONS.map((name) => [name, Number(now[name]) + Number(change.delta?.[name] ?? 0)]));
    points.push({ at: change.at, change, emotions: now });
  }
  return points;
}

/**
 * The chart's text alternative: `summary` (its name, shown as the caption) says how many changes of
 * which kind, `moves` (its description) where each emotion went and by what.
 */
export function timelineSummary(why, ownReplies) {
  const changes = why.changes ?? [];
  if (changes.length === 0) return { summary: 'The mood over time: nothing has moved it lately.', moves: '' };
  const count = (source) => changes.filter((change) => sourceOf(change, ownReplies) === source).length;
  const messages = count('yours') + count('others');
  const kinds = [
    `${messages} message${messages === 1 ? '' : 's'} (${count('yours')} yours)`,
    `${count('drift')} drift tick${count('drift') === 1 ? '' : 's'}`,
  ];
  const moves = EMOTIONS.map((name) => {
    const totals = why.totals?.[name] ?? { drift: 0, messages: 0 };
    return `${name} ${Number(why.from[name]).toFixed(2)} to ${Number(why.emotions[name]).toFixed(2)} (messages ${signed(totals.messages)}, drift ${signed(totals.drift)})`;
  });
  return {
    summary: `The mood over the last ${changes.length} changes, ${clock(changes[0].at)} to ${clock(changes.at(-1).at)}: ${kinds.join(', ')}.`,
    moves: `${moves.join('; ')}.`,
  };
}

function node(name, attributes, parent) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  parent.append(element);
  return element;
}

/** Draws the chart into `svg`: five lines (`focus` the strongest), the level guides, a marker per change. */
export function drawTimeline(svg, why, ownReplies, focus) {
  svg.replaceChildren();
  const points = timelinePoints(why);
  const x = (index) => (points.length < 2 ? RIGHT : LEFT + ((RIGHT - LEFT) * index) / (points.length - 1));
  const y = (value) => BOTTOM - (BOTTOM - TOP) * Math.min(1, Math.max(0, value));
  for (const level of [0, 0.5, 1]) {
    node('line', { class: 'guide', x1: LEFT, x2: RIGHT, y1: y(level), y2: y(level) }, svg);
    node('text', { class: 'guide-label', x: LEFT - 4, y: y(level) + 3 }, svg).textContent = level.toFixed(1);
  }
  // The emotion asked about last, so it is drawn over the others.
  for (const name of [...EMOTIONS.filter((other) => other !== focus), focus].filter(Boolean)) {
    const line = points.map((point, index) => `${x(index).toFixed(1)},${y(point.emotions[name]).toFixed(1)}`).join(' ');
    node('polyline', { class: `series ${name}${name === focus ? ' focus' : ''}`, points: line }, svg);
  }
  points.forEach((point, index) => {
    if (!point.change) return;
    const source = sourceOf(point.change, ownReplies);
    const cx = x(index);
    if (source === 'drift') node('line', { class: 'marker drift', x1: cx, x2: cx, y1: MARKERS - 4, y2: MARKERS + 4 }, svg);
    else node('circle', { class: `marker ${source}`, cx, cy: MARKERS, r: 4 }, svg);
  });
}

/** The table of the changes: when, what, and each emotion after it. */
export function fillTimelineTable(table, why, ownReplies) {
  const caption = document.createElement('caption');
  // For screen readers: the disclosure above says what it is, and a caption as wide as the table would scroll away with it.
  caption.className = 'visually-hidden';
  caption.textContent = 'Each change of the mood, oldest first, and the emotions after it';
  const head = document.createElement('thead');
  const headRow = head.insertRow();
  for (const title of ['Time', 'Change', ...EMOTIONS.map((name) => NAMES[name])]) {
    const cell = document.createElement('th');
    cell.scope = 'col';
    cell.textContent = title;
    headRow.append(cell);
  }
  const body = document.createElement('tbody');
  for (const point of timelinePoints(why)) {
    const row = body.insertRow();
    const time = document.createElement('th');
    time.scope = 'row';
    time.textContent = point.at ? clock(point.at) : 'before';
    row.append(time);
    row.insertCell().textContent = point.change ? SOURCE_CELL[sourceOf(point.change, ownReplies)] : 'where it stood';
    for (const name of EMOTIONS) row.insertCell().textContent = Number(point.emotions[name]).toFixed(2);
  }
  table.replaceChildren(caption, head, body);
}
