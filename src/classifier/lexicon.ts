// Phrases that tell what a stranger wants: selling (cold outreach) or buying/asking (inbound mail a
// person wants). Matched on word n-grams (1–4 words, lower-case, numbers as "#n<digits>"), in
// several languages, so the model can learn intent from a few hundred examples and carry it to
// mail it has not seen. Each group becomes one feature ("out:call", "in:quote", …).

/**
 * 'marker' groups are not model features: they only flag text for a signal (unsubscribe footer,
 * injection check). 'request' groups are inbound features whose phrases point at the RECIPIENT's
 * product, price, job, time or comment ("your pricing", "the role you posted", "my order"): they make
 * the recipient-directed request signal (docs/classifier.md, "Recipient-directed requests").
 * 'pitch' groups are not model features either (promotions people want use the same words): the
 * sender describing its own offer ("we offer", "our catalogue", "free samples") cancels that signal.
 */
export type PhraseGroup = { feature: string; kind: 'outreach' | 'inbound' | 'request' | 'consent' | 'marker' | 'pitch'; phrases: string[] }

export const LEXICON: PhraseGroup[] = [
  {
    feature: 'out:call',
    kind: 'outreach',
    phrases: [
      'quick call', 'short call', 'brief call', 'quick chat', 'short chat', 'hop on a call', 'jump on a call', 'book a call',
      'book a meeting', 'book a demo', 'grab time', 'grab a time', 'my calendar', 'calendly', 'worth a chat', 'worth a conversation',
      'open to a call', 'open to a chat', 'open to a conversation', '#n2 minute call', '#n2 min call', '#n2 minute chat',
      '#n2 minute demo', '#n2 minutes of your', '#n2 minutes next week', '#n2 minutes this week', 'fifteen minutes', 'twenty minutes', 'a few minutes next week', 'time next week', 'free next week', 'kurzes gespräch', 'kurzes telefonat',
      'kurzen austausch', 'breve chiamata', 'chiamata veloce', 'llamada breve', 'llamada rápida', 'chamada rápida', 'chamada curta',
      'appel rapide', 'court appel', 'kort gesprek', 'even bellen',
      'har du #n2 minuter', 'har du #n2 minutter', 'kort samtal', 'snabbt samtal', 'kort samtale', 'heb je #n2 minuten', 'hebt u #n2 minuten',
      'half uurtje', 'kwartiertje', 'korte call', 'tienes #n2 minutos', 'tiene #n2 minutos', 'tem #n2 minutos', 'hai #n2 minuti',
      'ha #n2 minuti', 'haben sie #n2 minuten', 'hast du #n2 minuten', 'agendar una llamada', 'una breve call', 'un court échange',
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
      'mitt förra mejl', 'mitt tidigare mejl', 'min forrige e-post', 'min sidste mail', 'mijn vorige mail', 'mijn eerdere mail',
      'mi último correo', 'mi correo anterior', 'la mia ultima email', 'la mia precedente email', 'meu último e-mail',
      'mon dernier email', 'mon précédent email', 'meine letzte e-mail', 'meine letzte mail', 'nachfassen',
    ],
  },
  {
    feature: 'out:right-person',
    kind: 'outreach',
    phrases: [
      'right person', 'right contact', 'point me in the right direction', 'point me to', 'who handles', 'who is responsible for',
      'who is in charge of', 'in charge of', 'zuständig', 'ansprechpartner', 'persona giusta', 'persona adecuada', 'pessoa certa',
      'bonne personne',
      'vem ansvarar för', 'rätt person', 'hvem er ansvarlig', 'rett person', 'den rette person', 'wie is verantwoordelijk',
      'juiste persoon', 'quién se encarga', 'la persona encargada', 'chi si occupa', 'quem é responsável', 'la personne en charge',
      'wer ist zuständig',
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
      'let me know if you are interested', 'if you\'re interested', 'interested in learning',
      'wir helfen', 'unverbindlich', 'unsere dienstleistungen', 'unser angebot', 'unsere lösung', 'kostenlose analyse',
      'i nostri servizi', 'senza impegno', 'la nostra agenzia', 'aiutiamo', 'nuestros servicios', 'sin compromiso', 'nuestra agencia',
      'ayudamos', 'nossos serviços', 'sem compromisso', 'nossa agência', 'ajudamos', 'nos services', 'sans engagement', 'notre agence',
      'nous aidons', 'onze diensten', 'vrijblijvend',
      'vi hjälper', 'vi hjelper', 'vi hjælper', 'wij helpen', 'utan förpliktelser', 'uforpliktende', 'uforpligtende', 'no cure no pay',
      'kostenloses erstgespräch', 'consulta gratuita', 'consulenza gratuita', 'consultoria gratuita', 'auditoría gratuita',
      'análisis gratuito', 'analisi gratuita', 'gratis analys', 'gratis analyse', 'aumentar sus ventas', 'aumentar tus ventas',
      'fler kunder', 'flere kunder', 'meer klanten', 'più clienti', 'mais clientes', 'plus de clients', 'mehr kunden', 'más clientes',
    ],
  },
  {
    feature: 'out:came-across',
    kind: 'outreach',
    phrases: [
      'came across your', 'i noticed your', 'i noticed that your', 'stumbled upon', 'found your website', 'found your company', 'reach out', 'reaching out',
      'your website', 'your linkedin', 'on linkedin', 'auf ihre website', 'ihre webseite', 'il vostro sito', 'su sitio web',
      'seu site', 'votre site',
      'er webbplats', 'er hemsida', 'din hemsida', 'deres nettside', 'din nettside', 'jeres hjemmeside', 'din hjemmeside',
      'jullie website', 'uw website', 'je website', 'tu página web', 'su página web', 'tu sitio web', 'il tuo sito', 'il suo sito',
      'o seu site', 'ton site',
    ],
  },
  {
    feature: 'out:seo-leads',
    kind: 'outreach',
    phrases: [
      'link building', 'guest post', 'backlink', 'backlinks', 'sponsored post', 'domain authority', 'seo', 'rankings', 'first page of google',
      'lead list', 'lead lists', 'qualified leads', 'b2b leads', 'decision makers', 'contact list', 'email list', 'appointment setting',
      'lead generation', 'cold email', 'outbound', 'pipeline',
      'reseñas de google', 'google-recensioner', 'google-anmeldelser', 'recensioni google', 'avaliações google', 'avis google',
      'google reviews', 'google bewertungen', 'posicionamiento web', 'référencement', 'posizionamento', 'vindbaarheid',
      'leads cualificados', 'lead qualificati', 'leads qualificados', 'leads qualifiés',
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
      'cuota de participación', 'cuota de recuperación', 'costo de participación', 'quota di partecipazione',
      'costo di partecipazione', 'taxa de participação', 'frais de participation', 'deelnamekosten', 'teilnahmegebühr',
      'deltagaravgift', 'deltakeravgift', 'deltagergebyr', 'ha sido seleccionado', 'ha sido seleccionada', 'è stato selezionato',
      'è stata selezionata', 'a été sélectionné', 'a été sélectionnée', 'foi selecionado', 'foi selecionada', 'is geselecteerd',
      'wurde ausgewählt', 'har valts ut', 'er valgt ut', 'er blevet udvalgt', 'oportunidad de colaboración',
      'opportunità di collaborazione', 'oportunidade de parceria', 'opportunité de partenariat', 'samarbetsmöjlighet',
    ],
  },
  {
    feature: 'out:generic-greeting',
    kind: 'outreach',
    phrases: [
      'dear business owner', 'dear owner', 'dear founder', 'dear ceo', 'dear entrepreneur', 'dear partner', 'hello business owner',
      'estimado empresario', 'estimada empresaria', 'estimado emprendedor', 'gentile titolare', 'gentile imprenditore',
      'caro imprenditore', 'cher dirigeant', 'chère dirigeante', 'madame la dirigeante', 'monsieur le dirigeant',
      'prezado empresário', 'caro empresário', 'beste ondernemer', 'geachte ondernemer', 'lieber unternehmer',
      'liebe unternehmerin', 'sehr geehrte geschäftsführung',
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
      'our team would like', 'would like to use', 'bestellen', 'acquistare', 'comprar', 'commander',
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
      'introduce you', 'introducing you', 'wanted to introduce', 'connect you with', 'connecting you', 'you two', 'both of you', 'great to meet', 'nice to meet you',
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
    feature: 'pitch:offer',
    kind: 'pitch',
    phrases: [
      'we offer', 'we provide', 'we supply', 'we specialise', 'we specialize', 'we manufacture', 'our factory', 'factory price',
      'factory prices', 'our prices', 'our price list', 'our catalogue', 'our catalog', 'our products', 'our platform', 'our solution',
      'our software', 'our tool', 'our service', 'our fee', 'free sample', 'free samples', 'free quotation', 'free trial', 'free demo',
      'free inspection', 'free inspections', 'competitive price', 'competitive prices', 'candidates available', 'qualified candidates',
      'pre-vetted', 'pre vetted', 'publication fee', 'placement fee', 'guest package', 'sponsored content', 'a small fee',
      'wir bieten', 'unsere produkte', 'unsere kunden', 'kostenlos und unverbindlich', 'kandidaten', 'nous proposons', 'nos produits',
      'nos clients', 'profils disponibles', 'offriamo', 'i nostri prodotti', 'i nostri clienti', 'ofrecemos', 'nuestros productos',
      'nuestros clientes', 'precios de fábrica', 'catálogo', 'oferecemos', 'nossos produtos', 'nossos clientes', 'wij bieden',
      'onze producten', 'onze klanten', 'we would like to offer', 'we\'d like to offer', 'we would like to propose',
      'vorremmo proporre', 'vorremmo proporle', 'vorremmo proporvi', 'le proponemos', 'queremos ofrecerle', 'le ofrecemos',
      'nous vous proposons', 'souhaitons vous proposer', 'gostaríamos de propor', 'gostaríamos de lhe apresentar',
      'möchten wir ihnen', 'wir möchten ihnen', 'willen wij u',
      'vi erbjuder', 'erbjuder vi', 'våra tjänster', 'vi tilbyr', 'tilbyr vi', 'våre tjenester', 'vi tilbyder', 'vores ydelser',
      'bieden wij', 'våra kunder', 'våre kunder', 'vores kunder',
      // Polish, Czech, Slovak, Finnish, Hungarian, Romanian, Turkish.
      'oferujemy', 'nasze usługi', 'naszych klientów', 'nasze produkty', 'świadczymy', 'nabízíme', 'naše služby', 'naši klienti',
      'naše produkty', 'ponúkame', 'tarjoamme', 'palvelumme', 'tuotteemme', 'kínálunk', 'szolgáltatásaink', 'ügyfeleink',
      'termékeink', 'oferim', 'serviciile noastre', 'clienții noștri', 'produsele noastre', 'sunuyoruz', 'hizmetlerimiz',
      'müşterilerimiz', 'ürünlerimiz',
    ],
  },
  {
    feature: 'in:ask-buy',
    kind: 'request',
    phrases: [
      'your pricing', 'your prices', 'your price list', 'your rates', 'send pricing', 'send me pricing', 'send us pricing',
      'send over pricing', 'a quote for', 'send me a quote', 'send us a quote', 'give me a quote', 'give us a quote', 'request a quote',
      'quote request', 'could you quote', 'do you offer', 'do you sell', 'do you ship', 'do you deliver', 'do you make', 'still available',
      'still for sale', 'would you take', 'would you accept', 'we\'d like to order', 'would like to order',
      'i would like to order', 'like to buy', 'like to purchase', 'interested in buying', 'interested in purchasing', 'how much is',
      'how much for', 'how much would', 'how much does', 'we\'re evaluating', 'we are evaluating', 'before i buy', 'before i order',
      'angebot machen', 'angebot zukommen', 'ihre preise', 'was kostet', 'noch verfügbar', 'noch zu haben', 'kostenvoranschlag',
      'möchten bestellen', 'gerne bestellen', 'demande de devis', 'un devis', 'vos tarifs', 'vos prix', 'toujours disponible',
      'encore disponible', 'souhaiterais commander', 'souhaitons commander', 'combien coûte', 'un preventivo', 'i vostri prezzi',
      'i tuoi prezzi', 'quanto costa', 'quanto costerebbe', 'ancora disponibile', 'vorrei ordinare', 'vorremmo ordinare',
      'vorrei acquistare', 'un presupuesto', 'una cotización', 'sus precios', 'sus tarifas', 'cuánto cuesta', 'sigue disponible', 'todavía disponible',
      'nos gustaría pedir', 'quisiera pedir', 'quisiera comprar', 'nos gustaría comprar', 'um orçamento', 'seus preços', 'quanto custa',
      'ainda disponível', 'gostaria de comprar', 'gostaríamos de comprar', 'gostaria de encomendar', 'een offerte', 'offerte sturen',
      'offerte aanvragen', 'uw prijzen', 'wat kost', 'nog beschikbaar', 'willen bestellen', 'graag bestellen',
      // Swedish, Norwegian, Danish, Polish, Czech, Slovak, Finnish, Hungarian, Romanian, Turkish.
      'era priser', 'er prislista', 'offertförfrågan', 'vad kostar', 'vill beställa', 'vilja beställa',
      'deres priser', 'hva koster', 'ønsker å bestille', 'vil gjerne bestille', 'jeres priser',
      'hvad koster', 'vil gerne bestille', 'ønsker at bestille', 'zapytanie ofertowe', 'państwa ceny', 'państwa cennik',
      'ile kosztuje', 'chcielibyśmy zamówić', 'chciałbym zamówić', 'chciałabym zamówić', 'poptávka', 'poptáváme', 'vaše ceny',
      'váš ceník', 'kolik stojí', 'rádi bychom objednali', 'chtěl bych objednat', 'chtěla bych objednat', 'váš cenník',
      'koľko stojí', 'chceli by sme objednať', 'chcel by som objednať', 'chcela by som objednať', 'tarjouspyyntö',
      'pyydämme tarjousta', 'hintanne', 'hinnastonne', 'paljonko maksaa', 'haluaisimme tilata', 'haluaisin tilata',
      'árajánlatot kérünk', 'árajánlatot kérnék', 'árajánlatkérés', 'mennyibe kerül', 'szeretnénk megrendelni',
      'szeretnénk rendelni', 'szeretnék rendelni', 'cerere de ofertă', 'prețurile dumneavoastră', 'prețurile voastre', 'cât costă',
      'am dori să comandăm', 'aș dori să comand', 'teklifinizi rica', 'fiyat teklifi rica', 'fiyatlarınız', 'fiyat listenizi',
      'sipariş vermek istiyoruz', 'sipariş vermek istiyorum',
    ],
  },
  {
    feature: 'in:ask-job',
    kind: 'request',
    phrases: [
      'i\'m applying', 'i am applying', 'like to apply', 'love to apply', 'my application', 'my cv', 'my resume',
      'cv attached', 'resume attached', 'cover letter', 'my portfolio', 'the role you', 'the position you', 'the job you',
      'position advertised', 'role advertised', 'job advertised', 'considered for your', 'if there\'s an opening',
      'are you hiring', 'bewerbe mich', 'meine bewerbung', 'ausgeschriebene stelle', 'meinen lebenslauf', 'mein lebenslauf',
      'ma candidature', 'mon cv', 'lettre de motivation', 'la mia candidatura', 'il mio curriculum', 'il mio cv', 'candidarmi',
      'mi candidatura', 'mi currículum', 'mi cv', 'minha candidatura', 'meu currículo', 'meu cv', 'mijn sollicitatie', 'mijn cv',
      'solliciteren', 'job opening', 'the opening', 'your job post', 'your job ad', 'your posting', 'the vacancy', 'your vacancy',
      'saw your post', 'you\'re hiring', 'you are hiring', 'me candidatar', 'candidatar-me', 'a vaga', 'vaga de', 'postularme',
      'mi postulación', 'la vacante', 'oferta de empleo', 'je souhaite postuler', 'postuler', 'offre d\'emploi', 'votre annonce',
      'stellenanzeige', 'die stelle', 'ihre stelle', 'la posizione', 'vostro annuncio', 'de vacature', 'jullie vacature',
      'min ansökan', 'mitt cv', 'söka tjänsten', 'utannonserade tjänsten', 'praktikplats', 'min søknad', 'søke på stillingen',
      'utlyste stillingen', 'min ansøgning', 'søge stillingen', 'opslåede stilling', 'praktikplads', 'moje cv', 'aplikuję na',
      'list motywacyjny', 'můj životopis', 'životopis v příloze', 'motivační dopis', 'ucházet se', 'stáž', 'môj životopis',
      'životopis v prílohe', 'motivačný list', 'uchádzať sa', 'hakemukseni', 'ansioluetteloni', 'työpaikkailmoitus',
      'harjoittelupaikka', 'önéletrajzom', 'önéletrajzomat', 'pályázatom', 'jelentkezni szeretnék', 'motivációs levél',
      'scrisoare de intenție', 'să aplic', 'aplic pentru', 'candidatura mea', 'stagiu de practică', 'özgeçmişim', 'özgeçmişimi',
      'başvurum', 'başvurmak istiyorum', 'staj',
    ],
  },
  {
    feature: 'in:ask-press',
    kind: 'request',
    phrases: [
      'for an article', 'for a story', 'for a piece', 'working on a piece', 'working on an article', 'working on a story',
      'writing an article', 'writing a piece', 'request for comment', 'i\'m a reporter', 'i am a reporter', 'i\'m a journalist',
      'i am a journalist', 'my deadline', 'a few questions', 'a couple of questions', 'couple of questions', 'write about it',
      'your exhibition', 'your talk', 'your lecture', 'your class', 'your keynote', 'your presentation', 'for speaking',
      'informational interview', 'informational chat', 'your perspective', 'for our readers', 'für einen artikel', 'ich bin journalist',
      'ich bin journalistin', 'pour un article', 'je suis journaliste', 'per un articolo', 'sono una giornalista', 'sono un giornalista',
      'an interview', 'for an interview', 'breve intervista', 'para un artículo', 'soy periodista', 'para uma matéria', 'sou jornalista', 'voor een artikel',
      'ik ben journalist',
      'för en artikel', 'jag är journalist', 'skriver en artikel', 'for en artikkel', 'jeg er journalist', 'skriver en artikkel',
      'til en artikel', 'do artykułu', 'jestem dziennikarzem', 'jestem dziennikarką', 'piszę artykuł', 'pro článek', 'jsem novinář',
      'jsem novinářka', 'píšu článek', 'pre článok', 'som novinár', 'som novinárka', 'píšem článok', 'artikkelia varten',
      'olen toimittaja', 'kirjoitan juttua', 'cikkhez', 'újságíró vagyok', 'cikket írok', 'pentru un articol', 'sunt jurnalist',
      'sunt jurnalistă', 'scriu un articol', 'gazeteciyim', 'bir makale için', 'bir haber için',
    ],
  },
  {
    feature: 'in:ask-customer',
    kind: 'request',
    phrases: [
      'my order', 'we ordered', 'we booked', 'my booking', 'hasn\'t arrived',
      'has not arrived', 'never arrived', 'known issue', 'since the update', 'meine bestellung', 'ich habe bestellt', 'bei ihnen gekauft',
      'reklamation', 'ma commande', 'j\'ai commandé', 'il mio ordine', 'ho ordinato', 'mi pedido', 'he comprado', 'compré',
      'meu pedido', 'comprei', 'mijn bestelling', 'ik heb besteld',
      'min beställning', 'jag beställde', 'min bestilling', 'jeg bestilte', 'moje zamówienie', 'zamówiłem', 'zamówiłam',
      'moje objednávka', 'objednal jsem', 'objednala jsem', 'moja objednávka', 'objednal som', 'objednala som', 'tilaukseni',
      'tilasin', 'a rendelésem', 'rendeltem', 'comanda mea', 'am comandat', 'siparişim', 'sipariş verdim',
    ],
  },
  {
    feature: 'in:ask-case',
    kind: 'request',
    phrases: [
      'your application', 'your enquiry', 'your inquiry', 'your submission', 'your claim', 'ihre bewerbung', 'ihr antrag',
      'ihren antrag', 'ihre anfrage', 'aktenzeichen', 'su solicitud', 'expediente', 'votre demande', 'votre dossier',
      'votre candidature', 'la sua domanda', 'la sua richiesta', 'la sua candidatura', 'o seu pedido', 'a sua candidatura',
      'o seu processo', 'uw aanvraag', 'uw verzoek', 'uw sollicitatie', 'je aanvraag',
    ],
  },
  {
    feature: 'in:consent',
    kind: 'consent',
    phrases: [
      'you subscribed', 'you signed up', 'signed up for', 'subscribed to', 'because you subscribed', 'because you signed up',
      'your subscription', 'manage your subscription', 'your account', 'your preferences', 'email preferences', 'notification settings',
      'email settings', 'this email was intended for', 'you opted in', 'as a customer', 'as a member', 'our newsletter', 'this newsletter',
      'view in browser', 'view online', 'email subscription', 'e-mail subscription', 'monthly newsletter', 'weekly newsletter',
      'newsletter abonniert', 'angemeldet', 'ihr konto', 'ti sei iscritto', 'sei iscritto',
      'il tuo account', 'te suscribiste', 'tu cuenta', 'você se inscreveu', 'sua conta', 'vous êtes inscrit', 'votre compte',
      'je bent ingeschreven', 'je account', 'because you purchased', 'because you bought', 'your last order', 'your previous order',
      'your recent purchase', 'as a valued customer', 'loyal customer', 'as a subscriber', 'for our customers', 'for our members',
      'en tant que client', 'en tant que cliente', 'vous aviez choisi', 'votre dernière commande', 'vous êtes abonné', 'nos abonnés',
      'como cliente', 'por ser cliente', 'por ser nosso cliente', 'a sua última encomenda', 'recebe esta comunicação',
      'tu último pedido', 'por ser cliente nuestro', 'als kunde', 'als kundin', 'ihre letzte bestellung', 'als abonnent',
      'come cliente', 'il tuo ultimo ordine', 'in quanto cliente', 'als klant', 'je laatste bestelling', 'uw laatste bestelling',
      'som kund', 'som kunde',
      // Polish, Czech, Slovak, Finnish, Swedish, Danish, Norwegian, Hungarian, Romanian, Turkish.
      'twoje konto', 'twoim koncie', 'na twoim koncie', 'jako klient', 'jako subskrybent', 'zapisałeś się', 'zapisałaś się',
      'program lojalnościowy', 'twoje ostatnie zamówienie', 'otrzymujesz tę wiadomość', 'naszych klientów', 'váš účet', 'vašem účtu',
      'jako zákazník', 'jako náš zákazník', 'přihlásili jste se', 'odebíráte', 'odběr novinek', 'věrnostní program',
      'vaše poslední objednávka', 'ako zákazník', 'prihlásili ste sa', 'odoberáte', 'tilisi', 'asiakkaana', 'kanta-asiakas',
      'kanta asiakas', 'olet tilannut', 'uutiskirjeen tilaajana', 'viimeisin tilauksesi', 'saat tämän viestin', 'ditt konto',
      'din konto', 'du prenumererar', 'som medlem', 'din senaste beställning', 'du får detta mejl', 'du modtager denne',
      'du mottar denne', 'du er tilmeldt', 'du er påmeldt', 'fiókodban', 'fiókjában', 'feliratkoztál', 'feliratkozott',
      'törzsvásárló', 'utolsó rendelésed', 'levelet azért kapod', 'contul tău', 'contul dvs', 'te-ai abonat', 'v-ați abonat',
      'ca și client', 'ultima ta comandă', 'primești acest e-mail', 'hesabınız', 'hesabınızda', 'abone oldunuz', 'üyemiz olarak',
      'son siparişiniz', 'bu e-postayı',
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
      'wypisz się', 'wypisać się', 'rezygnacja z subskrypcji', 'nie chcę otrzymywać', 'odhlásit', 'odhlásit se', 'odhlášení',
      'zrušit odběr', 'odhlásiť', 'zrušiť odber', 'peruuta tilaus', 'peru tilaus', 'lopeta tilaus', 'avsluta prenumerationen',
      'avprenumerera', 'afmeld', 'frameld', 'meld deg av', 'leiratkozás', 'leiratkozhatsz', 'leiratkozni', 'dezabonare',
      'dezabonează', 'dezabonați', 'abonelikten çık', 'aboneliğinizi iptal',
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

/**
 * Outreach phrases that inbound mail uses too ("I saw your website", "I'm reaching out", "would you
 * be open to…"): they are model features but do not count as a pitch that cancels a
 * recipient-directed request. Neither do the groups marked NO_PITCH_GROUPS (asking for a call, a
 * follow-up, the right person): applicants and buyers ask for time too; a pitch offers the sender's
 * own services.
 */
export const NO_PITCH_GROUPS = new Set(['out:call', 'out:follow-up', 'out:right-person'])
export const WEAK_OUTREACH = new Set([
  'your website', 'auf ihre website', 'ihre webseite', 'il vostro sito', 'su sitio web', 'seu site', 'votre site', 'reach out',
  'reaching out', 'in charge of', 'point me to', 'would you be open', 'are you open to', 'happy to share',
  'er webbplats', 'er hemsida', 'din hemsida', 'deres nettside', 'din nettside', 'jeres hjemmeside', 'din hjemmeside',
  'jullie website', 'uw website', 'je website', 'tu página web', 'su página web', 'tu sitio web', 'il tuo sito', 'il suo sito',
  'o seu site', 'ton site',
])

/**
 * Everyday words (greetings, sign-offs, politeness, the commonest verbs) in the corpus languages. In
 * the unwanted-vs-wanted stage their weight cannot point towards unwanted (EVERYDAY_CAP in model.ts);
 * the same holds for words frequent in genuine training mail. Bigrams made only of such words,
 * function words and numbers count as everyday too.
 */
export const EVERYDAY_WORDS = (
  'hi hello hey dear thanks thank thx best regards cheers kind kindly warm wishes sincerely yours please would could should will ' +
  'can may might hope happy glad see let know soon team month week day today tomorrow time just like love want need get got ' +
  'send sent make made take look looking good great nice well also question questions quick offer help ' +
  'hallo liebe lieber guten tag morgen abend freundlichen freundliche grüßen grüße gruß viele beste herzliche geehrte geehrter ' +
  'sehr danke vielen dank gern bonjour bonsoir salut merci cordialement salutations bien sincères bonne journée ' +
  'ciao buongiorno buonasera grazie saluti cordiali distinti caro cara gentile hola buenos buenas días tardes gracias saludos ' +
  'atentamente querido querida olá oi bom dia tarde obrigado obrigada abraço abraços atenciosamente prezado prezada ' +
  'hoi beste groet groeten vriendelijke bedankt hartelijk dag ' +
  'hej hei tack takk tak hälsningar hilsen hilsner venlig vennlig vänliga vennlige mvh ' +
  'dzień dobry pozdrawiam pozdrowienia serdecznie dziękuję dziękujemy szanowny szanowna szanowni witam cześć proszę ' +
  'dobrý dobrá děkuji děkujeme ďakujem pozdravem pozdravom zdravím vážený vážená vážení ahoj prosím ' +
  'moi kiitos terveisin ystävällisin parhain hyvää päivää arvoisa ' +
  'napot kívánok üdvözlettel köszönöm köszönjük tisztelt kedves szia üdv ' +
  'bună buna ziua mulțumesc multumesc mulțumim multumim stimă stima stimate stimată ' +
  'merhaba teşekkürler teşekkür ederim saygılarımla iyi günler sevgiler rica'
).split(' ')
