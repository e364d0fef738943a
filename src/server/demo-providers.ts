import type { Config } from '#server/config.ts'

/** The endpoints the local identity fakes expose (src/fakes/identity/server.ts). */
export interface IdentityFakeEndpoints {
  google: { authorizeUrl: string; tokenUrl: string; jwksUrl: string; issuer: string; revokeUrl: string }
  microsoft: { authorizeUrl: string; tokenUrl: string; jwksUrl: string; issuerTemplate: string; graphUrl: string }
}

/** The endpoints of the demo mailboxes' fakes (src/fakes/demo-mail.ts). */
export interface MailFakeEndpoints {
  gmail: { apiUrl: string; pubsub: { topicName: string; issuer: string; serviceAccountEmail: string; jwksUrl: string } }
  graph: { url: string }
}

/**
 * Demo mode is per provider (DESIGN "Running it"): a provider without client credentials signs in
 * against the local fakes, and its mailboxes are the fakes' demo mailboxes; a configured one keeps
 * the real service.
 */
export function withDemoProviders(config: Config, fakes: IdentityFakeEndpoints, mail?: MailFakeEndpoints): Config {
  return {
    ...config,
    gmail:
      config.google.demo && mail
        ? {
            ...config.gmail,
            apiUrl: mail.gmail.apiUrl.replace(/\/+$/, ''),
            revokeUrl: fakes.google.revokeUrl,
            pubsubTopic: mail.gmail.pubsub.topicName,
            push: { ...config.gmail.push, serviceAccount: mail.gmail.pubsub.serviceAccountEmail, jwksUrl: mail.gmail.pubsub.jwksUrl, issuers: [mail.gmail.pubsub.issuer] },
          }
        : config.gmail,
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
          // The mail fake serves /me too, so sign-in's address fallback and the mailbox share one Graph.
          graphUrl: (mail?.graph.url ?? fakes.microsoft.graphUrl).replace(/\/+$/, ''),
        }
      : config.microsoft,
  }
}
