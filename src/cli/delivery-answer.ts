import type { TestDeliveryResponse } from '../webhooks/send-test-delivery.js';
import { CliError, ExitCode } from './exit-codes.js';
import { urlWithoutQuery } from '../runtime/url-credentials.js';
import { noAnswerCause } from './resend-delivery.js';

export interface DeliveryAnswer {
  readonly status: number;
  readonly body: unknown;
}

/**
 * Posts a delivery with `send` and reports the receiver's answer as `hub webhooks send` and `redeliver`
 * do: `HTTP <status>` and the body on stdout; no answer is exit 5, a status other than 2xx exit 6.
 */
export async function deliverAndReport(
  url: URL,
  send: () => Promise<TestDeliveryResponse>,
  log: (line: string) => void,
): Promise<DeliveryAnswer> {
  let response: TestDeliveryResponse;
  try {
    response = await send();
  } catch (error) {
    throw new CliError(`Cannot reach ${urlWithoutQuery(url)}: ${noAnswerCause(error)}`, ExitCode.unreachable);
  }
  const body = typeof response.body === 'string' ? response.body : JSON.stringify(response.body, null, 2);
  log(`HTTP ${response.status}`);
  if (body !== '') log(body);
  if (response.status < 200 || response.status > 299) {
    // With --json the answer goes out inside the error; without it, it is printed above.
    throw new CliError(`The receiver answered HTTP ${response.status}.`, ExitCode.refused, {
      status: response.status,
      body: response.body,
    });
  }
  return { status: response.status, body: response.body };
}
