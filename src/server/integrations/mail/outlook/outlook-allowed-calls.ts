import { CATEGORY_FOLDER_NAMES, CATEGORY_FOLDER_ROOT } from '../mail-provider.ts'
import { ForbiddenMailCallError, refuseForbiddenOutlookDestination, type AllowedMailCall } from '../mail-safety.ts'

/**
 * Every Graph call the Outlook adapter makes, and nothing else (deny by default: mail-safety.ts).
 * Paths are relative to the Graph base URL and percent-encoded as sent. Moves may only go to the
 * Inbox or to a folder the adapter itself resolved under "Inbox Guard"; folder creation only makes
 * our own folders. Deleting anything except our own subscriptions is not on the list at all.
 */

const SEGMENT = '[^/]+'
/** A delta path in either form: ours (`/me/mailFolders/inbox/messages/delta`) or Graph's links (`/me/mailfolders('id')/messages/delta`). */
export const DELTA_LINK_PATH = /^\/me\/(mailFolders\/[^/]+|mailfolders\((?:'|%27)[^/]+?(?:'|%27)\))\/messages\/delta$/i
const OUR_FOLDER_NAMES = new Set([CATEGORY_FOLDER_ROOT, ...Object.values(CATEGORY_FOLDER_NAMES)].map((n) => n.toLowerCase()))

function onlyOurFolderNames(body: unknown): void {
  const name = (body as { displayName?: unknown } | undefined)?.displayName
  if (typeof name !== 'string' || !OUR_FOLDER_NAMES.has(name.toLowerCase())) {
    throw new ForbiddenMailCallError(`Refused to create the folder ${JSON.stringify(name)}: the adapter creates only its own folders`)
  }
}

/**
 * @param isOwnFolder whether a folder id is one the adapter resolved or created under "Inbox Guard".
 */
export function outlookAllowedCalls(isOwnFolder: (folderId: string) => boolean): AllowedMailCall[] {
  const path = (pattern: string) => new RegExp(`^${pattern}$`)
  return [
    { method: 'GET', path: path('/me') },
    { method: 'GET', path: path('/me/mailFolders') },
    { method: 'GET', path: path('/me/mailFolders/inbox') },
    { method: 'POST', path: path('/me/mailFolders'), checkBody: onlyOurFolderNames },
    { method: 'GET', path: path(`/me/mailFolders/${SEGMENT}/childFolders`) },
    { method: 'POST', path: path(`/me/mailFolders/${SEGMENT}/childFolders`), checkBody: onlyOurFolderNames },
    // Also Graph's own nextLink/deltaLink name the folder as a key segment: /me/mailfolders('AQMk…')/messages/delta.
    { method: 'GET', path: DELTA_LINK_PATH },
    { method: 'GET', path: path('/me/mailFolders/(inbox|sentitems)/messages') },
    { method: 'GET', path: path(`/me/messages/${SEGMENT}`) },
    { method: 'GET', path: path(`/me/messages/${SEGMENT}/\\$value`) },
    {
      method: 'POST',
      path: path(`/me/messages/${SEGMENT}/move`),
      checkBody: (body) => {
        const destination = (body as { destinationId?: unknown } | undefined)?.destinationId
        refuseForbiddenOutlookDestination(destination)
        if (destination !== 'inbox' && !(typeof destination === 'string' && isOwnFolder(destination))) {
          throw new ForbiddenMailCallError(`Refused to move a message to ${String(destination)}: only the Inbox and Inbox Guard's own folders are destinations`)
        }
      },
    },
    { method: 'POST', path: path('/subscriptions') },
    { method: 'PATCH', path: path(`/subscriptions/${SEGMENT}`) },
    { method: 'DELETE', path: path(`/subscriptions/${SEGMENT}`) },
  ]
}
