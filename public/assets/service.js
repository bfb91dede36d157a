// What every part that talks to the service needs: a JSON answer, and the way to the error page.

/** `{ response, body }` of a fetch that is never cached; a body that is not JSON is `{}`. */
export async function getJson(url, init) {
  const response = await fetch(url, { cache: 'no-store', ...init });
  const body = await response.json().catch(() => ({}));
  return { response, body };
}

let leaving = false;

/**
 * Leaves for the error page (the key-missing state, or a start that failed), once: the start's
 * check and the first avatar poll both see a missing key, and a second navigation would abort the
 * first one.
 */
export function goToErrorPage(path) {
  if (leaving) return;
  leaving = true;
  window.location.assign(path || '/error');
}
