import { UAParser } from 'ua-parser-js'

export interface DeviceInfo {
  /** SPEC 3 "Active session": desktop | mobile | tablet. */
  deviceType: 'desktop' | 'mobile' | 'tablet'
  browser: string
  os: string
}

export function describeDevice(userAgent: string | undefined): DeviceInfo {
  const result = UAParser(userAgent ?? '')
  const type = result.device.type
  const deviceType = type === 'mobile' || type === 'tablet' ? type : 'desktop'
  const browser = [result.browser.name, result.browser.major].filter(Boolean).join(' ') || 'Unknown'
  const os = [result.os.name, result.os.version].filter(Boolean).join(' ') || 'Unknown'
  return { deviceType, browser, os }
}
