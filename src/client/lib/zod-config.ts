import type { z } from 'zod'

// The page's Content Security Policy has no 'unsafe-eval': zod's compiled fast path (`new Function`)
// would be refused and reported as a violation. Jitless parsing is as correct and fast enough for
// forms. Imported first by main.tsx, before any schema is built.
//
// zod itself no longer loads with every page (only the pages that parse input load it; decision
// 020), so this cannot call z.config. zod keeps its configuration in this global, which it adopts
// when it loads and reads whenever a schema is built, so setting it first covers every schema.
const global = globalThis as typeof globalThis & { __zod_globalConfig?: z.core.$ZodConfig }
global.__zod_globalConfig ??= {}
global.__zod_globalConfig.jitless = true
