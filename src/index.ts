// The package's public surface: everything. `emotion-hub/webhooks`, `emotion-hub/hub` and
// `emotion-hub/chat` are the lighter entries (package.json "exports").
export * from './bus/events.js';
export { Bus, type BusOptions, type RequestInput } from './bus/bus.js';
export { BusClosedError, BusTimeoutError } from './bus/errors.js';
export { EventLog, type EventLogOptions } from './bus/event-log.js';
export { EventLogLineError, readEventLog, type LoggedEvent, type ReadEventLogOptions } from './bus/event-log-reader.js';
export * from './emotions/emotions.js';
export * from './emotions/schemas.js';
export { systemClock, fixedClock, type Clock } from './runtime/clock.js';
export { systemRandom, seededRandom, type Random } from './runtime/random.js';
export { createLogger, isDebugEnabled, REDACTED_PATHS, type Logger, type LoggerOptions } from './runtime/logger.js';
export { createChatSystem, type ChatSystem } from './system/chat-system.js';
export { adapters, type Adapters, type AdaptersDeps, type AdapterMode, type SystemAdapters } from './adapters/adapters.js';
export { inProcessAdapters, type InProcessAdapters } from './adapters/in-process-adapters.js';
export { createSystemMachine, phaseOf, type SystemServices } from './actors/system-machine.js';
export { machineJson, type MachineJson } from './system/machine-json.js';
export {
  DEFAULT_EMOTIONS,
  DECAY_FACTOR,
  DRIFT_AMPLITUDE,
  APPRAISAL_GAINS,
  SENTIMENT_WEIGHTS,
  clamp01,
  decay,
  saturate,
  applyAppraisal,
  applySentiment,
  processMessage,
  processSentimentMessage,
  applyDrift,
  driftDeltas,
  roundEmotions,
  roundAppraisal,
  round2,
} from './emotions/model.js';
export { chooseShape, energyOf, weightOf, SHAPE_THRESHOLDS } from './emotions/avatar.js';
export { analyzeSentiment, type SentimentAnalysis } from './emotions/sentiment.js';
export {
  appraise,
  APPRAISAL_LABELS,
  type Appraisal,
  type AppraisalModel,
  type AppraisalScores,
} from './appraisal/appraisal.js';
export { loadShippedModel } from './appraisal/shipped-model.js';
export { explain, type MoodExplanation, type MoodStep } from './emotions/mood-journal.js';
export { advanceAvatar, defaultState, NEUTRAL_SENTIMENT, type EmotionState } from './emotions/state.js';
export { foldEvent } from './replay/fold-event.js';
export { systemPrompt } from './providers/reply-writer.js';
export {
  EMOTIONS_FILE_VERSION,
  EmotionsFileError,
  loadEmotionsFile,
  parseEmotionsFile,
  serializeState,
  writeEmotionsFile,
  type EmotionsFile,
} from './persistence/emotions-file.js';
export { replayEvents, replayEventLog, NothingToReplayError, type ReplayOptions } from './replay/replay.js';
export * from './service/index.js';
export * from './webhooks/index.js';
export * from './hub/index.js';
