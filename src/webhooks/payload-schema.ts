import type { JSONSchemaType } from 'ajv';
import type {
  WebhookAction,
  WebhookComment,
  WebhookDiscussion,
  WebhookDiscussionChanges,
  WebhookDiscussionStatus,
  WebhookEvent,
  WebhookInfoRef,
  WebhookMovedTo,
  WebhookObjectId,
  WebhookPayload,
  WebhookRepo,
  WebhookRepoType,
  WebhookUpdatedConfig,
  WebhookUpdatedRef,
  WebhookUrl,
} from './payload.js';

// Plain JSON schema rather than typebox's builder, which is hundreds of modules that
// `import 'emotion-hub/webhooks'` would load. Ajv's `JSONSchemaType` ties each part to its
// hand-written type: a field added, dropped, retyped or made optional on one side only fails to
// compile. `nullable: true` is how it spells an optional field, which may also be `null`, as
// huggingface_hub's `Optional[...] = None` accepts. Enums rather than `anyOf` literals: a
// mismatch then reads "must be one of ..." once. No `additionalProperties`: extra keys are kept.

type RequiredKey<T> = { [K in keyof T]-?: undefined extends T[K] ? never : K }[keyof T];

/**
 * The keys of `all`, which must be every member of `K` and nothing else. For `required` lists and
 * enums, which `JSONSchemaType` would accept incomplete: a required field forgotten in the list
 * would be optional at run time, a value forgotten in an enum refused.
 */
function every<K extends string>(all: Record<K, true>): K[] {
  return Object.keys(all) as K[];
}

const objectId: JSONSchemaType<WebhookObjectId> = {
  type: 'object',
  required: every<RequiredKey<WebhookObjectId>>({ id: true }),
  properties: { id: { type: 'string' } },
};

const url: JSONSchemaType<WebhookUrl> = {
  type: 'object',
  required: every<RequiredKey<WebhookUrl>>({ web: true }),
  properties: { web: { type: 'string' }, api: { type: 'string', nullable: true } },
};

const nullableString = { type: 'string', nullable: true } as const;

const event: JSONSchemaType<WebhookEvent> = {
  type: 'object',
  required: every<RequiredKey<WebhookEvent>>({ action: true, scope: true }),
  properties: {
    action: { type: 'string', enum: every<WebhookAction>({ create: true, delete: true, move: true, update: true }) },
    scope: { type: 'string' },
  },
};

const repo: JSONSchemaType<WebhookRepo> = {
  type: 'object',
  required: every<RequiredKey<WebhookRepo>>({ id: true, type: true, name: true, owner: true, private: true, url: true }),
  properties: {
    id: { type: 'string' },
    type: { type: 'string', enum: every<WebhookRepoType>({ model: true, dataset: true, space: true }) },
    name: { type: 'string' },
    owner: objectId,
    private: { type: 'boolean' },
    url,
    headSha: nullableString,
    subdomain: nullableString,
    tags: { type: 'array', items: { type: 'string' }, nullable: true },
  },
};

const webhook: JSONSchemaType<WebhookInfoRef> = {
  type: 'object',
  required: every<RequiredKey<WebhookInfoRef>>({ id: true, version: true }),
  properties: { id: { type: 'string' }, version: { type: 'integer', const: 3 } },
};

const changes: JSONSchemaType<WebhookDiscussionChanges> = {
  type: 'object',
  required: every<RequiredKey<WebhookDiscussionChanges>>({ base: true }),
  properties: { base: { type: 'string' }, mergeCommitId: nullableString },
};

const discussion: JSONSchemaType<WebhookDiscussion> = {
  type: 'object',
  required: every<RequiredKey<WebhookDiscussion>>({
    id: true,
    num: true,
    title: true,
    author: true,
    url: true,
    isPullRequest: true,
    status: true,
  }),
  properties: {
    id: { type: 'string' },
    num: { type: 'integer' },
    title: { type: 'string' },
    author: objectId,
    url,
    isPullRequest: { type: 'boolean' },
    status: { type: 'string', enum: every<WebhookDiscussionStatus>({ open: true, closed: true, draft: true, merged: true }) },
    changes: { ...changes, nullable: true },
    pinned: { type: 'boolean', nullable: true },
  },
};

const comment: JSONSchemaType<WebhookComment> = {
  type: 'object',
  required: every<RequiredKey<WebhookComment>>({ id: true, author: true, hidden: true, url: true }),
  properties: { id: { type: 'string' }, author: objectId, hidden: { type: 'boolean' }, content: nullableString, url },
};

const movedTo: JSONSchemaType<WebhookMovedTo> = {
  type: 'object',
  required: every<RequiredKey<WebhookMovedTo>>({ name: true, owner: true }),
  properties: { name: { type: 'string' }, owner: objectId },
};

const updatedRef: JSONSchemaType<WebhookUpdatedRef> = {
  type: 'object',
  required: every<RequiredKey<WebhookUpdatedRef>>({ ref: true }),
  properties: { ref: { type: 'string' }, oldSha: nullableString, newSha: nullableString },
};

/** `updatedConfig` as described: `JSONSchemaType` cannot express its index signature (other keys, kept as they come). */
type DescribedConfig = Pick<WebhookUpdatedConfig, 'private'>;

const updatedConfig: JSONSchemaType<DescribedConfig> = {
  type: 'object',
  properties: { private: { type: 'boolean', nullable: true } },
};

/** {@link WebhookPayload} as the schema describes it. */
type DescribedPayload = Omit<WebhookPayload, 'updatedConfig'> & { updatedConfig?: DescribedConfig | null };

/** JSON schema of {@link WebhookPayload}; extra keys are allowed (and kept) everywhere. */
export const WebhookPayloadSchema: JSONSchemaType<DescribedPayload> = {
  type: 'object',
  required: every<RequiredKey<DescribedPayload>>({ event: true, repo: true, webhook: true }),
  properties: {
    event,
    repo,
    webhook,
    discussion: { ...discussion, nullable: true },
    comment: { ...comment, nullable: true },
    movedTo: { ...movedTo, nullable: true },
    updatedRefs: { type: 'array', items: updatedRef, nullable: true },
    updatedConfig: { ...updatedConfig, nullable: true },
  },
};
