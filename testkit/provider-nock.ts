// The one way a unit test mocks the provider's HTTP for the real openai client (outside HTTP is
// mocked with nock in unit tests): no real network in the file, the mocks cleared after each test.
import nock from 'nock';

/** The base URL the tests configure for the provider (LLM_BASE_URL) when they mock it with nock. */
export const MOCKED_BASE_URL = 'http://llm.test/v1';

interface TestHooks {
  before(fn: () => unknown): void;
  afterEach(fn: () => unknown): void;
  teardown(fn: () => unknown): void;
}

/**
 * Turns nock on for a whole test file: no network but the hosts in `allowed` (loopback, for a
 * served app), every mock gone after each test.
 */
export function mockProviderHttp(t: TestHooks, ...allowed: string[]): void {
  t.before(() => {
    nock.disableNetConnect();
    for (const host of allowed) nock.enableNetConnect(host);
  });
  t.afterEach(() => nock.cleanAll());
  t.teardown(() => nock.enableNetConnect());
}

/**
 * The provider at `baseURL` (`…/v1`) as one nock scope: its two routes, for the test to say what
 * they answer (`scope` for what spans both, as `persist()`).
 */
export function mockedProvider(baseURL = MOCKED_BASE_URL, options?: nock.Options) {
  const { origin, pathname } = new URL(baseURL);
  const scope = nock(origin, options);
  return {
    scope,
    models: () => scope.get(`${pathname}/models`),
    completions: (body?: nock.RequestBodyMatcher) => scope.post(`${pathname}/chat/completions`, body),
  };
}
