/**
 * The messages between `hub serve --supervise` and its children, over the IPC channel. They live
 * with the service, which sends and answers them, and the supervisor above it imports them from here.
 */

/** What the service sends its supervisor once it serves (ready, or keyMissing): from then on it counts as up. */
export const READY_MESSAGE = { type: 'emotion-hub:ready' } as const;

/** What the supervisor sends with each connection it hands to the serving child. */
export const CONNECTION_MESSAGE = { type: 'emotion-hub:connection' } as const;

/** What a child sends once it takes connections: from then on the new ones go to it. */
export const ACCEPTING_MESSAGE = { type: 'emotion-hub:accepting' } as const;

/** What a child sends when it stops taking chats and drains (a model failure): its successor takes over now. */
export const DRAINING_MESSAGE = { type: 'emotion-hub:draining' } as const;

/** What the supervisor tells the serving child once the one that drained before it has exited: its last writes are on disk. */
export const PREDECESSOR_GONE_MESSAGE = { type: 'emotion-hub:predecessor-gone' } as const;

/** What the supervisor sends its standby child when the service it ran has ended: serve now. */
export const SERVE_MESSAGE = { type: 'emotion-hub:serve' } as const;

/** What the standby child says once it has loaded. */
export const LOADED_MESSAGE = { type: 'emotion-hub:loaded' } as const;
