import type { Bus } from './bus.js';
import { BusClosedError } from './errors.js';
import type { EventInput } from './events.js';

/**
 * Publishes from an asynchronous callback (a finished provider call or file write) that may land
 * after the owner closed the bus at shutdown: that late event has nobody to tell, so it is dropped.
 */
export function publishLate(bus: Bus, event: EventInput): void {
  try {
    bus.publish(event);
  } catch (error) {
    if (!(error instanceof BusClosedError)) throw error;
  }
}
