import { describe, expect, it } from 'vitest'
import { findUnstorableText, hasUnstorableText, makeStorable, toStorableText } from './storable-text.ts'

describe('storable text (what PostgreSQL text and jsonb can hold)', () => {
  it('finds NUL and unpaired surrogates, and accepts surrogate pairs, emoji and other control characters', () => {
    expect(hasUnstorableText('a\u0000b')).toBe(true)
    expect(hasUnstorableText('x\ud800')).toBe(true)
    expect(hasUnstorableText('\udc00y')).toBe(true)
    expect(hasUnstorableText('\udc00\ud800')).toBe(true)
    expect(hasUnstorableText('Zoë 🙂 \ud83d\ude42 \u0001 \u202e')).toBe(false)
  })

  it('replaces each unstorable character with U+FFFD and leaves the rest', () => {
    expect(toStorableText('a\u0000b\ud800c🙂')).toBe('a\uFFFDb\uFFFDc🙂')
  })

  it('names the path of the first unstorable value or key, inside arrays and null-prototype objects', () => {
    const query = Object.assign(Object.create(null) as Record<string, unknown>, { ok: 'fine', state: '\u0000' })
    expect(findUnstorableText(query)).toEqual(['state'])
    expect(findUnstorableText({ items: [{ label: 'ok' }, { label: 'x\ud800' }] })).toEqual(['items', '1', 'label'])
    expect(findUnstorableText({ 'bad\u0000key': 1 })).toEqual(['bad\u0000key'])
    expect(findUnstorableText({ a: 1, b: [true, null, 'fine'] })).toBeNull()
  })

  it('makes a deep copy storable without touching dates or numbers', () => {
    const at = new Date('2026-01-01T00:00:00Z')
    expect(makeStorable({ reason: 'x\u0000', at, n: 1, list: ['\ud800'], ['k\u0000']: 'v' })).toEqual({
      reason: 'x\uFFFD',
      at,
      n: 1,
      list: ['\uFFFD'],
      'k\uFFFD': 'v',
    })
  })
})
