import { isIP } from 'node:net'

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
 * The "location" shown in the Active Sessions list (SPEC 3). We have no geo-IP database, so only
 * loopback/private networks are named; everything else is honestly 'Unknown'.
 */
export const describeLocation = (ip: string | null) => (isPrivateAddress(ip) ? 'Local network' : 'Unknown')
