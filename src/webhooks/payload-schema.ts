import { Type, type Static, type TSchema } from 'typebox';
import type { WebhookPayload } from './payload.js';

// Enums rather than unions of literals: a mismatch then reads "must be equal
// to one of the allowed values" once, instead of one line per literal.
const ObjectId = Type.Object({ id: Type.String() });
/** An optional field that may also be `null`, as huggingface_hub's `Optional[...] = None` accepts. */
const Maybe = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));
const Url = Type.Object({ web: Type.String(), api: Maybe(Type.String()) });

/** JSON schema of {@link WebhookPayload}; extra keys are allowed (and kept) everywhere. */
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
    headSha: Maybe(Type.String()),
    subdomain: Maybe(Type.String()),
    tags: Maybe(Type.Array(Type.String())),
  }),
  webhook: Type.Object({ id: Type.String(), version: Type.Literal(3) }),
  discussion: Maybe(
    Type.Object({
      id: Type.String(),
      num: Type.Integer(),
      title: Type.String(),
      author: ObjectId,
      url: Url,
      isPullRequest: Type.Boolean(),
      status: Type.Enum(['open', 'closed', 'draft', 'merged']),
      changes: Maybe(Type.Object({ base: Type.String(), mergeCommitId: Maybe(Type.String()) })),
      pinned: Maybe(Type.Boolean()),
    }),
  ),
  comment: Maybe(
    Type.Object({
      id: Type.String(),
      author: ObjectId,
      hidden: Type.Boolean(),
      content: Maybe(Type.String()),
      url: Url,
    }),
  ),
  movedTo: Maybe(Type.Object({ name: Type.String(), owner: ObjectId })),
  updatedRefs: Maybe(Type.Array(Type.Object({ ref: Type.String(), oldSha: Maybe(Type.String()), newSha: Maybe(Type.String()) }))),
  updatedConfig: Maybe(Type.Object({ private: Maybe(Type.Boolean()) })),
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
  Assert<Same<Schema['updatedConfig'], Pick<NonNullable<WebhookPayload['updatedConfig']>, 'private'> | null | undefined>>,
];
