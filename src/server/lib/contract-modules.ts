import * as account from '#shared/api/account.ts'
import * as activity from '#shared/api/activity.ts'
import * as admin from '#shared/api/admin.ts'
import * as appInfo from '#shared/api/app-info.ts'
import * as auth from '#shared/api/auth.ts'
import * as billing from '#shared/api/billing.ts'
import * as demo from '#shared/api/demo.ts'
import * as domainLists from '#shared/api/domain-lists.ts'
import * as health from '#shared/api/health.ts'
import * as mailboxes from '#shared/api/mailboxes.ts'
import * as openapi from '#shared/api/openapi.ts'
import * as sessions from '#shared/api/sessions.ts'
import * as settings from '#shared/api/settings.ts'
import * as waitlist from '#shared/api/waitlist.ts'

/**
 * Every module of src/shared/api that declares a contract, by file name. Imported statically so the
 * server bundle (scripts/server-bundle.mjs) needs no TypeScript loader at runtime; openapi.test.ts
 * fails when a file of that folder declares a contract and is missing here.
 */
export const CONTRACT_MODULES: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  'account.ts': account,
  'activity.ts': activity,
  'admin.ts': admin,
  'app-info.ts': appInfo,
  'auth.ts': auth,
  'billing.ts': billing,
  'demo.ts': demo,
  'domain-lists.ts': domainLists,
  'health.ts': health,
  'mailboxes.ts': mailboxes,
  'openapi.ts': openapi,
  'sessions.ts': sessions,
  'settings.ts': settings,
  'waitlist.ts': waitlist,
}
