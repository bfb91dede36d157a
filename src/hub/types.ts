/** What a webhook can watch: one repository, or every repository of a user or an organization. */
export const WATCHED_TYPES = ['dataset', 'model', 'org', 'space', 'user'] as const;
export type WatchedType = (typeof WATCHED_TYPES)[number];

/** Event domains a webhook can subscribe to. */
export const WEBHOOK_DOMAINS = ['repo', 'discussion'] as const;
export type WebhookDomain = (typeof WEBHOOK_DOMAINS)[number];

export interface WatchedItem {
  readonly type: WatchedType;
  /** A repository id (`user/repo`, or `gpt2`), a user name or an organization name. */
  readonly name: string;
}

/**
 * A webhook as the hub returns it. Values the hub may add later are passed through untouched,
 * so the output types are wider than the input ones (`string & {}` keeps editor completion).
 */
export interface Webhook {
  readonly id: string;
  /** The target URL; absent on a webhook that triggers a job. */
  readonly url?: string;
  /** The job specification a job webhook runs; absent on a URL webhook. */
  readonly job?: Readonly<Record<string, unknown>>;
  readonly watched: readonly { readonly type: WatchedType | (string & {}); readonly name: string }[];
  readonly domains: readonly (WebhookDomain | (string & {}))[];
  readonly secret?: string;
  readonly disabled: boolean;
}
