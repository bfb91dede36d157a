import { merge, type Subscription } from 'rxjs';
import type { Bus } from '../bus/bus.js';
import type { AppraisalModelRead } from '../bus/events.js';
import type { Emotions } from '../emotions/emotions.js';
import { topLabel } from '../appraisal/label.js';
import type { Logger } from '../runtime/logger.js';

/** A chat as the terminal names it: its correlation id's sequence (`chat #1a`), never the visitor or the text. */
export function chatName(correlationId: string): string {
  return `chat #${correlationId.slice(correlationId.lastIndexOf('-') + 1)}`;
}

function moodLine(emotions: Emotions): string {
  return Object.entries(emotions)
    .map(([name, value]) => `${name} ${value.toFixed(2)}`)
    .join(', ');
}

/** What the second reader's request took (`APPRAISAL=model`): one request, and its tokens when the provider said. */
function costOf({ usage }: AppraisalModelRead): string {
  const tokens = usage ? `${usage.prompt} prompt + ${usage.completion} completion tokens` : 'tokens not reported';
  return `1 extra request, ${tokens}`;
}

const NOT_USED: Record<Exclude<AppraisalModelRead['outcome'], 'used'>, string> = {
  failed: 'failed',
  late: 'came too late',
};

const seconds = (fromIso: string, toIso: string) => ((Date.parse(toIso) - Date.parse(fromIso)) / 1000).toFixed(1);

/**
 * A few info lines per chat, each saying what happened: accepted, read as (the emotion the appraisal
 * found strongest, with its probability, and the AFINN sentiment; under `APPRAISAL=model` also
 * how the model read it and what that extra request took),
 * committed (the mood after it), replied (length and time), or refused and why. Sizes, labels and
 * numbers only: no message or reply text reaches the terminal (`EVENT_LOG` is where text goes).
 */
export function narrateChats(bus: Bus, logger: Logger): Subscription {
  const acceptedAt = new Map<string, string>();
  return merge(
    bus.on('chat.accepted'),
    bus.on('sentiment.analyzed'),
    bus.on('appraisal.model.read'),
    bus.on('mood.changed'),
    bus.on('chat.replied'),
    bus.on('chat.rejected'),
  ).subscribe((event) => {
    switch (event.type) {
      case 'chat.accepted':
        acceptedAt.set(event.correlationId, event.at);
        logger.info(`${chatName(event.correlationId)} accepted: ${event.message.length} characters${event.stream ? ', streamed' : ''}`);
        break;
      case 'sentiment.analyzed':
        logger.info(
          `${chatName(event.correlationId)} read as ${topLabel(event.appraisal)} (${event.appraisal.strongest} ${event.appraisal.emotions[event.appraisal.strongest].toFixed(2)}, neutral ${event.appraisal.neutral.toFixed(2)}; sentiment ${event.sentiment.sentiment}, score ${event.score})`,
        );
        break;
      case 'appraisal.model.read':
        logger.info(
          event.outcome === 'used'
            ? `${chatName(event.correlationId)} read as ${event.reading} by the model ${event.model}: ${costOf(event)}`
            : `${chatName(event.correlationId)} read locally, the model ${event.model}'s reading ${NOT_USED[event.outcome]}: ${costOf(event)}`,
        );
        break;
      case 'mood.changed':
        if (event.change.kind === 'chat') {
          // Whose reading moved the mood: the model's replaced the local "read as" line's.
          const byModel = event.change.appraisal?.source === 'model' ? ' (read by the model)' : '';
          logger.info(`${chatName(event.change.correlationId)} committed${byModel}: ${event.avatarShape}, ${moodLine(event.emotions)}`);
        }
        break;
      case 'chat.replied': {
        const since = acceptedAt.get(event.correlationId);
        acceptedAt.delete(event.correlationId);
        const took = since === undefined ? '' : ` in ${seconds(since, event.at)} s`;
        logger.info(`${chatName(event.correlationId)} replied: ${event.response.length} characters${took}`);
        break;
      }
      case 'chat.rejected':
        // Refused before it was accepted (the phase, a full queue) or failed on the way: said either way.
        acceptedAt.delete(event.correlationId);
        logger.info(`${chatName(event.correlationId)} refused (${event.reason}): ${event.error}`);
        break;
    }
  });
}
