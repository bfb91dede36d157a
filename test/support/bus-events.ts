import type { BusEvent, MoodChanged } from '../../src/bus/events.js';

/** The events of one type, typed as such. */
export function ofType<T extends BusEvent['type']>(events: BusEvent[], type: T): Extract<BusEvent, { type: T }>[] {
  return events.filter((event): event is Extract<BusEvent, { type: T }> => event.type === type);
}

/** The chat whose change a `mood.changed` carries; undefined for a drift or a snapshot. */
export function correlationOf(event: MoodChanged | undefined): string | undefined {
  return event?.change.kind === 'chat' ? event.change.correlationId : undefined;
}
