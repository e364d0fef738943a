/**
 * Text PostgreSQL cannot store (issue 11 item 3): the NUL character (text and jsonb refuse it) and
 * unpaired UTF-16 surrogates (jsonb refuses them; text would silently store U+FFFD instead). With the
 * `u` flag a surrogate pair is one code point, so `\p{Cs}` matches only the unpaired halves.
 */
// eslint-disable-next-line no-control-regex -- matching NUL is the point
const UNSTORABLE = /[\u0000\p{Cs}]/u
// eslint-disable-next-line no-control-regex -- matching NUL is the point
const UNSTORABLE_ALL = /[\u0000\p{Cs}]/gu

export const hasUnstorableText = (text: string) => UNSTORABLE.test(text)

/** Replaces each unstorable character with U+FFFD, the replacement character. */
export const toStorableText = (text: string) => text.replace(UNSTORABLE_ALL, '\uFFFD')

/**
 * The path ("name", "items.0.label") of the first string value or object key that cannot be stored,
 * or null when everything can be. Keys count too: jsonb columns store them.
 */
export function findUnstorableText(value: unknown, path: string[] = []): string[] | null {
  if (typeof value === 'string') return hasUnstorableText(value) ? path : null
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnstorableText(value[i], [...path, String(i)])
      if (found) return found
    }
    return null
  }
  if (isPlainObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      if (hasUnstorableText(key)) return [...path, key]
      const found = findUnstorableText(item, [...path, key])
      if (found) return found
    }
  }
  return null
}

/**
 * A plain record: an object literal, or a null-prototype one (parsed query strings are built on a
 * prototype whose own prototype is null). Class instances such as Date are not.
 */
const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const proto = Object.getPrototypeOf(value) as object | null
  return proto === null || Object.getPrototypeOf(proto) === null
}

/** A deep copy in which every string value and key is storable (class instances such as Date are kept as they are). */
export function makeStorable<T>(value: T): T {
  if (typeof value === 'string') return toStorableText(value) as T
  if (Array.isArray(value)) return value.map((item: unknown) => makeStorable(item)) as T
  if (isPlainObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [toStorableText(key), makeStorable(item)])) as T
  }
  return value
}
