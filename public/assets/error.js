// Tells the reader whether the service has become ready since the page was served.
const stateLine = document.getElementById('state');

try {
  const response = await fetch('/api/is_initialized', { cache: 'no-store' });
  const body = await response.json();
  if (body.is_initialized) {
    stateLine.textContent = 'The service is ready now. ';
    const link = document.createElement('a');
    link.href = '/';
    link.textContent = 'Go to the chat.';
    stateLine.append(link);
  } else if (body.missing_llm_key) {
    stateLine.textContent = 'Right now: LLM_API_KEY is not set.';
  } else if (body.initializing) {
    stateLine.textContent = 'Right now: the service is still initializing.';
  }
} catch {
  stateLine.textContent = 'The service does not answer: it may have stopped. Check its log.';
}
