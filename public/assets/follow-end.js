// The end of the conversation stays in view: whatever is added or grows in the list (a message, a
// reply's next piece, the note and buttons under a finished reply) scrolls it to its end, unless the
// visitor has scrolled up to read; then "New reply ↓" shows over the end, and takes them there.

/** How near the end (px) still counts as at the end: a rounding, a last line's half. */
const SLACK = 24;

/** Keeps `list` at its end as it changes; `button` shows while the visitor reads further up. Returns `toEnd()`, which goes there and follows again. */
export function followEnd(list, button) {
  let following = true;
  const atEnd = () => list.scrollHeight - list.scrollTop - list.clientHeight <= SLACK;
  const toEnd = () => {
    following = true;
    button.hidden = true;
    list.scrollTop = list.scrollHeight;
  };
  const changed = () => {
    if (following) toEnd();
    else if (list.scrollHeight > list.clientHeight) button.hidden = false;
  };
  // Only the visitor's scrolling decides: the list's own growth moves no scroll position.
  list.addEventListener('scroll', () => {
    following = atEnd();
    if (following) button.hidden = true;
  });
  new MutationObserver(changed).observe(list, { childList: true, subtree: true, characterData: true, attributes: true });
  // The list's own size changes too (the message box grew, the window turned).
  new ResizeObserver(changed).observe(list);
  button.addEventListener('click', toEnd);
  return toEnd;
}
