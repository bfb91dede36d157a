/** What a hub call hands its fetch: the global fetch takes it, and so may a lighter client. */
export interface HubFetchInit {
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body?: string | undefined;
  readonly signal?: AbortSignal | undefined;
}

/** What a hub call reads of an answer: a fetch `Response` has it. */
export interface HubFetchResponse {
  readonly status: number;
  readonly ok: boolean;
  readonly headers: { get(name: string): string | null };
  text(): Promise<string>;
}

/** The part of `fetch` a hub call uses; the global fetch is one. */
export type HubFetch = (url: string, init: HubFetchInit) => Promise<HubFetchResponse>;

/**
 * What every hub call takes from its caller, as huggingface.js's hub functions do: the library reads
 * no environment variable and no token file (the `hub` CLI resolves those and passes them in).
 */
export interface HubOptions {
  /** A User Access Token (https://huggingface.co/settings/tokens); every webhook route needs one. */
  readonly accessToken?: string | undefined;
  /** The same token by its shorter name (`enableWebhook('abc', { token })`); `accessToken` wins. */
  readonly token?: string | undefined;
  /** The hub's base URL (default https://huggingface.co); a trailing `/` is dropped. */
  readonly hubUrl?: string | undefined;
  /** The fetch to send with (default: the global fetch, looked up at each call). */
  readonly fetch?: HubFetch | undefined;
  readonly signal?: AbortSignal | undefined;
}
