import { BlockList, isIP } from 'node:net'
import geoip from 'fast-geoip'

/** Strips the IPv4-mapped IPv6 prefix Node reports for IPv4 clients on dual-stack sockets. */
export function normalizeIp(ip: string | undefined): string | null {
  if (!ip) return null
  return ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip
}

function isPrivateIpv4(ip: string): boolean {
  const [a = -1, b = -1] = ip.split('.').map(Number)
  return (
    a === 10 ||
    a === 127 ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 169 && b === 254) ||
    (a === 100 && b >= 64 && b <= 127) // carrier-grade NAT
  )
}

export function isPrivateAddress(ip: string | null): boolean {
  if (!ip) return false
  const version = isIP(ip)
  if (version === 4) return isPrivateIpv4(ip)
  if (version === 6) {
    const lower = ip.toLowerCase()
    return lower === '::1' || lower.startsWith('fc') || lower.startsWith('fd') || lower.startsWith('fe80:')
  }
  return false
}

/**
 * Special-purpose IPv4 blocks (RFC 6890) besides the private ones above: no client comes from them,
 * and fast-geoip would place them anyway, because it stores only where each range starts, so a gap
 * reads as the range before it (192.0.2.1 would be 'MX').
 */
const UNPLACEABLE_IPV4 = new BlockList()
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 3], // multicast, reserved and broadcast
] as const) {
  UNPLACEABLE_IPV4.addSubnet(network, prefix, 'ipv4')
}

/** A sign-in waits at most this long for the geo-IP lookup; then the location is 'Unknown'. */
const GEO_LOOKUP_TIMEOUT_MS = 500

async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(resolve, ms, null)
  })
  try {
    return await Promise.race([work, timeout])
  } finally {
    clearTimeout(timer)
  }
}

/**
 * The "location" shown in the Active Sessions list (SPEC 3): 'São Paulo, BR', or just 'US' when the
 * database knows no city. The data is GeoLite2 as shipped inside the fast-geoip package (nothing is
 * downloaded at run time); it is read lazily, about 50 KB of small index files per lookup, so it
 * costs no memory at rest, unlike geoip-lite's 100 MB table. Loopback and private networks, and anything
 * else the lookup cannot place, including every IPv6 address (fast-geoip reads IPv4 only and would
 * misread one), are 'Unknown' (issue 17). Never throws: a sign-in must not fail here.
 */
export async function describeLocation(ip: string | null): Promise<string> {
  if (!ip || isPrivateAddress(ip) || isIP(ip) !== 4 || UNPLACEABLE_IPV4.check(ip, 'ipv4')) return 'Unknown'
  try {
    const found = await withTimeout(geoip.lookup(ip), GEO_LOOKUP_TIMEOUT_MS)
    if (!found?.country) return 'Unknown'
    return found.city ? `${found.city}, ${found.country}` : found.country
  } catch {
    return 'Unknown'
  }
}
