/** A visitor's browser, as far as cookies go: it keeps what Set-Cookie gives and sends it back. */
export class CookieJar {
  private cookie: string | undefined;
  readonly setCookies: string[] = [];

  /** The service the visitor talks to; change it to send the same visitor to another replica. */
  constructor(public address: string) {}

  get value(): string | undefined {
    return this.cookie?.split('=')[1];
  }

  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookie) headers.set('cookie', this.cookie);
    const response = await fetch(`${this.address}${path}`, { ...init, headers });
    for (const line of response.headers.getSetCookie()) {
      this.setCookies.push(line);
      this.cookie = line.split(';')[0];
    }
    return response;
  }

  async chat(message: string): Promise<{ status: number; body: any }> {
    const response = await this.fetch('/api/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message }),
    });
    return { status: response.status, body: await response.json() };
  }
}
