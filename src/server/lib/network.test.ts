import { describe, expect, it } from 'vitest'
import { describeLocation, normalizeIp } from './network.ts'

describe('session locations from the GeoLite2 data in the package (issue 17)', () => {
  it('names the country, and the city when the data has one', async () => {
    expect(await describeLocation('8.8.8.8')).toBe('US')
    expect(await describeLocation('81.2.69.142')).toMatch(/, GB$/)
  })

  it.each([null, '127.0.0.1', '10.0.0.1', '192.168.1.20', '::1', '2001:4860:4860::8888', '192.0.2.1', 'not-an-ip'])('says Unknown for %s', async (ip) => {
    expect(await describeLocation(ip)).toBe('Unknown')
  })

  it('reads an IPv4 client on a dual-stack socket as IPv4', async () => {
    expect(await describeLocation(normalizeIp('::ffff:8.8.8.8'))).toBe('US')
  })
})
