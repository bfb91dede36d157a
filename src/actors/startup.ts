import { readFile } from 'node:fs/promises';
import { fromPromise } from 'xstate';
import type { ProviderConfig } from '../config/chat-config.js';
import { appraise, type AppraisalModel } from '../appraisal/appraisal.js';
import { analyzeSentiment } from '../emotions/sentiment.js';
import { defaultState, type EmotionState } from '../emotions/state.js';
import { loadEmotionsFile, removeStaleTempFiles, serializeState, writeEmotionsFile } from '../persistence/emotions-file.js';
import type { MoodLedger } from '../mood-ledger/mood-ledger.js';
import type { Logger } from '../runtime/logger.js';
import { providerAddress, validateProviderKey } from '../providers/validate-key.js';

export interface MemoryStore {
  /** The state the run starts from: the ledger's lasting copy, else the emotions file, else the defaults. */
  readonly state: EmotionState;
  readonly source: 'store' | 'shared' | 'file' | 'defaults';
}

export interface MemoryStoreInput {
  readonly file: string;
  readonly now: string;
  /** The ledger the mood changes through: what it holds is the state, and it is told where the run starts. */
  readonly ledger: Pick<MoodLedger, 'held' | 'startFrom'>;
}

/**
 * Stage 1: the memory store clears what a killed run left half-written and finds the state the run
 * starts from. There is one lasting copy of the mood per mode: the embedded store's, the replicas'
 * shared one on Redis, or (in-process) the emotions file itself. A ledger that holds a state is
 * the truth, and the emotions file, only ever written from it, is brought in line at once when it
 * shows another (the embedded store's; a replica's follows the changes); otherwise the file is read (a corrupt one fails startup), or the defaults used,
 * and the ledger starts from that (the embedded store committing it as its first state).
 */
export const loadMemoryStore = fromPromise<MemoryStore, MemoryStoreInput>(async ({ input }) => {
  await removeStaleTempFiles(input.file);
  const { held } = input.ledger;
  let store: MemoryStore;
  if (held !== undefined) {
    // The store's view catches up at once. A replica's file is its own local copy, written as the
    // shared mood changes (its folder may not exist yet: replicas need none).
    if (held.where === 'store' && (await readFile(input.file, 'utf8').catch(() => undefined)) !== serializeState(held.state))
      await writeEmotionsFile(input.file, held.state);
    store = { state: held.state, source: held.where };
  } else {
    const persisted = await loadEmotionsFile(input.file);
    store = { state: persisted ?? defaultState(input.now), source: persisted ? 'file' : 'defaults' };
  }
  input.ledger.startFrom(store.state);
  return store;
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
