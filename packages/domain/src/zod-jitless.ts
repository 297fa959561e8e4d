// Imported first by browser entry points (the web app and its workers), before any schema is built. Zod builds a
// faster parser with `new Function` when eval is allowed, and probes for it when the first object schema is
// created; under the app's Content-Security-Policy (no 'unsafe-eval') the probe throws, which zod survives but the
// browser reports as a policy violation. Jitless mode skips the probe and the generated parsers.
import { config } from 'zod';

config({ jitless: true });
