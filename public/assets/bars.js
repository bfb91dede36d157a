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

/** Draws every 'mood' (an /api/avatar-shaped body). */
export function mountBars(bus) {
  bus.on('mood', (body) => drawEmotions(body?.emotions));
}
