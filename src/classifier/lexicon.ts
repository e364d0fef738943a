// Phrases that tell what a stranger wants: selling (cold outreach) or buying/asking (inbound mail a
// person wants). Matched on word n-grams (1–4 words, lower-case, numbers as "#n<digits>"), in
// several languages, so the model can learn intent from a few hundred examples and carry it to
// mail it has not seen. Each group becomes one feature ("out:call", "in:quote", …).

/** 'marker' groups are not model features: they only flag text for a signal (unsubscribe footer, injection check). */
export type PhraseGroup = { feature: string; kind: 'outreach' | 'inbound' | 'consent' | 'marker'; phrases: string[] }

export const LEXICON: PhraseGroup[] = [
  {
    feature: 'out:call',
    kind: 'outreach',
    phrases: [
      'quick call', 'short call', 'brief call', 'quick chat', 'short chat', 'hop on a call', 'jump on a call', 'book a call',
      'book a meeting', 'book a demo', 'grab time', 'grab a time', 'my calendar', 'calendly', 'worth a chat', 'worth a conversation',
      'open to a call', 'open to a chat', 'open to a conversation', '#n2 minute call', '#n2 min call', '#n2 minute chat',
      '#n2 minute demo', '#n2 minutes of your', '#n2 minutes next week', '#n2 minutes this week', 'fifteen minutes', 'twenty minutes', 'a few minutes next week', 'time next week', 'free next week', 'kurzes gespräch', 'kurzes telefonat',
      'kurzen austausch', 'breve chiamata', 'una chiamata', 'llamada breve', 'una llamada', 'chamada rápida', 'uma chamada',
      'appel rapide', 'un appel', 'kort gesprek', 'even bellen',
    ],
  },
  {
    feature: 'out:follow-up',
    kind: 'outreach',
    phrases: [
      'following up', 'follow up on my', 'my last email', 'my previous email', 'my last note', 'my last message', 'bumping this',
      'bump this', 'circling back', 'floating this', 'just checking in', 'checking in again', 'haven\'t heard back', 'did you get a chance',
      'did you have a chance', 'in case you missed', 'last attempt', 'closing the loop', 'close your file', 'stop reaching out',
      'one last time', 'top of your inbox', 'noch einmal melden', 'keine rückmeldung', 'erneut', 'ricontattarla', 'nessuna risposta',
      'vuelvo a escribir', 'sin respuesta', 'retomando', 'je me permets de relancer', 'relance',
    ],
  },
  {
    feature: 'out:right-person',
    kind: 'outreach',
    phrases: [
      'right person', 'right contact', 'point me in the right direction', 'point me to', 'who handles', 'who is responsible for',
      'who is in charge of', 'in charge of', 'zuständig', 'ansprechpartner', 'persona giusta', 'persona adecuada', 'pessoa certa',
      'bonne personne',
    ],
  },
  {
    feature: 'out:we-help',
    kind: 'outreach',
    phrases: [
      'we help', 'we helped', 'we\'ve helped', 'we have helped', 'helping companies', 'helping teams', 'help companies like', 'our clients',
      'our customers include', 'companies like yours', 'teams like yours', 'businesses like yours', 'case study', 'increase your',
      'boost your', 'grow your', 'scale your', 'generate more', 'more leads', 'more customers', 'more sales', 'roi', 'free audit',
      'free consultation', 'no obligation', 'no commitment', 'would you be open', 'are you open to', 'worth exploring',
      'would it make sense', 'does it make sense', 'i\'d love to show', 'love to show you', 'happy to share', 'let me know if you\'re interested',
      'let me know if you are interested', 'if you\'re interested', 'interested in learning', 'reach out', 'reaching out',
      'wir helfen', 'unverbindlich', 'unsere dienstleistungen', 'unser angebot', 'unsere lösung', 'kostenlose analyse',
      'i nostri servizi', 'senza impegno', 'la nostra agenzia', 'aiutiamo', 'nuestros servicios', 'sin compromiso', 'nuestra agencia',
      'ayudamos', 'nossos serviços', 'sem compromisso', 'nossa agência', 'ajudamos', 'nos services', 'sans engagement', 'notre agence',
      'nous aidons', 'onze diensten', 'vrijblijvend',
    ],
  },
  {
    feature: 'out:came-across',
    kind: 'outreach',
    phrases: [
      'came across your', 'i noticed your', 'i noticed that your', 'stumbled upon', 'found your website', 'found your company',
      'your website', 'your linkedin', 'on linkedin', 'auf ihre website', 'ihre webseite', 'il vostro sito', 'su sitio web',
      'seu site', 'votre site',
    ],
  },
  {
    feature: 'out:seo-leads',
    kind: 'outreach',
    phrases: [
      'link building', 'guest post', 'backlink', 'backlinks', 'sponsored post', 'domain authority', 'seo', 'rankings', 'first page of google',
      'lead list', 'lead lists', 'qualified leads', 'b2b leads', 'decision makers', 'contact list', 'email list', 'appointment setting',
      'lead generation', 'cold email', 'outbound', 'pipeline',
    ],
  },
  {
    feature: 'out:agency',
    kind: 'outreach',
    phrases: [
      'outsourcing', 'outsource', 'offshore', 'dedicated developers', 'dedicated team', 'white label', 'staff augmentation', 'our agency',
      'development agency', 'marketing agency', 'our team of', 'hourly rate', 'nearshore',
    ],
  },
  {
    feature: 'out:partnership-award',
    kind: 'outreach',
    phrases: [
      'partnership opportunity', 'collaboration opportunity', 'mutually beneficial', 'win-win', 'win win', 'been selected', 'been nominated',
      'been shortlisted', 'award nominee', 'award winner', 'recognition program', 'featured in our', 'exclusive feature',
    ],
  },
  {
    feature: 'out:opt-out-reply',
    kind: 'outreach',
    phrases: [
      'not interested', 'reply stop', 'reply no', 'reply unsubscribe', 'don\'t want to hear from me', 'remove you from',
      'kein interesse', 'non interessato', 'no le interesa', 'não tem interesse', 'pas intéressé',
    ],
  },
  {
    feature: 'in:quote',
    kind: 'inbound',
    phrases: [
      'a quote', 'quote for', 'quotation', 'pricing for', 'your pricing', 'your rates', 'could you send', 'can you send',
      'send me a quote', 'send us a quote', 'how much would', 'how much does', 'looking for a supplier', 'looking for a vendor',
      'looking for a partner to', 'we are looking for', 'we\'re looking for', 'request for proposal', 'rfp', 'offerte', 'offerteaanvraag',
      'angebot für', 'ein angebot', 'anfrage', 'preventivo', 'un preventivo', 'presupuesto', 'cotización', 'orçamento', 'devis',
    ],
  },
  {
    feature: 'in:buy',
    kind: 'inbound',
    phrases: [
      'interested in buying', 'interested in purchasing', 'interested in your product', 'interested in your services', 'like to order',
      'want to order', 'place an order', 'purchase order', 'buy your', 'sign up for your', 'licence for', 'license for', 'seats for',
      'our team would like', 'we would like to use', 'bestellen', 'acquistare', 'comprar', 'commander',
    ],
  },
  {
    feature: 'in:application',
    kind: 'inbound',
    phrases: [
      'apply for', 'applying for', 'application for', 'my application', 'my cv', 'my resume', 'resume attached', 'cv attached',
      'the position', 'the role', 'job posting', 'vacancy', 'internship', 'portfolio', 'bewerbung', 'stelle', 'candidatura',
      'posizione', 'vacante', 'candidature', 'stage',
    ],
  },
  {
    feature: 'in:press-intro',
    kind: 'inbound',
    phrases: [
      'for an article', 'for a story', 'i\'m a journalist', 'i am a journalist', 'reporter', 'interview', 'comment for',
      'introduce you', 'introducing you', 'wanted to introduce', 'connect you with', 'connecting you', 'great to meet', 'nice to meet you',
      'we met at', 'after our conversation', 'as discussed', 'as promised', 'per our conversation', 'thanks for your time',
    ],
  },
  {
    feature: 'in:question',
    kind: 'inbound',
    phrases: [
      'i have a question about', 'question about your', 'i bought', 'i purchased', 'my order', 'doesn\'t work', 'does not work',
      'not working', 'crashes', 'bug', 'i\'m a student', 'i am a student', 'my son', 'my daughter', 'admission', 'enrol', 'enroll',
      'kraschar', 'funktioniert nicht', 'non funziona', 'no funciona', 'não funciona', 'ne fonctionne pas',
    ],
  },
  {
    feature: 'in:consent',
    kind: 'consent',
    phrases: [
      'you subscribed', 'you signed up', 'signed up for', 'subscribed to', 'because you subscribed', 'because you signed up',
      'your subscription', 'manage your subscription', 'your account', 'your preferences', 'email preferences', 'notification settings',
      'email settings', 'this email was intended for', 'you opted in', 'as a customer', 'as a member', 'our newsletter', 'this newsletter',
      'view in browser', 'view online', 'newsletter abonniert', 'angemeldet', 'ihr konto', 'ti sei iscritto', 'sei iscritto',
      'il tuo account', 'te suscribiste', 'tu cuenta', 'você se inscreveu', 'sua conta', 'vous êtes inscrit', 'votre compte',
      'je bent ingeschreven', 'je account',
    ],
  },
  {
    feature: 'out:no-consent',
    kind: 'outreach',
    phrases: [
      'publicly available', 'publicly listed', 'because you are listed', 'you are listed as', 'listed as a', 'listed on',
      'your company was', 'we came across', 'public sources', 'public profile', 'published on', 'found your email', 'found your contact',
      'found your details', 'your contact details', 'legitimate interest', 'we found you', 'öffentlich zugänglich', 'öffentlich verfügbar',
      'berechtigtes interesse', 'pubblicato su', 'interesse legittimo', 'disponible públicamente', 'interés legítimo',
      'publicamente disponível', 'interesse legítimo', 'publiquement', 'intérêt légitime',
    ],
  },
  {
    feature: 'in:newsletter',
    kind: 'consent',
    phrases: [
      'in this issue', 'this issue', 'this week in', 'this week\'s', 'weekly digest', 'daily digest', 'monthly digest', 'top stories',
      'read online', 'read more', 'edition', 'issue #n1', 'issue #n2', 'issue #n3', 'in dieser ausgabe', 'in questo numero',
      'en este número', 'nesta edição', 'dans ce numéro',
    ],
  },
  {
    feature: 'marker:unsubscribe',
    kind: 'marker',
    phrases: [
      'unsubscribe', 'unsubscribed', 'opt out', 'opt-out', 'abmelden', 'abbestellen', 'désinscrire', 'désabonner', 'desinscribirse',
      'disiscriviti', 'disiscriverti', 'cancellarti', 'darse de baja', 'darte de baja', 'cancelar suscripción', 'descadastrar',
      'cancelar inscrição', 'uitschrijven', 'afmelden', 'manage your preferences', 'manage preferences', 'email preferences',
      'e-mail preferences', 'manage your subscriptions', 'manage subscriptions', 'manage your email', 'avmelde', 'avregistrera',
    ],
  },
  {
    feature: 'marker:injection',
    kind: 'marker',
    phrases: [
      'ignore', 'disregard', 'assistant', 'inst', 'classify', 'categorize', 'categorise', 'untrusted', 'new instructions',
      'system prompt',
    ],
  },
]
