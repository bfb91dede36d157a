// The chat service's public surface: `emotion-hub/chat`.
export {
  loadChatConfig,
  ConfigError,
  DEFAULT_MODEL,
  type ChatConfig,
  type ModelFailurePolicy,
  type ProviderConfig,
  type TrustProxy,
} from '../config/chat-config.js';
export { DEFAULT_MEMORY_EXCHANGES, type ConversationStore, type ConversationTurn } from '../conversations/conversation-store.js';
export { DEFAULT_MAX_SESSION_BYTES } from '../config/defaults.js';
export { MemoryConversationStore, type MemoryConversationStoreOptions } from '../conversations/memory-conversation-store.js';
export type { MoodChange, MoodLedger } from '../mood-ledger/mood-ledger.js';
export { LocalMoodLedger, MoodLedgerClosedError } from '../mood-ledger/local-mood-ledger.js';
export { buildApp, bodyLimitFor, POLL_INTERVAL_MS, type AppOptions } from '../http/app.js';
export { CONTENT_SECURITY_POLICY, SECURITY_HEADERS, contentSecurityPolicy, securityHeaders } from '../http/security-headers.js';
export { sessionCookieAttributes, type CookiePolicy, type SessionCookieAttributes } from '../http/cookie-attributes.js';
export { HttpError, httpError, type HttpErrorCode, type ErrorBody } from '../http/errors.js';
export { ERRORS, type ErrorCode, type ErrorEntry } from '../errors/catalogue.js';
export { phaseError, type PhaseErrorCode } from '../http/phase-errors.js';
export {
  startChatService,
  ServiceStartError,
  type ChatService,
  type ChatServiceOptions,
  type RunnableSystem,
  type SystemFactory,
} from './chat-service.js';
export type { SystemServices } from '../actors/system-setup.js';
export { runChatService, type RunChatServiceOptions } from './run-chat-service.js';
