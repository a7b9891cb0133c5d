// Runs in the browser before the app's own code (Next's client instrumentation entry). zod v4 probes
// `new Function("")` for its JIT on the first object parse (the AI SDK's stream parsing, the forms), and under the
// CSP, which has no 'unsafe-eval' (lib/api/content-security-policy.mjs), that probe is reported as a violation even
// though zod catches the refusal. Jitless zod never probes; it validates the same way, without compiled parsers.
import { config } from "zod";

config({ jitless: true });
