import { z } from 'zod'

// The page's Content Security Policy has no 'unsafe-eval': zod's compiled fast path (`new Function`)
// would be refused and reported as a violation. Jitless parsing is as correct and fast enough for
// forms. Imported first by main.tsx, before any schema is built.
z.config({ jitless: true })
