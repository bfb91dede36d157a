// Copy buttons: one under each finished reply (its Markdown as written) and one on each code block
// (its code). A button, so the keyboard reaches it; it says "Copied" (or that it could not) for a
// moment, in its own name, which a screen reader reads on focus.

const SAID_MS = 2000;

/**
 * Copies through a selected text field the visitor does not see: the way left where the page has no
 * `navigator.clipboard` (a service opened over plain http at a name or address other than
 * localhost) or is refused it. Focus goes back to the button, which then says what happened.
 */
function copyBySelection(text) {
  const field = document.createElement('textarea');
  field.className = 'visually-hidden';
  field.readOnly = true;
  field.value = text;
  const focused = document.activeElement;
  document.body.append(field);
  field.select();
  try {
    return document.execCommand('copy');
  } finally {
    field.remove();
    focused?.focus?.();
  }
}

async function copy(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return copyBySelection(text);
  }
}

/** A Copy button for what `text()` gives when it is pressed. */
export function copyButton(label, text) {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'secondary copy';
  button.textContent = 'Copy';
  button.setAttribute('aria-label', label);
  let timer;
  button.addEventListener('click', async () => {
    const said = (await copy(text())) ? 'Copied' : 'Not copied';
    button.textContent = said;
    button.setAttribute('aria-label', said);
    clearTimeout(timer);
    timer = setTimeout(() => {
      button.textContent = 'Copy';
      button.setAttribute('aria-label', label);
    }, SAID_MS);
  });
  return button;
}

/** Puts a Copy button on each code block of a rendered reply. */
export function addCodeCopyButtons(element) {
  for (const pre of element.querySelectorAll('pre')) {
    const block = document.createElement('div');
    block.className = 'code-block';
    pre.replaceWith(block);
    block.append(
      pre,
      copyButton('Copy the code', () => pre.textContent ?? ''),
    );
  }
}
