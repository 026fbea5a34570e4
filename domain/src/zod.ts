// zod with Portuguese default messages: every schema of Novus imports z from here.
import { z } from 'zod';

// In the browser the page's Content-Security-Policy forbids eval, and zod's probe for it (a new Function before it
// compiles a parser) is reported as a violation on every page although zod catches it: there zod parses without
// compiling (jitless skips the probe). The server keeps the compiled parsers, faster on uploads. Set in this module,
// which every schema imports, because zod decides as a schema is made; a web module imported first by main.tsx would
// rely on the bundler's chunk order instead.
const browser = 'document' in globalThis || 'WorkerGlobalScope' in globalThis;

z.config({ ...z.locales.pt(), jitless: browser });

export { z };
