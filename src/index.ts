// The package's public surface, as docs/architecture.md#the-packages-exports lists it: the three
// lighter entries whole (package.json "exports"), and beside them the chat library a program needs to
// run the actor system itself, read its event log and replay it. Internals stay out.
export * from './hub/index.js';
export * from './webhooks/index.js';
export * from './service/index.js';
// The catalogue of what the bus carries: every event's schema and type, the emotions' and the state's.
export * from './bus/events.js';
export * from './emotions/emotions.js';
export * from './emotions/schemas.js';
export { Bus, type BusOptions, type RequestInput } from './bus/bus.js';
export { BusTimeoutError } from './bus/errors.js';
export { EventLogLineError, readEventLog, type LoggedEvent, type ReadEventLogOptions } from './bus/event-log-reader.js';
export { createChatSystem, type ChatSystem } from './system/chat-system.js';
export { adapters, type Adapters, type AdaptersDeps, type AdapterMode, type SystemAdapters } from './adapters/adapters.js';
export { inProcessAdapters, type InProcessAdapters } from './adapters/in-process-adapters.js';
export { createSystemMachine } from './actors/system-machine.js';
export type { SystemServices } from './actors/system-setup.js';
export { machineJson, type MachineJson } from './system/machine-json.js';
export { systemClock, fixedClock, type Clock } from './runtime/clock.js';
export { systemRandom, seededRandom, type Random } from './runtime/random.js';
export { createLogger, type Logger, type LoggerOptions } from './runtime/logger.js';
export { DEFAULT_EMOTIONS, applyAppraisal, processSentimentMessage, roundEmotions } from './emotions/model.js';
export { chooseShape } from './emotions/avatar.js';
export { analyzeSentiment, type SentimentAnalysis } from './emotions/sentiment.js';
export { appraise, type AppraisalModel } from './appraisal/appraisal.js';
export { loadShippedModel } from './appraisal/shipped-model.js';
export { systemPrompt } from './providers/reply-writer.js';
export { foldEvent } from './replay/fold-event.js';
export { replayEventLog, NothingToReplayError, type ReplayOptions } from './replay/replay.js';
