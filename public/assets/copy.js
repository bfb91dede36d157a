// Copy buttons: one under each finished reply (its Markdown as written) and one on each code block
// (its code). A button, so the keyboard reaches it; it says "Copied" (or that it could not) for a
// moment, in its own name, which a screen reader reads on focus.

const SAID_MS = 2000;

/** A Copy button for what `text()` gives when it is pressed. */
export function copyButton(label, text) {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'secondary copy';
  button.textContent = 'Copy';
  button.setAttribute('aria-label', label);
  let timer;
  button.addEventListener('click', async () => {
    let said = 'Copied';
    try {
      await navigator.clipboard.writeText(text());
    } catch {
      said = 'Not copied';
    }
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
