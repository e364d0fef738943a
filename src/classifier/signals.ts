// Deterministic signals read from headers, addresses and the caller's context before the model
// runs: user rules, relationship, bulk/list headers, e-mail service providers, transactional
// patterns. See docs/classifier.md ("Signals").

import type { ClassifierContext } from './types.ts'
import type { NormalisedMessage } from './message.ts'
import { domainOf } from './message.ts'

/** Public mailbox providers: writing to someone there says nothing about anyone else there. */
export const PUBLIC_DOMAINS = new Set([
  'gmail.com', 'googlemail.com', 'outlook.com', 'hotmail.com', 'hotmail.co.uk', 'hotmail.de', 'hotmail.it', 'hotmail.fr',
  'live.com', 'live.co.uk', 'msn.com', 'yahoo.com', 'yahoo.co.uk', 'yahoo.de', 'yahoo.fr', 'yahoo.it', 'yahoo.es',
  'ymail.com', 'icloud.com', 'me.com', 'mac.com', 'aol.com', 'gmx.de', 'gmx.net', 'gmx.com', 'gmx.at', 'web.de',
  't-online.de', 'freenet.de', 'libero.it', 'virgilio.it', 'tiscali.it', 'alice.it', 'orange.fr', 'free.fr',
  'laposte.net', 'wanadoo.fr', 'sfr.fr', 'proton.me', 'protonmail.com', 'pm.me', 'tutanota.com', 'zoho.com',
  'yandex.ru', 'yandex.com', 'mail.ru', 'qq.com', '163.com', '126.com', 'naver.com', 'hey.com', 'fastmail.com',
  'uol.com.br', 'bol.com.br', 'terra.com.br', 'sapo.pt', 'rediffmail.com', 'seznam.cz', 'wp.pl', 'o2.pl',
  'btinternet.com', 'sky.com', 'comcast.net', 'verizon.net', 'att.net', 'bluewin.ch', 'telenet.be', 'ziggo.nl',
])

const SECOND_LEVEL = new Set(['co', 'com', 'org', 'net', 'ac', 'gov', 'edu', 'ne', 'or', 'gob', 'nic', 'ltd', 'plc'])

/** Approximate registrable domain ("mail.shop.co.uk" → "shop.co.uk"), without a public-suffix list. */
export function orgDomainOf(domain: string): string {
  let d = domain
  for (let k = 0; k < d.length; k++) {
    const c = d.charCodeAt(k)
    if (c >= 65 && c <= 90) {
      d = d.toLowerCase()
      break
    }
  }
  while (d.endsWith('.')) d = d.slice(0, -1)
  const last = d.lastIndexOf('.')
  if (last <= 0) return d
  const second = d.lastIndexOf('.', last - 1)
  if (second === -1) return d
  const tld = d.slice(last + 1)
  const sld = d.slice(second + 1, last)
  if (tld.length === 2 && SECOND_LEVEL.has(sld)) {
    const third = d.lastIndexOf('.', second - 1)
    return third === -1 ? d : d.slice(third + 1)
  }
  return d.slice(second + 1)
}

/** The list entry the domain falls under (itself or a parent domain), or null; shared by the pipeline. */
export function domainMatches(domain: string, list: readonly string[]): string | null {
  for (const entry of list) {
    const d = entry.trim().toLowerCase().replace(/^@/, '').replace(/^\*\./, '')
    if (!d) continue
    if (domain === d || domain.endsWith('.' + d)) return d
  }
  return null
}

export interface EspFingerprint {
  name: string
  /** A sales-engagement tool used for cold sequences rather than a newsletter platform. */
  outreachTool: boolean
}

