// The stand-in provider in its own process, over loopback HTTP: the chat servers reach it through
// the global fetch when BENCH_PROVIDER_URL names it, as a deployment reaches its provider.
import { providerStandIn } from '../../testkit/provider-stand-in.js';
import { memoryAfterGc, reportListening } from '../lib/child.js';
import { asked, benchProvider } from '../lib/openai-stand-in.js';

// Nothing recorded: it serves every chat of a bench run.
const provider = providerStandIn(benchProvider, { record: false });
reportListening(await provider.listen(), () => ({ ...memoryAfterGc(), ...asked }));
process.once('SIGTERM', () => void provider.close().then(() => process.exit(0)));
