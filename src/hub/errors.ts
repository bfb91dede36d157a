/** The hub answered, but with an error status or a body that is not what the route returns. */
export class HubApiError extends Error {
  override readonly name = 'HubApiError';
  readonly status: number;
  /** The hub's own explanation (`X-Error-Message` header or the `error` body key), when it sent one. */
  readonly serverMessage: string | undefined;
  /** The hub's `X-Request-Id`: quote it when reporting a problem to the hub's maintainers. */
  readonly requestId: string | undefined;
  readonly method: string;
  readonly url: string;

  constructor(init: {
    status: number;
    serverMessage?: string | undefined;
    requestId?: string | undefined;
    method: string;
    url: string;
    reason?: string;
  }) {
    const what = init.serverMessage ?? init.reason ?? 'no message';
    const requestId = init.requestId ? `, request id ${init.requestId}` : '';
    super(`${what} (HTTP ${init.status} from ${init.method} ${init.url}${requestId})`);
    this.status = init.status;
    this.serverMessage = init.serverMessage;
    this.requestId = init.requestId;
    this.method = init.method;
    this.url = init.url;
  }
}

/** No answer at all: DNS, refused connection, TLS, abort. */
export class HubConnectionError extends Error {
  override readonly name: string = 'HubConnectionError';
}

/** The `hub` CLI under `HF_HUB_OFFLINE`: no request is sent (huggingface_hub's `OfflineModeIsEnabled`). */
export class HubOfflineError extends HubConnectionError {
  override readonly name = 'HubOfflineError';
}

/** The client is not set up to talk to the hub: no token, a hub URL (`hubUrl`, the CLI's `HF_ENDPOINT`) that is not http(s), or an option it does not take. */
export class HubConfigError extends Error {
  override readonly name = 'HubConfigError';
}

/** A create or update input the hub would reject; raised before any request is sent. */
export class WebhookInputError extends Error {
  override readonly name = 'WebhookInputError';
}
