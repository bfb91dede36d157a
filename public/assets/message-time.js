// A message's time as the page shows it: relative today ("just now", "5 minutes ago", "2 hours ago"),
// the date and time before today; the exact time in `datetime` and the tooltip.

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const clock = new Intl.DateTimeFormat('en', { hour: '2-digit', minute: '2-digit' });
const day = new Intl.DateTimeFormat('en', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
const full = new Intl.DateTimeFormat('en', { dateStyle: 'full', timeStyle: 'medium' });

/** How `at` reads at `now`: relative on the same day, else its date and time. */
export function timeWords(at, now = new Date()) {
  const then = new Date(at);
  if (Number.isNaN(then.getTime())) return '';
  if (then.toDateString() !== now.toDateString()) return day.format(then);
  const minutes = Math.round((now.getTime() - then.getTime()) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return relative.format(-minutes, 'minute');
  return `${relative.format(-Math.floor(minutes / 60), 'hour')}, ${clock.format(then)}`;
}

/** A `<time>` for `at` (an ISO 8601 string); kept current by `refreshTimes`. */
export function timeElement(at) {
  const element = document.createElement('time');
  element.dateTime = at;
  element.title = full.format(new Date(at));
  element.textContent = timeWords(at);
  return element;
}

/** Says every `<time>` under `root` again as it reads now (once a minute: "just now" ages). */
export function refreshTimes(root, now = new Date()) {
  for (const element of root.querySelectorAll('time[datetime]')) element.textContent = timeWords(element.dateTime, now);
}
