import { config } from 'zod';

// The app runs under a Content-Security-Policy without 'unsafe-eval' (platform/security-headers.ts). zod builds its
// fast object parsers with `new Function` and probes for it whenever an object schema is created, which the
// browser reports as a CSP violation even though zod catches the refusal. Jitless parsing never asks for eval.
// Imported first by main.tsx, before anything builds a schema.
config({ jitless: true });
