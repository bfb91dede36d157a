// The page menu: Export (a download of GET /api/history/export) and Import, which sends a file the
// visitor picks to POST /api/history/import, after the conversation or in its place. What came of
// it is said as a hint ('notice'); the conversation shows the history again ('history').

const FORMAT_NAMES = { 'emotion-hub': 'an emotion-hub export', chatgpt: 'ChatGPT', 'open-webui': 'Open WebUI' };

export function mountPageMenu(bus) {
  const menu = document.getElementById('page-menu');
  const file = document.getElementById('import-file');
  let replace = false;
  for (const [id, inPlace] of [
    ['import', false],
    ['import-replace', true],
  ]) {
    document.getElementById(id).addEventListener('click', () => {
      replace = inPlace;
      file.value = '';
      file.click();
    });
  }
  document.getElementById('export').addEventListener('click', () => {
    menu.open = false;
  });
  file.addEventListener('change', async () => {
    const [chosen] = file.files ?? [];
    if (!chosen) return;
    menu.open = false;
    let said;
    try {
      const response = await fetch(`/api/history/import${replace ? '?replace=1' : ''}`, {
        method: 'POST',
        cache: 'no-store',
        headers: { 'content-type': 'application/json' },
        body: await chosen.text(),
      });
      const body = await response.json().catch(() => ({}));
      if (response.ok) {
        const skipped = body.skipped > 0 ? `, ${body.skipped} message${body.skipped === 1 ? '' : 's'} without a partner left out` : '';
        said = `Imported ${body.exchanges} exchange${body.exchanges === 1 ? '' : 's'} from ${FORMAT_NAMES[body.format] ?? 'the file'}${skipped}.`;
        bus.emit('history');
      } else said = body.error || `The import failed (${response.status}).`;
    } catch {
      said = 'The import failed: the service cannot be reached.';
    }
    bus.emit('notice', { text: said });
  });
  // Escape closes the menu and gives the focus back to it.
  menu.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || !menu.open) return;
    menu.open = false;
    menu.querySelector('summary').focus();
  });
}
