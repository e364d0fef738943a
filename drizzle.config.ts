import { defineConfig } from 'drizzle-kit'

// Migrations are generated from src/server/db/schema.ts with `npx drizzle-kit generate`, committed
// under drizzle/, and applied at start-up on both PGlite and PostgreSQL (docs/decisions/002-database-drivers.md).
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/server/db/schema.ts',
  out: './drizzle',
})
