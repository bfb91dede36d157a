/** A request whose reply did not come in time. */
export class BusTimeoutError extends Error {
  override readonly name = 'BusTimeoutError';
  constructor(
    readonly requestType: string,
    readonly replyTypes: readonly string[],
    readonly timeoutMs: number,
    readonly correlationId: string,
  ) {
    super(`no ${replyTypes.join(' or ')} reply to ${requestType} (${correlationId}) within ${timeoutMs} ms`);
  }
}

/** An event sent on a bus that has been closed, or a request whose bus closed before its reply came. */
export class BusClosedError extends Error {
  override readonly name = 'BusClosedError';
  constructor(
    readonly eventType: string,
    detail = `cannot send ${eventType}`,
  ) {
    super(`the bus is closed: ${detail}`);
  }
}
