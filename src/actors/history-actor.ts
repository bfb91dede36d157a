import { fromCallback, type EventObject } from 'xstate';
import type { Bus } from '../bus/bus.js';
import type { ConversationStore } from '../conversations/conversation-store.js';
import { publishLate } from '../bus/publish-late.js';
import { importPlan } from '../conversations/imported-exchanges.js';

export interface HistoryInput {
  readonly bus: Bus;
  readonly conversations: ConversationStore;
}

/**
 * Answers `history.requested` from the conversation store, in every phase: the visitor's turns
 * with their times, or none once forgotten (`forget`). A store that cannot answer says why, and
 * the route answers 503. Answers `history.import.requested` too: the imported messages remembered
 * exchange by exchange (after forgetting the conversation, with `replace`), as chats would have been.
 */
export const historyActor = fromCallback<EventObject, HistoryInput>(({ input: { bus, conversations } }) => {
  const subscription = bus.on('history.requested').subscribe(({ correlationId, session, forget }) => {
    const answer = forget ? conversations.forget(session).then(() => []) : conversations.messages(session);
    answer.then(
      (messages) => publishLate(bus, { type: 'history.reported', correlationId, messages: [...messages] }),
      (error: unknown) =>
        publishLate(bus, { type: 'history.reported', correlationId, messages: [], error: (error as Error).message ?? String(error) }),
    );
  });
  subscription.add(
    bus.on('history.import.requested').subscribe(({ correlationId, session, messages, replace }) => {
      const plan = importPlan(messages);
      const remembered = async () => {
        if (replace) await conversations.forget(session);
        for (const step of plan.steps) await conversations.remember(session, step.message, step.reply, step.times, step.marks);
      };
      remembered().then(
        () => publishLate(bus, { type: 'history.imported', correlationId, exchanges: plan.exchanges, skipped: plan.skipped }),
        (error: unknown) =>
          publishLate(bus, {
            type: 'history.imported',
            correlationId,
            exchanges: 0,
            skipped: 0,
            error: (error as Error).message ?? String(error),
          }),
      );
    }),
  );
  return () => subscription.unsubscribe();
});
