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
export { loadChatConfig, ConfigError, DEFAULT_MODEL, type ChatConfig, type ProviderConfig } from './config/chat-config.js';
export * from './hub/index.js';