const ESP_HEADERS: [string, string][] = [
  ['x-mailgun-sid', 'Mailgun'],
  ['x-mailgun-tag', 'Mailgun'],
  ['x-mailgun-variables', 'Mailgun'],
  ['x-sg-eid', 'SendGrid'],
  ['x-sg-id', 'SendGrid'],
  ['x-mc-user', 'Mailchimp'],
  ['x-mandrill-user', 'Mailchimp'],
  ['x-campaignid', 'Mailchimp'],
  ['x-sfmc-stack', 'Salesforce Marketing Cloud'],
  ['x-mailin-eid', 'Brevo'],
  ['x-sib-id', 'Brevo'],
  ['x-pm-message-id', 'Postmark'],
  ['x-mj-mid', 'Mailjet'],
  ['x-roving-id', 'Constant Contact'],
  ['x-kmail-account', 'Klaviyo'],
  ['x-hs-cid', 'HubSpot'],
  ['x-ses-outgoing', 'Amazon SES'],
  ['x-mktomail', 'Marketo'],
  ['x-mailjet-campaign', 'Mailjet'],
  ['x-cmail-sid', 'Campaign Monitor'],
  ['x-csa-complaints', 'a bulk sender'],
  ['x-msfbl', 'Salesforce Marketing Cloud'],
  ['x-marketoid', 'Marketo'],
  ['x-ms-exchange-organization-bulk', 'a bulk sender'],
]

const ESP_DOMAINS: [RegExp, string][] = [
  [/mcsv\.net|mcdlv\.net|mailchimp|rsgsv\.net|list-manage\.com/, 'Mailchimp'],
  [/amazonses\.com/, 'Amazon SES'],
  [/sendgrid\.net|sendgrid/, 'SendGrid'],
  [/mailgun\.(org|net|info)/, 'Mailgun'],
  [/sparkpostmail\.com|sparkpost/, 'SparkPost'],
  [/mktomail\.com|mktdns\.com|marketo/, 'Marketo'],
  [/hubspotemail\.net|hubspotstarter|hs-email|hubspot/, 'HubSpot'],
  [/exacttarget\.com|sfmc|s\d+\.exct\.net/, 'Salesforce Marketing Cloud'],
  [/klaviyo|kmail-lists\.com/, 'Klaviyo'],
  [/constantcontact\.com|ccsend\.com/, 'Constant Contact'],
  [/sendinblue|brevo\.com|sib\.|mailin\.fr/, 'Brevo'],
  [/mtasv\.net|postmarkapp/, 'Postmark'],
  [/mailjet/, 'Mailjet'],
  [/createsend|cmail\d*\.com/, 'Campaign Monitor'],
  [/customeriomail|customer\.io/, 'Customer.io'],
  [/iterable/, 'Iterable'],
  [/braze|appboy/, 'Braze'],
  [/substack\.com/, 'Substack'],
  [/beehiiv/, 'beehiiv'],
  [/convertkit|ck\.page|kit-mail/, 'Kit'],
  [/mailerlite|mlsend/, 'MailerLite'],
]

/** Sales-engagement tools behind cold sequences. */
const OUTREACH_TOOLS: [RegExp, string][] = [
  [/lemlist/, 'lemlist'],
  [/apollo\.io|apollomail|apollo-mail/, 'Apollo'],
  [/outreach\.io|outrch/, 'Outreach'],
  [/salesloft/, 'Salesloft'],
  [/mailshake/, 'Mailshake'],
  [/instantly\.ai|instantly/, 'Instantly'],
  [/smartlead/, 'Smartlead'],
  [/woodpecker\.co/, 'Woodpecker'],
  [/reply\.io/, 'Reply.io'],
  [/yesware/, 'Yesware'],
  [/mixmax/, 'Mixmax'],
  [/saleshandy/, 'SalesHandy'],
  [/quickmail\.io/, 'QuickMail'],
  [/gmass/, 'GMass'],
  [/mailmeteor/, 'Mailmeteor'],
  [/snov\.io/, 'Snov.io'],
  [/klenty/, 'Klenty'],
  [/seamless\.ai/, 'Seamless.AI'],
  [/hunter\.io/, 'Hunter'],
  [/mailtrack/, 'Mailtrack'],
]

/** ESP header name → its position in ESP_HEADERS (the earliest present one names the provider). */
const ESP_HEADER_INDEX = new Map(ESP_HEADERS.map(([name], i) => [name, i]))
const ANY_ESP_DOMAIN = new RegExp(ESP_DOMAINS.map(([re]) => re.source).join('|'))
const ANY_OUTREACH_TOOL = new RegExp(OUTREACH_TOOLS.map(([re]) => re.source).join('|'))

export type TransactionalKind =
  | 'receipt'
  | 'invoice'
  | 'order'
  | 'shipping'
  | 'booking'
  | 'code'
  | 'password'
  | 'security'
  | 'statement'
  | 'payment'
  | 'subscription'

