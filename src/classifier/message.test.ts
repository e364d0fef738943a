import { describe, expect, it } from 'vitest'
import { MalformedMessageError, parseAddressList, parseRawMessage } from './message.ts'

const multipart = [
  'From someone@example.com Mon Mar  4 10:00:00 2024',
  'From: =?UTF-8?B?SsO8cmdlbiBNw7xsbGVy?= <juergen@beispiel.de>',
  'To: "Dana W." <dana@northwind.example>, bob@x.example',
  'Subject: =?utf-8?Q?Gr=C3=BC=C3=9Fe_aus?= Berlin',
  'Date: Mon, 4 Mar 2024 10:00:00 +0100',
  'Message-ID: <abc@beispiel.de>',
  'List-Unsubscribe: <mailto:u@beispiel.de>',
  'Content-Type: multipart/alternative; boundary="b1"',
  '',
  '--b1',
  'Content-Type: text/html; charset=utf-8',
  'Content-Transfer-Encoding: base64',
  '',
  Buffer.from('<html><head><style>p{}</style></head><body><p>Hallo &amp; <a href="https://x.example">willkommen</a></p></body></html>').toString('base64'),
  '--b1--',
  '',
].join('\n')

describe('parseRawMessage', () => {
  it('decodes encoded-word headers, addresses, base64 HTML and the mbox From_ line', () => {
    const m = parseRawMessage(multipart)
    expect(m.from).toEqual({ address: 'juergen@beispiel.de', name: 'Jürgen Müller' })
    expect(m.to.map((a) => a.address)).toEqual(['dana@northwind.example', 'bob@x.example'])
    expect(m.subject).toBe('Grüße aus Berlin')
    expect(m.date).toBe('2024-03-04T09:00:00.000Z')
    expect(m.messageId).toBe('abc@beispiel.de')
    expect(m.headers['list-unsubscribe']).toEqual(['<mailto:u@beispiel.de>'])
    expect(m.text).toBe('Hallo & willkommen')
    expect(m.hasHtml).toBe(true)
    expect(m.linkCount).toBe(1)
  })

  it('prefers the plain-text alternative and decodes quoted-printable in the declared charset', () => {
    const raw = [
      'From: a@b.example',
      'Subject: x',
      'Content-Type: multipart/mixed; boundary=outer',
      '',
      '--outer',
      'Content-Type: multipart/alternative; boundary=inner',
      '',
      '--inner',
      'Content-Type: text/plain; charset=iso-8859-1',
      'Content-Transfer-Encoding: quoted-printable',
      '',
      'Caf=E9 =3D soft=',
      'break. This plain-text alternative is long enough to be the real content of the message, not a stub',
      'that only says to open the HTML version in a browser, so the parser reads it instead of the HTML.',
      'It goes on for a while longer, as real plain-text alternatives of newsletters and personal mail do,',
      'with a few more sentences about the content so that its length passes the stub limit comfortably.',
      '--inner',
      'Content-Type: text/html',
      '',
      '<p>ignored</p>',
      '--inner--',
      '--outer',
      'Content-Type: application/pdf; name="invoice.pdf"',
      'Content-Disposition: attachment; filename="invoice.pdf"',
      '',
      'JVBERi0=',
      '--outer--',
    ].join('\r\n')
    const m = parseRawMessage(raw)
    expect(m.text.startsWith('Café = softbreak. This plain-text')).toBe(true)
    expect(m.text).not.toContain('ignored')
    expect(m.attachmentCount).toBe(1)
  })

  it('reads the HTML alternative when the plain part is only a stub', () => {
    const raw = [
      'From: news@shop.example',
      'Content-Type: multipart/alternative; boundary=b',
      '',
      '--b',
      'Content-Type: text/plain',
      '',
      'View this e-mail in your browser.',
      '--b',
      'Content-Type: text/html',
      '',
      '<p>Spring sale: 20% off everything</p>',
      '--b--',
    ].join('\n')
    expect(parseRawMessage(raw).text).toBe('Spring sale: 20% off everything')
  })

  it('decodes 8-bit UTF-8 bodies read as bytes (latin1) and leaves already-decoded text alone', () => {
    const body = 'Grüße'
    const bytes = Buffer.from(`From: a@b.example\nContent-Type: text/plain; charset=utf-8\n\n${body}`, 'utf8').toString('latin1')
    expect(parseRawMessage(bytes).text).toBe('Grüße')
    expect(parseRawMessage(`From: a@b.example\nContent-Type: text/plain; charset=utf-8\n\n€ ${body}`).text).toBe('€ Grüße')
  })

  it('rejects text that has no header block', () => {
    expect(() => parseRawMessage('just some words\nand more')).toThrow(MalformedMessageError)
    expect(() => parseRawMessage('   \n')).toThrow(MalformedMessageError)
  })
})

describe('parseAddressList', () => {
  it('handles quoted commas, bare addresses and comments', () => {
    expect(parseAddressList('"Doe, Jane" <Jane@X.example>, bob@y.example (Bob), not-an-address')).toEqual([
      { address: 'jane@x.example', name: 'Doe, Jane' },
      { address: 'bob@y.example', name: 'Bob' },
    ])
  })
})
