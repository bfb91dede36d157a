// The package's public surface.
export * from './bus/events.js';
export { Bus, type BusOptions, type RequestInput } from './bus/bus.js';
export { BusClosedError, BusTimeoutError } from './bus/errors.js';
export { EventLog, type EventLogOptions } from './bus/event-log.js';
export { EventLogLineError, readEventLog, type ReadEventLogOptions } from './bus/event-log-reader.js';
export * from './emotions/emotions.js';
export { systemClock, fixedClock, type Clock } from './runtime/clock.js';
export { systemRandom, seededRandom, type Random } from './runtime/random.js';
export { createLogger, isDebugEnabled, REDACTED_PATHS, type Logger, type LoggerOptions } from './runtime/logger.js';
export {
  loadChatConfig,
  ConfigError,
  DEFAULT_MODEL,
  type ChatConfig,
  type ModelFailurePolicy,
  type ProviderConfig,
  type TrustProxy,
} from './config/chat-config.js';
export { DEFAULT_MEMORY_EXCHANGES, type ConversationStore, type ConversationTurn } from './sessions/conversation-store.js';
export { MemoryConversationStore, type MemoryConversationStoreOptions } from './sessions/memory-conversation-store.js';
export type { MoodChange, MoodLedger } from './mood/mood-ledger.js';
export { LocalMoodLedger, MoodLedgerClosedError } from './mood/local-mood-ledger.js';
export { createChatSystem, type ChatSystem, type ChatSystemDeps } from './actors/chat-system.js';
export { createSystemMachine, phaseOf, type SystemServices } from './actors/system-machine.js';
export { machineJson, type MachineJson } from './actors/machine-json.js';
export {
  DEFAULT_EMOTIONS,
  DECAY_FACTOR,
  DRIFT_AMPLITUDE,
  SENTIMENT_WEIGHTS,
  clamp01,
  decay,
  saturate,
  applySentiment,
  processMessage,
  applyDrift,
  driftDeltas,
  roundEmotions,
  round2,
} from './emotions/model.js';
export { chooseShape, energyOf, SHAPE_THRESHOLDS } from './emotions/avatar.js';
export { analyzeSentiment, type SentimentAnalysis } from './emotions/sentiment.js';
export { advanceAvatar, defaultState, NEUTRAL_SENTIMENT, type EmotionState } from './emotions/state.js';
export { foldEvent } from './actors/fold-event.js';
export {
  EMOTIONS_FILE_VERSION,
  EmotionsFileError,
  loadEmotionsFile,
  parseEmotionsFile,
  serializeState,
  writeEmotionsFile,
  type EmotionsFile,
} from './persistence/emotions-file.js';
export { replayEvents, replayEventLog, NothingToReplayError, type ReplayOptions } from './actors/replay.js';
export { buildApp, bodyLimitFor, POLL_INTERVAL_MS, type AppOptions } from './http/app.js';
export { CONTENT_SECURITY_POLICY, SECURITY_HEADERS } from './http/security-headers.js';
export { HTTP_ERRORS, HttpError, httpError, type HttpErrorCode, type ErrorBody } from './http/errors.js';
export {
  startChatService,
  ServiceStartError,
  type ChatService,
  type ChatServiceOptions,
  type RunnableSystem,
  type SystemDeps,
  type SystemFactory,
} from './service/chat-service.js';
export { runChatService, type RunChatServiceOptions } from './service/run-chat-service.js';
export * from './webhooks/index.js';
export * from './hub/index.js';