const TRANSACTIONAL_SUBJECT: [RegExp, TransactionalKind][] = [
  [/\b(receipt|quittung|ricevuta|recibo|re[çc]u|kvitto|ontvangstbewijs|paragon|potwierdzenie zapłaty)\b/, 'receipt'],
  [/\b(invoice|rechnung|fattura|factura|facture|factuur|fatura|faktura|nota fiscal)\b/, 'invoice'],
  [/\b(order (confirm|#|no\b|number)|your order|order confirmed|purchase confirm|your purchase|bestellung|bestellbest[äa]tigung|ordine|pedido|commande|bestelling|encomenda|zamówieni[ea])\b/, 'order'],
  [/\b(shipped|shipping confirmation|out for delivery|delivered|dispatched|on its way|arriving (today|tomorrow)|your (package|parcel|delivery)|tracking number|versandt|versandbest|zugestellt|unterwegs|spedizione|spedito|consegnato|pacco|envío|enviado|entregado|en camino|expédié|colis|livré|verzonden|onderweg|bezorgd|enviada|entregue|a caminho|przesyłka|paczka)\b/, 'shipping'],
  [/\b(booking|reservation|itinerary|e-?ticket|boarding pass|check-in|buchung|prenotazione|reserva|réservation|boeking|reservering|rezerwacja|appointment (confirm|remind)|your appointment|terminbest[äa]tigung|terminerinnerung|ihr termin|afspraak|rendez-vous|appuntamento|su cita|tu cita|recordatorio de cita|sua consulta)\b/, 'booking'],
  [/\b(verification code|security code|one[- ]time (pass)?code|login code|sign-in code|your code|otp|bestätigungscode|sicherheitscode|codice di verifica|código de verifica(ción|ção)|code de (vérification|connexion|sécurité)|verificatiecode|inlogcode|kod weryfikacyjny)\b/, 'code'],
  [/\b(password reset|reset your password|passwort zurücksetzen|reimposta(zione)? password|restablecer (tu )?contraseña|réinitialis\w* (de )?(votre )?mot de passe|redefini\w* (a |sua )?senha|wachtwoord (herstellen|opnieuw instellen|resetten)|resetowanie hasła)\b/, 'password'],
  [/\b(security alert|new sign-?in|new login|new device|unusual (sign-?in|activity)|sicherheitswarnung|sicherheitshinweis|neue anmeldung|neues gerät|avviso di sicurezza|nuovo accesso|alerta de seguridad|nuevo inicio de sesión|alerte de sécurité|nouvelle connexion|alerta de segurança|novo acesso|beveiligingsmelding|nieuwe inlog|nowe logowanie)\b/, 'security'],
  [/\b(statement|kontoauszug|estratto conto|extracto|rekeningafschrift|extrato|wyciąg)\b/, 'statement'],
  [/\b(payment (received|confirmation|confirmed|failed|due|successful)|refund|zahlungsbestätigung|pagamento ricevuto|subscription (renewed|renewal)|renewal notice|policy renewal|your policy|renovação|renovación|renouvellement|verlängerung|rinnovo|verlenging|förnyelse|apólice|póliza|polizza|versicherungsschein|betaling (ontvangen|mislukt|bevestigd)|paiement (reçu|confirmé|refusé|échoué)|pagamento (recebido|confirmado|recusado)|pago (recibido|confirmado|rechazado))\b/, 'payment'],
  // Double opt-in and welcome mail: the person has just signed up for it.
  [/\b(confirm (your )?(subscription|sign-?up|e-?mail( address)?)|verify your e-?mail|subscription confirm\w*|welcome to (the |our )?\S+ (newsletter|community|list|club)|thanks for (subscribing|signing up|joining)|thank you for (subscribing|signing up|joining)|anmeldung bestätigen|bestätigen sie ihre|bitte bestätigen|willkommen (bei|im|in der)|conferma (la tua |la sua )?iscrizione|benvenut[oa] (in|nella|nel)|confirma tu suscripción|confirmez votre (inscription|abonnement)|bienvenue (dans|chez))/, 'subscription'],
]
/** Matches when one of TRANSACTIONAL_SUBJECT does: most subjects are ruled out with one test instead of ten. */
const ANY_TRANSACTIONAL_SUBJECT = new RegExp(TRANSACTIONAL_SUBJECT.map(([re]) => re.source).join('|'))

// Text addressed to an automated classifier: only imperative forms, so articles about AI do not match.
const INJECTION =
  /\b(ignore (all |any )?(of )?(the |your )?(previous|prior|above|earlier|preceding) (instructions|rules|prompts?)|disregard (all |any )?(the |your )?(previous|prior|above) (instructions|rules)|(classify|categori[sz]e|label|mark|treat) (this|the) (e-?mail|message|mail) as (genuine|important|safe|wanted|not spam|legitimate)|new instructions:|\[\/?(inst|system)\]|<\/?(system|untrusted_email)>|(^|\n)\s*(system|assistant) ?:)/

const CALENDAR_SUBJECT =
  /^\s*(invitation|updated invitation|canceled( event)?|cancelled( event)?|accepted|declined|tentatively accepted|einladung|aktualisierte einladung|abgesagt|angenommen|abgelehnt|invito|invito aggiornato|annullato|accettato|invitación|invitación actualizada|cancelado|aceptado|convite|convite atualizado|invitation mise à jour|annulé|accepté)( \([^)]*\))?\s*:/i

const RISKY_TLD = /\.(info|xyz|top|click|online|site|shop|live|buzz|icu|monster|rest|cyou|sbs|cfd|work|link|loan|win|bid|review|stream|gq|ml|tk|cf|ga)$/

/** Large platforms whose own domains send account, notification and offer mail (never cold outreach). */
const MAJOR_PLATFORMS = new Set([
  'google.com', 'youtube.com', 'apple.com', 'icloud.com', 'microsoft.com', 'linkedin.com', 'facebookmail.com', 'facebook.com',
  'instagram.com', 'twitter.com', 'x.com', 'amazon.com', 'amazon.de', 'amazon.it', 'amazon.co.uk', 'amazon.fr', 'amazon.es',
  'github.com', 'gitlab.com', 'atlassian.com', 'atlassian.net', 'slack.com', 'zoom.us', 'dropbox.com', 'paypal.com', 'paypal.de',
  'stripe.com', 'shopify.com', 'netflix.com', 'spotify.com', 'uber.com', 'airbnb.com', 'booking.com', 'ebay.com', 'ebay.de',
  'notion.so', 'figma.com', 'canva.com', 'adobe.com', 'salesforce.com', 'hubspot.com', 'zendesk.com', 'intuit.com', 'xero.com',
  'docusign.net', 'docusign.com', 'steampowered.com', 'discord.com', 'medium.com', 'substack.com', 'trello.com', 'asana.com',
])

/** True when the text addresses instructions to an automated classifier (prompt injection). */
export function injectionIn(text: string): boolean {
  const t = text.length > 20_000 ? text.slice(0, 10_000) + '\n' + text.slice(-10_000) : text
  return INJECTION.test(t.toLowerCase())
}

export interface Signals {
  senderAddress: string
  senderDomain: string
  senderOrg: string
  self: boolean
  whitelisted: string | null
  blacklisted: string | null
  knownContact: boolean
  knownDomain: boolean
  sameOrg: boolean
  listUnsubscribe: boolean
  oneClickUnsubscribe: boolean
  listId: boolean
  precedence: string
  autoSubmitted: boolean
  feedbackId: boolean
  esp: string | null
  outreachTool: string | null
  noReplySender: boolean
  roleSender: boolean
  freemailSender: boolean
  replyToOtherDomain: boolean
  isThreadedReply: boolean
  fakeReply: boolean
  /** Set by extractFeatures: a fake "Re:" together with a pitch, links or a long text (the model feature). */
  fakeReplySuspicious: boolean
  forwarded: boolean
  quotesEarlierMail: boolean
  /** Set by extractFeatures (from the words it reads): unsubscribe wording in the text. */
  unsubscribeText: boolean
  transactional: TransactionalKind | null
  /** Cold-outreach and inbound-intent phrases found (filled in by extractFeatures, which reads the words once). */
  outreachPhrases: string[]
  inboundPhrases: string[]
  consentPhrases: string[]
  /** Phrases asking for the recipient's product, price, job, time or comment (set by extractFeatures). */
  requestPhrases: string[]
  /** The request group of the first request phrase ('in:ask-buy', 'in:ask-job', …), or ''. */
  requestKind: string
  /** Set by extractFeatures: an outreach phrase that pitches the sender's own offer (not a weak one). */
  pitch: boolean
  /** A calendar invitation, update, cancellation or reply. */
  calendar: boolean
  /** Sender domain on a TLD favoured by throwaway senders, or a brand-lookalike with several hyphens. */
  riskyDomain: boolean
  /** Sender is one of the large consumer platforms (their mail is notifications and offers, not cold outreach). */
  majorPlatform: boolean
  /** Set by extractFeatures: the text addresses instructions to an automated classifier. */
  injection: boolean
  recipientCount: number
  undisclosedRecipients: boolean
  /** In-Reply-To/References point only at the sender's own earlier mail (a "bump" of a cold mail). */
  selfThread: boolean
  /** The quoted or forwarded mail in the body was written by the sender, not by the recipient. */
  quotesOwnMail: boolean
  returnPathMismatch: boolean
  highPriority: boolean
  scriptMailer: boolean
}

function has(message: NormalisedMessage, name: string): boolean {
  const v = message.headers[name]
  return v !== undefined && v.length > 0
}

function h(message: NormalisedMessage, name: string): string {
  const v = message.headers[name]
  return v && v.length > 0 ? (v[0] as string) : ''
}

const REPLY_PREFIX = /^\s*((re|aw|sv|vs|antw|rif|r|res|odp|ynt)\s*(\[\d+\])?\s*:\s*)+/i
const FWD_PREFIX = /^\s*(fwd?|wg|tr|rv|i|enc)\s*:/i
const NOREPLY = /^(no[-_.]?reply|do[-_.]?not[-_.]?reply|donotreply|noreply|mailer-daemon|notifications?|notify|alerts?|updates?|news(letter)?|info|hello|team|marketing|support|billing|receipts?|orders?|account|accounts|service|bounce[s]?)([-_.+].*)?$/i
const ROLE = /^(info|hello|team|sales|marketing|contact|office|admin|support|news|newsletter|offers|deals|promo|promotions)([-_.+].*)?$/i
// Outlook's quoted header block, "From: … / Sent: …", in the corpus languages.
const QUOTE_FROM = 'von|from|de|da|van|från|fra|od|lähettäjä|feladó|de la|kimden'
const QUOTE_SENT = 'gesendet|sent|envoyé|inviato|enviado|enviada|verzonden|skickat|sendt|wysłano|odesláno|lähetetty|elküldve|trimis|gönderildi'
const QUOTE_OR_FORWARD = new RegExp(
  `wrote:|schrieb|scritto:|a écrit|escribió:|escreveu:|schreef|skrev|napsal|napisał|a scris|original message|forwarded message|weitergeleitete nachricht|messaggio inoltrato|mensaje reenviado|\\n>|\\n(${QUOTE_FROM}) ?:`,
  'i',
)
// A reply's quoted header: "On … wrote:" in several languages, or the Outlook block above.
const QUOTE_HEADER = new RegExp(
  `(^|\\n)\\s*(on .{5,120}wrote:|am .{5,120}schrieb|il .{5,120}scritto:|le .{5,120}a écrit|el .{5,120}escribió:|em .{5,120}escreveu:|op .{5,120}schreef|den .{5,120}skrev|dne .{5,120}napsal|pe .{5,120}a scris|-----\\s*original message\\s*-----|(${QUOTE_FROM}) ?: .{3,120}\\n\\s*(${QUOTE_SENT}) ?:)`,
  'i',
)

const THREAD_ID_DOMAIN = /@([a-z0-9.-]+)>/g
const ANGLE_BRACKETS = /[<>]/g
const HIGH_PRIORITY = /^\s*[12]\b|high|urgent/
const SCRIPT_MAILER = /phpmailer|python|swiftmailer|mail::|perl|php\//

export function computeSignals(message: NormalisedMessage, context: ClassifierContext): Signals {
  const senderAddress = message.from?.address ?? ''
  const senderDomain = domainOf(senderAddress)
  const senderOrg = orgDomainOf(senderDomain)
  const local = senderAddress.slice(0, senderAddress.lastIndexOf('@'))
  const me = (context.me ?? '').toLowerCase()

  const knownAddresses = context.knownAddresses
  let knownContact = false
  if (senderAddress) {
    if (knownAddresses instanceof Set) knownContact = knownAddresses.has(senderAddress)
    else for (const a of knownAddresses) if (a.toLowerCase() === senderAddress) knownContact = true
  }
  let knownDomain = false
  if (!PUBLIC_DOMAINS.has(senderDomain) && !PUBLIC_DOMAINS.has(senderOrg) && senderOrg) {
    const domains = context.knownDomains
    // A Set is looked up directly (it should hold organisation domains, as orgDomainOf gives them).
    if (domains instanceof Set) knownDomain = domains.has(senderOrg) || domains.has(senderDomain)
    else {
      for (const d of domains) {
        const dd = d.toLowerCase()
        if (PUBLIC_DOMAINS.has(dd)) continue
        if (orgDomainOf(dd) === senderOrg) {
          knownDomain = true
          break
        }
      }
    }
  }
  const org = (context.orgDomain ?? '').toLowerCase()
  const sameOrg = !!org && !PUBLIC_DOMAINS.has(org) && senderOrg !== '' && orgDomainOf(org) === senderOrg

  const returnPath = h(message, 'return-path').toLowerCase()
  const msgIdDomain = domainOf(message.messageId)
  const mailer = (h(message, 'x-mailer') + ' ' + h(message, 'user-agent')).toLowerCase()
  // One pass over the header names: ESP headers and the names a sales tool may leave (all "x-…").
  // Object.keys is cheaper than for…in on the (dictionary-mode) header object.
  let espIndex = ESP_HEADERS.length
  let xNames = ''
  for (const k of Object.keys(message.headers)) {
    if (k.charCodeAt(0) !== 120 || k.charCodeAt(1) !== 45) continue
    xNames += ' ' + k
    const e = ESP_HEADER_INDEX.get(k)
    if (e !== undefined && e < espIndex && has(message, k)) espIndex = e
  }
  let esp: string | null = espIndex < ESP_HEADERS.length ? (ESP_HEADERS[espIndex] as [string, string])[1] : null
  const listUnsub = h(message, 'list-unsubscribe').toLowerCase()
  const espHaystack = returnPath + ' ' + msgIdDomain + ' ' + listUnsub + ' ' + h(message, 'sender').toLowerCase()
  if (!esp && ANY_ESP_DOMAIN.test(espHaystack)) {
    for (const [re, label] of ESP_DOMAINS) {
      if (re.test(espHaystack)) {
        esp = label
        break
      }
    }
  }
  let outreachTool: string | null = null
  const toolHaystack = espHaystack + ' ' + mailer + xNames
  for (const [re, label] of ANY_OUTREACH_TOOL.test(toolHaystack) ? OUTREACH_TOOLS : []) {
    if (re.test(toolHaystack)) {
      outreachTool = label
      break
    }
  }

  const subject = message.subject
  // Outlook may omit In-Reply-To but its Thread-Index grows by 5 bytes per reply (22 bytes = a new thread).
  const threadIndex = h(message, 'thread-index').trim()
  const isThreadedReply = has(message, 'in-reply-to') || has(message, 'references') || threadIndex.length > 32
  const replySubject = REPLY_PREFIX.test(subject)
  const forwarded = FWD_PREFIX.test(subject)
  // The first 4,000 characters, as the feature scan reads them (the quote patterns ignore case).
  const textHead = message.text.length > 4000 ? message.text.slice(0, 4000) : message.text
  const quotesEarlierMail = textHead.includes('\n>') ? true : QUOTE_HEADER.test(textHead)

  let transactional: TransactionalKind | null = null
  const subjectLower = subject.toLowerCase()
  for (const [re, kind] of ANY_TRANSACTIONAL_SUBJECT.test(subjectLower) ? TRANSACTIONAL_SUBJECT : []) {
    if (re.test(subjectLower)) {
      transactional = kind
      break
    }
  }


  const precedence = h(message, 'precedence').toLowerCase().trim()
  const autoSubmittedValue = h(message, 'auto-submitted').toLowerCase()
  const recipients = message.to.length + message.cc.length
  const toRaw = h(message, 'to').toLowerCase()

  const onList = has(message, 'list-id') || has(message, 'mailing-list') || has(message, 'list-post')
  let selfThread = false
  // The thread ids are only read when the other conditions leave the answer open.
  if (!onList && senderOrg !== '' && !PUBLIC_DOMAINS.has(senderDomain)) {
    const threadIds = ((message.headers['in-reply-to'] ?? []).join(' ') + ' ' + (message.headers['references'] ?? []).join(' ')).toLowerCase()
    // True when there is at least one message id and all of them are from the sender's organisation.
    THREAD_ID_DOMAIN.lastIndex = 0
    for (let m = THREAD_ID_DOMAIN.exec(threadIds); m !== null; m = THREAD_ID_DOMAIN.exec(threadIds)) {
      selfThread = orgDomainOf(m[1] as string) === senderOrg
      if (!selfThread) break
    }
  }
  let quotesOwnMail = false
  if (quotesEarlierMail || forwarded) {
    const marker = textHead.search(QUOTE_OR_FORWARD)
    if (marker !== -1) {
      const around = textHead.slice(marker, marker + 400).toLowerCase()
      const name = (message.from?.name ?? '').toLowerCase().trim()
      quotesOwnMail = (senderAddress !== '' && around.includes(senderAddress)) || (name.length >= 4 && around.includes(name))
    }
  }
  const returnPathDomain = orgDomainOf(domainOf(returnPath.replace(ANGLE_BRACKETS, '').trim()))
  const priority = (h(message, 'x-priority') + ' ' + h(message, 'importance') + ' ' + h(message, 'x-msmail-priority')).toLowerCase()

  const replyToDomain = message.replyTo[0] ? orgDomainOf(domainOf(message.replyTo[0].address)) : ''

  return {
    senderAddress,
    senderDomain,
    senderOrg,
    self: !!me && senderAddress === me,
    whitelisted: senderDomain ? domainMatches(senderDomain, context.whitelistDomains) : null,
    blacklisted: senderDomain ? domainMatches(senderDomain, context.blacklistDomains) : null,
    knownContact,
    knownDomain,
    sameOrg,
    listUnsubscribe: listUnsub.length > 0,
    oneClickUnsubscribe: has(message, 'list-unsubscribe-post'),
    listId: onList,
    precedence: precedence === 'bulk' || precedence === 'list' || precedence === 'junk' ? precedence : '',
    autoSubmitted: (autoSubmittedValue !== '' && autoSubmittedValue !== 'no') || has(message, 'x-auto-response-suppress'),
    feedbackId: has(message, 'feedback-id'),
    esp,
    outreachTool,
    noReplySender: NOREPLY.test(local),
    roleSender: ROLE.test(local),
    freemailSender: PUBLIC_DOMAINS.has(senderDomain),
    replyToOtherDomain: replyToDomain !== '' && replyToDomain !== senderOrg,
    isThreadedReply,
    fakeReply: replySubject && !isThreadedReply && !onList,
    fakeReplySuspicious: false,
    forwarded,
    quotesEarlierMail,
    unsubscribeText: false,
    transactional,
    outreachPhrases: [],
    inboundPhrases: [],
    consentPhrases: [],
    requestPhrases: [],
    requestKind: '',
    pitch: false,
    calendar: message.calendar === true || CALENDAR_SUBJECT.test(subject),
    riskyDomain: RISKY_TLD.test(senderDomain) || senderOrg.indexOf('-') !== senderOrg.lastIndexOf('-'),
    majorPlatform: MAJOR_PLATFORMS.has(senderOrg),
    injection: false,
    recipientCount: recipients,
    undisclosedRecipients: recipients === 0 || toRaw.includes('undisclosed') || toRaw.includes('recipient list suppressed'),
    selfThread,
    quotesOwnMail,
    returnPathMismatch: returnPathDomain !== '' && senderOrg !== '' && returnPathDomain !== senderOrg && !esp,
    highPriority: HIGH_PRIORITY.test(priority),
    scriptMailer: SCRIPT_MAILER.test(mailer),
  }
}
