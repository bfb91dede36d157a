import { HubConfigError } from './errors.js';
import type { HubOptions } from './hub-options.js';

/** What every hub call takes (HubOptions), in the order a message lists them. */
const HUB_OPTION_NAMES = ['accessToken', 'token', 'hubUrl', 'fetch', 'signal'] as const satisfies readonly (keyof HubOptions)[];

/**
 * Names that other Hub clients, the docs and the environment give an option of this library. A caller
 * who passes `endpoint` (huggingface_hub's name, the CLI's `HF_ENDPOINT`) would otherwise be sent to
 * the default hub with their token. Keys are compared lower-case, without `_` and `-`.
 */
const ALSO_KNOWN_AS: Readonly<Record<string, (typeof HUB_OPTION_NAMES)[number]>> = {
  endpoint: 'hubUrl',
  hfendpoint: 'hubUrl',
  hubendpoint: 'hubUrl',
  baseurl: 'hubUrl',
  credentials: 'accessToken',
  hftoken: 'accessToken',
};

const WHAT: Readonly<Record<string, string>> = { hubUrl: "the hub's base URL", accessToken: 'the token' };

const folded = (name: string) => name.toLowerCase().replace(/[-_]/g, '');

/**
 * Refuses, before anything is sent, an option `call` does not take: its own fields (`own`) and the
 * hub options are all it knows. A name it can place (`endpoint`, `hubURL`, `credentials`, …) is
 * answered with the right one; any other with the whole list.
 */
export function checkOptionNames(call: string, params: object, own: readonly string[] = []): void {
  const known: readonly string[] = [...own, ...HUB_OPTION_NAMES];
  for (const name of Object.keys(params)) {
    if (known.includes(name)) continue;
    const meant = ALSO_KNOWN_AS[folded(name)] ?? known.find((candidate) => folded(candidate) === folded(name));
    if (meant !== undefined) {
      const hint = WHAT[meant] === undefined ? `did you mean \`${meant}\`?` : `${WHAT[meant]} is \`${meant}\`.`;
      throw new HubConfigError(`${call} has no option \`${name}\`: ${hint} Nothing was sent.`);
    }
    throw new HubConfigError(
      `${call} has no option \`${name}\`; it takes ${known.map((option) => `\`${option}\``).join(', ')}. Nothing was sent.`,
    );
  }
}
