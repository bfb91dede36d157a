import { readFileSync } from 'node:fs';
import type { WebhookAction, WebhookPayload } from './payload.js';

/**
 * Every `scope: actions` pair the Hub documents, the first action being the one of the scope's file in
 * `samples/<scope>.json`; the others are made from that file by `actionVariant`.
 */
export const SAMPLE_EVENTS = {
  repo: ['create', 'update', 'delete', 'move'],
  'repo.content': ['update'],
  'repo.config': ['update'],
  discussion: ['create', 'update', 'delete'],
  'discussion.comment': ['create', 'update'],
} as const satisfies Record<string, readonly WebhookAction[]>;

export type SampleScope = keyof typeof SAMPLE_EVENTS;
export const SAMPLE_SCOPES = Object.keys(SAMPLE_EVENTS) as SampleScope[];

/** `scope:action` of every sample, for help texts and errors. */
export const SAMPLE_EVENT_NAMES = SAMPLE_SCOPES.flatMap((scope) => SAMPLE_EVENTS[scope].map((action) => `${scope}:${action}`));

/** The sample delivery of a scope as the Hub would send it: JSON text, read when asked for. */
export function samplePayloadText(scope: SampleScope): string {
  if (!SAMPLE_SCOPES.includes(scope))
    throw new RangeError(`No sample payload for scope "${String(scope)}"; scopes: ${SAMPLE_SCOPES.join(', ')}.`);
  return readFileSync(new URL(`./samples/${scope}.json`, import.meta.url), 'utf8');
}

/** A fresh copy of the sample delivery of a scope and action (default: the scope's first), safe to change. */
export function samplePayload(scope: SampleScope, action?: WebhookAction): WebhookPayload {
  const payload = JSON.parse(samplePayloadText(scope)) as WebhookPayload;
  if (action === undefined || action === payload.event.action) return payload;
  if (!(SAMPLE_EVENTS[scope] as readonly string[]).includes(action))
    throw new RangeError(`No sample for ${scope}:${action}; the Hub documents ${SAMPLE_EVENT_NAMES.join(', ')}.`);
  return actionVariant(payload, action);
}

/** What the Hub sends differently for another action of the same scope. */
function actionVariant(payload: WebhookPayload, action: WebhookAction): WebhookPayload {
  const variant: WebhookPayload = { ...payload, event: { ...payload.event, action } };
  const { discussion, comment, repo } = payload;
  if (action === 'move') {
    variant.movedTo = { name: `${repo.name}-renamed`, owner: repo.owner };
  } else if (payload.event.scope === 'discussion' && discussion) {
    // A status change (update) or a deletion carries the discussion, not the comment that opened it.
    delete variant.comment;
    if (action === 'update') variant.discussion = { ...discussion, status: 'closed' };
  } else if (payload.event.scope === 'discussion.comment' && comment) {
    variant.comment = { ...comment, content: `${comment.content ?? ''} (edited)` };
  }
  return variant;
}
