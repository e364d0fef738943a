import type { Config } from '#server/config.ts'

/** The endpoints the local identity fakes expose (src/fakes/identity/server.ts). */
export interface IdentityFakeEndpoints {
  google: { authorizeUrl: string; tokenUrl: string; jwksUrl: string; issuer: string }
  microsoft: { authorizeUrl: string; tokenUrl: string; jwksUrl: string; issuerTemplate: string; graphUrl: string }
}

/**
 * Demo mode is per provider (DESIGN "Running it"): a provider without client credentials signs in
 * against the local fakes; a configured one keeps the real service.
 */
export function withDemoProviders(config: Config, fakes: IdentityFakeEndpoints): Config {
  return {
    ...config,
    google: config.google.demo
      ? {
          ...config.google,
          authUrl: fakes.google.authorizeUrl,
          tokenUrl: fakes.google.tokenUrl,
          jwksUrl: fakes.google.jwksUrl,
          issuers: [fakes.google.issuer],
        }
      : config.google,
    microsoft: config.microsoft.demo
      ? {
          ...config.microsoft,
          authUrl: fakes.microsoft.authorizeUrl,
          tokenUrl: fakes.microsoft.tokenUrl,
          jwksUrl: fakes.microsoft.jwksUrl,
          issuerTemplate: fakes.microsoft.issuerTemplate,
          graphUrl: fakes.microsoft.graphUrl.replace(/\/+$/, ''),
        }
      : config.microsoft,
  }
}
