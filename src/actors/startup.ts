import { fromPromise } from 'xstate';
import type { ProviderConfig } from '../config/chat-config.js';
import { appraise, type AppraisalModel } from '../appraisal/appraisal.js';
import { analyzeSentiment } from '../emotions/sentiment.js';
import { defaultState, type EmotionState } from '../emotions/state.js';
import { loadEmotionsFile, removeStaleTempFiles, serializeState, writeEmotionsFile } from '../persistence/emotions-file.js';
import type { Logger } from '../runtime/logger.js';
import { providerAddress, validateProviderKey } from '../providers/validate-key.js';

export interface MemoryStore {
  /** The persisted state, or the defaults when there was no file, or the replicas' shared state. */
  readonly state: EmotionState;
  readonly source: 'file' | 'defaults' | 'shared';
}

export interface MemoryStoreInput {
  readonly file: string;
  readonly now: string;
  /** The replicas' shared state: the system starts from it instead of the file. */
  readonly shared?: EmotionState;
  /** The state the embedded store committed last: the system starts from it when it is not older than the file. */
  readonly kept?: EmotionState;
}

/**
 * Stage 1: the memory store clears what a killed run left half-written and loads the emotions file
 * (a corrupt one fails startup); a replica starts from the state its shared ledger holds instead.
 * The embedded store commits each change before the file is written (at most 100 ms later): when
 * it holds a newer state than the file (a SIGKILL came in between), that state is the one, and the
 * file catches up at once. The visitors' conversations live in the conversation store the
 * composition root gives the system.
 */
export const loadMemoryStore = fromPromise<MemoryStore, MemoryStoreInput>(async ({ input }) => {
  await removeStaleTempFiles(input.file);
  if (input.shared) return { state: input.shared, source: 'shared' };
  const persisted = await loadEmotionsFile(input.file);
  const { kept } = input;
  if (kept !== undefined && (persisted === undefined || kept.lastUpdated >= persisted.lastUpdated)) {
    if (persisted === undefined || serializeState(kept) !== serializeState(persisted)) await writeEmotionsFile(input.file, kept);
    return { state: kept, source: 'file' };
  }
  return {
    state: persisted ?? defaultState(input.now),
    source: persisted ? 'file' : 'defaults',
  };
});

export interface SentimentProbeInput {
  readonly load: () => Promise<AppraisalModel>;
  /** Hands the loaded weights to the machine, for the sentiment actor. */
  readonly keep: (model: AppraisalModel) => void;
}

/** Phrases whose reading is beyond doubt: weights that read any of them otherwise are not the trained ones. */
const KNOWN_READINGS = [
  ['I am furious, this is outrageous', 'anger'],
  ['I am terrified and scared', 'fear'],
] as const;

/**
 * Stage 1: the sentiment analyzer loads its lexicon and the appraisal's weights (off the path to
 * the first answer: the server already listens), and both must read known phrases correctly.
 */
export const probeSentimentAnalyzer = fromPromise<string, SentimentProbeInput>(async ({ input }) => {
  const probe = analyzeSentiment('I love this, it is wonderful');
  if (probe.sentiment.sentiment !== 'positive')
    throw new Error('the AFINN lexicon did not load: a known positive phrase scored as not positive');
  let model: AppraisalModel;
  try {
    model = await input.load();
  } catch (error) {
    throw new Error(
      `the appraisal's weights did not load (${(error as Error).message}); reinstall the package or run npm run train:appraisal`,
    );
  }
  for (const [text, emotion] of KNOWN_READINGS) {
    const { strongest } = appraise(model, text);
    if (strongest !== emotion)
      throw new Error(`the appraisal's weights read "${text}" as ${strongest}, not ${emotion}: they are not the trained ones`);
  }
  input.keep(model);
  return `AFINN-165 lexicon and the appraisal (${model.rows.size} features) loaded`;
});

export interface ValidateKeyInput {
  readonly provider: ProviderConfig;
  /** The configured models this provider must offer. */
  readonly models: readonly string[];
  readonly timeoutMs: number;
  readonly logger: Logger;
  readonly fetch?: typeof fetch;
  /** A restart under `hub serve --supervise`: the first start checked the key, the provider is not asked again. */
  readonly checkedBefore?: boolean;
}

/** Stage 1: one provider key, validated by listing the provider's models, which must include the configured ones. */
export const validateKey = fromPromise<string, ValidateKeyInput>(async ({ input, signal }) => {
  if (input.checkedBefore) return 'checked at the first start of the supervised service';
  const { detail, modelsUnchecked } = await validateProviderKey(input.provider, input.models, input.timeoutMs, signal, input.fetch);
  if (modelsUnchecked !== undefined) {
    const where = providerAddress(input.provider);
    input.logger.warn(
      { models: input.models, provider: where },
      `the key for ${where} counts as valid, but ${modelsUnchecked}: whether it offers ${input.models.join(', ')} could not be checked`,
    );
  }
  return detail;
});
