/** The page's colour scheme as the visitor chose it with the theme switch: `system` follows the device. */
export type Theme = 'system' | 'light' | 'dark';

/** The cookie the page's theme switch writes (public/assets/theme.js), read here so the first paint is in that theme. */
export const THEME_COOKIE = 'theme';

/** The theme a cookie value names; anything else (none, a stale or forged value) is `system`. */
export function themeOf(cookie: string | undefined): Theme {
  return cookie === 'light' || cookie === 'dark' ? cookie : 'system';
}
