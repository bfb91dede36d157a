/**
 * JSON schemas of the success bodies the page polls and the chat's. Fastify compiles them
 * into serializers (fast-json-stringify), several times faster than
 * JSON.stringify on these hot routes, and they pin the fields that go out:
 * nothing the schema does not name reaches a client.
 */
import { AVATAR_SHAPES, EMOTION_NAMES, SENTIMENT_LABELS } from '../emotions/emotions.js';

const emotions = {
  type: 'object',
  required: [...EMOTION_NAMES],
  properties: Object.fromEntries(EMOTION_NAMES.map((name) => [name, { type: 'number' }])),
} as const;

const avatarShape = { type: 'string', enum: [...AVATAR_SHAPES] } as const;

export const avatarResponse = {
  200: {
    type: 'object',
    required: ['avatar_shape', 'emotions', 'sentiment', 'is_initialized', 'last_updated', 'status'],
    properties: {
      avatar_shape: avatarShape,
      emotions,
      sentiment: {
        type: 'object',
        required: ['sentiment', 'positive', 'negative'],
        properties: {
          sentiment: { type: 'string', enum: [...SENTIMENT_LABELS] },
          positive: { type: 'number' },
          negative: { type: 'number' },
        },
      },
      is_initialized: { type: 'boolean' },
      last_updated: { type: 'string' },
      status: { type: 'string' },
    },
  },
} as const;

export const healthResponse = {
  200: {
    type: 'object',
    required: ['status', 'timestamp'],
    properties: { status: { type: 'string' }, timestamp: { type: 'string' } },
  },
} as const;

export const statusResponse = {
  200: {
    type: 'object',
    required: ['is_initialized', 'initializing', 'emotions', 'avatar_shape', 'missing_llm_key'],
    properties: {
      is_initialized: { type: 'boolean' },
      initializing: { type: 'boolean' },
      emotions,
      avatar_shape: avatarShape,
      missing_llm_key: { type: 'boolean' },
    },
  },
} as const;

export const chatResponse = {
  200: {
    type: 'object',
    required: ['response', 'avatar_shape', 'emotions', 'is_initialized'],
    properties: {
      response: { type: 'string' },
      avatar_shape: avatarShape,
      emotions,
      is_initialized: { type: 'boolean' },
    },
  },
} as const;
