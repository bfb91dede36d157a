// The theme switch: system (the device's scheme), light or dark. The choice is remembered in a
// cookie the service reads, so the page is painted in it from the first frame (data-theme on <html>).

const YEAR_S = 365 * 24 * 60 * 60;

export function mountTheme() {
  const select = document.getElementById('theme');
  const root = document.documentElement;
  select.value = root.dataset.theme || 'system';
  select.addEventListener('change', () => {
    root.dataset.theme = select.value;
    // biome-ignore lint/suspicious/noDocumentCookie: one plain cookie the service reads; cookieStore is not in every browser yet
    document.cookie = `theme=${select.value}; path=/; max-age=${YEAR_S}; SameSite=Lax`;
  });
}
