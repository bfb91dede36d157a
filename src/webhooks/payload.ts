/**
 * The payload the Hub POSTs to a webhook's URL (or hands to a job in
 * `WEBHOOK_PAYLOAD`): version 3, the only version the Hub sends. The fields
 * follow the Hub's documentation and huggingface_hub's `WebhookPayload`, plus
 * what the Python model drops (`repo.headSha` under its real camelCase name,
 * `updatedConfig`). Unknown extra keys are kept: the Hub may add fields. Every
 * optional field may also be `null`, as the Python model's `Optional[...] = None`
 * accepts.
 */

/** `event.action` values the Hub documents. */
export type WebhookAction = 'create' | 'delete' | 'move' | 'update';

/** Scopes the Hub documents; more may come, so any string is accepted. */
export type KnownWebhookScope = 'repo' | 'repo.content' | 'repo.config' | 'discussion' | 'discussion.comment';
export type WebhookScope = KnownWebhookScope | (string & {});

export type WebhookRepoType = 'model' | 'dataset' | 'space';
export type WebhookDiscussionStatus = 'open' | 'closed' | 'draft' | 'merged';

export interface WebhookObjectId {
  id: string;
}

export interface WebhookUrl {
  web: string;
  api?: string | null;
}

export interface WebhookEvent {
  action: WebhookAction;
  scope: WebhookScope;
}

export interface WebhookRepo {
  id: string;
  type: WebhookRepoType;
  /** The full repo id, `owner/name` (or a bare name for legacy repos such as `gpt2`). */
  name: string;
  owner: WebhookObjectId;
  private: boolean;
  url: WebhookUrl;
  /** Sha of the latest commit on `main`; sent only for `repo*` scopes. */
  headSha?: string | null;
  /** Spaces only. */
  subdomain?: string | null;
  tags?: string[] | null;
}

export interface WebhookDiscussionChanges {
  base: string;
  mergeCommitId?: string | null;
}

export interface WebhookDiscussion {
  id: string;
  num: number;
  title: string;
  author: WebhookObjectId;
  url: WebhookUrl;
  isPullRequest: boolean;
  status: WebhookDiscussionStatus;
  changes?: WebhookDiscussionChanges | null;
  pinned?: boolean | null;
}

export interface WebhookComment {
  id: string;
  author: WebhookObjectId;
  hidden: boolean;
  /** Absent when the comment is hidden. */
  content?: string | null;
  url: WebhookUrl;
}

export interface WebhookInfoRef {
  id: string;
  version: 3;
}

export interface WebhookMovedTo {
  name: string;
  owner: WebhookObjectId;
}

export interface WebhookUpdatedRef {
  ref: string;
  /** `null` for a newly created ref. */
  oldSha?: string | null;
  /** `null` for a deleted ref. */
  newSha?: string | null;
}

/** `repo.config` changes; only `private` is reported today, `{}` for others. */
export interface WebhookUpdatedConfig {
  private?: boolean | null;
  [key: string]: unknown;
}

export interface WebhookPayload {
  event: WebhookEvent;
  repo: WebhookRepo;
  webhook: WebhookInfoRef;
  discussion?: WebhookDiscussion | null;
  comment?: WebhookComment | null;
  movedTo?: WebhookMovedTo | null;
  updatedRefs?: WebhookUpdatedRef[] | null;
  updatedConfig?: WebhookUpdatedConfig | null;
}
