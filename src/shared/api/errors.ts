import { z } from 'zod'

/** The one error shape every /_api endpoint answers with (STYLE.md 9). */
export const ApiErrorSchema = z.object({
  error: z.string(),
  code: z.string().optional(),
  details: z.record(z.string(), z.unknown()).optional(),
})
export type ApiError = z.infer<typeof ApiErrorSchema>
