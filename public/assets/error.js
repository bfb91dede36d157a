// Tells the reader the service's actual state, which may have changed since the page was served:
// when it is ready, the page says so and links back, without the "not available" headline.
const stateLine = document.getElementById('state');
const headline = document.querySelector('h1');
const keyMissing = document.getElementById('key-missing');
const failed = document.getElementById('failed');

/** Only what happened: the missing key's section, or the failure's. */
function explain(section) {
  keyMissing.hidden = section !== keyMissing;
  failed.hidden = section !== failed;
}

function linkToChat(text) {
  const link = document.createElement('a');
  link.href = '/';
  link.textContent = text;
  return link;
}

try {
  const response = await fetch('/api/is_initialized', { cache: 'no-store' });
  const body = await response.json();
  document.body.dataset.state = body.is_initialized ? 'ready' : String(body.status);
  if (body.is_initialized) {
    headline.textContent = 'Emotion chat is ready';
    document.title = 'Emotion chat: ready';
    stateLine.textContent = 'The service is ready now (state: ready). ';
    stateLine.append(linkToChat('Go to the chat.'));
    // Nothing is missing: what to do when something is does not belong on the page now.
    document.querySelector('main').hidden = true;
  } else if (body.missing_llm_key) {
    // The chat's name for the state (the poll's own body says missing_api_key, as the specification has it).
    document.body.dataset.state = 'missing_llm_key';
    stateLine.textContent = 'Right now: LLM_API_KEY is not set (state: missing_llm_key).';
    explain(keyMissing);
  } else if (body.initializing) {
    headline.textContent = 'Emotion chat is starting';
    stateLine.textContent = 'Right now: the service is still initializing (state: initializing). ';
    stateLine.append(linkToChat('Go to the chat; it will wait.'));
    explain(undefined);
  } else {
    stateLine.textContent = `Right now: the service has failed (state: ${body.status}). Check its log.`;
    explain(failed);
  }
} catch {
  explain(failed);
  document.body.dataset.state = 'unreachable';
  stateLine.textContent = 'The service does not answer: it may have stopped. Check its log.';
}
