/** Options every hub call accepts. All optional: the environment supplies the rest. */
export interface HubOptions {
  /** A User Access Token; wins over `HF_TOKEN`, `HUGGING_FACE_HUB_TOKEN` and the token file. */
  readonly token?: string | undefined;
  /** The hub's base URL; wins over `HF_ENDPOINT`. */
  readonly endpoint?: string | undefined;
  /** The environment to read `HF_*` variables from (default `process.env`). */
  readonly env?: NodeJS.ProcessEnv | undefined;
  /** A fetch implementation (default: node:http(s), which starts faster than the global fetch). */
  readonly fetch?: typeof fetch | undefined;
  readonly signal?: AbortSignal | undefined;
}
