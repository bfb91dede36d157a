import { Type, type Static } from 'typebox';
import type { WebhookPayload } from './payload.js';

// Enums rather than unions of literals: a mismatch then reads "must be equal
// to one of the allowed values" once, instead of one line per literal.
const ObjectId = Type.Object({ id: Type.String() });
const Url = Type.Object({ web: Type.String(), api: Type.Optional(Type.String()) });
const NullableSha = Type.Optional(Type.Union([Type.String(), Type.Null()]));

/** JSON schema of {@link WebhookPayload}; extra keys are allowed everywhere. */
export const WebhookPayloadSchema = Type.Object({
  event: Type.Object({
    action: Type.Enum(['create', 'delete', 'move', 'update']),
    scope: Type.String(),
  }),
  repo: Type.Object({
    id: Type.String(),
    type: Type.Enum(['model', 'dataset', 'space']),
    name: Type.String(),
    owner: ObjectId,
    private: Type.Boolean(),
    url: Url,
    headSha: Type.Optional(Type.String()),
    subdomain: Type.Optional(Type.String()),
    tags: Type.Optional(Type.Array(Type.String())),
  }),
  webhook: Type.Object({ id: Type.String(), version: Type.Literal(3) }),
  discussion: Type.Optional(
    Type.Object({
      id: Type.String(),
      num: Type.Integer(),
      title: Type.String(),
      author: ObjectId,
      url: Url,
      isPullRequest: Type.Boolean(),
      status: Type.Enum(['open', 'closed', 'draft', 'merged']),
      changes: Type.Optional(Type.Object({ base: Type.String(), mergeCommitId: Type.Optional(Type.String()) })),
      pinned: Type.Optional(Type.Boolean()),
    }),
  ),
  comment: Type.Optional(
    Type.Object({
      id: Type.String(),
      author: ObjectId,
      hidden: Type.Boolean(),
      content: Type.Optional(Type.String()),
      url: Url,
    }),
  ),
  movedTo: Type.Optional(Type.Object({ name: Type.String(), owner: ObjectId })),
  updatedRefs: Type.Optional(Type.Array(Type.Object({ ref: Type.String(), oldSha: NullableSha, newSha: NullableSha }))),
  updatedConfig: Type.Optional(Type.Object({ private: Type.Optional(Type.Boolean()) })),
});

// The hand-written types are the documentation; this alias fails to compile
// when the schema and they drift apart.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
type Schema = Static<typeof WebhookPayloadSchema>;
export type SchemaMatchesTypes = [
  Assert<Same<Omit<Schema, 'event' | 'updatedConfig'>, Omit<WebhookPayload, 'event' | 'updatedConfig'>>>,
  Assert<Same<Schema['event']['action'], WebhookPayload['event']['action']>>,
  Assert<Same<Schema['event']['scope'], string>>,
  Assert<Same<Schema['updatedConfig'], Pick<NonNullable<WebhookPayload['updatedConfig']>, 'private'> | undefined>>,
];
