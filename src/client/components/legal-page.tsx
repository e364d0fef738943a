import type { ReactNode } from 'react'
import { LEGAL_LAST_UPDATED } from '#shared/product.ts'
import { PageMeta } from '#client/components/page-meta.tsx'

export interface LegalSection {
  id: string
  title: string
  /** h3 headings inside the section, listed under it in the table of contents. */
  subsections?: { id: string; title: string }[]
  content: ReactNode
}

/**
 * Long-form legal text with a table of contents built from its headings: a sticky sidebar on wide
 * screens, a list before the text on narrow ones.
 */
export function LegalPage({
  title,
  description,
  intro,
  sections,
}: {
  title: string
  description: string
  intro: ReactNode
  sections: LegalSection[]
}) {
  return (
    <>
      <PageMeta title={title} description={description} />
      <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6 sm:py-16">
        <header className="max-w-3xl">
          <h1 className="text-3xl font-bold tracking-tight text-ink sm:text-4xl">{title}</h1>
          <p className="mt-3 text-sm text-ink-subtle">Last updated {LEGAL_LAST_UPDATED}</p>
          <div className="prose-legal mt-4 text-lg">{intro}</div>
        </header>

        <div className="mt-10 grid grid-cols-1 gap-10 lg:grid-cols-[16rem_minmax(0,1fr)]">
          <nav aria-labelledby="toc-title" className="min-w-0 lg:sticky lg:top-24 lg:max-h-[calc(100dvh-7rem)] lg:self-start lg:overflow-y-auto">
            <div className="rounded-2xl border border-line bg-surface p-5">
              <h2 id="toc-title" className="text-sm font-semibold tracking-wide text-ink uppercase">
                Contents
              </h2>
              <ol className="mt-3 flex flex-col gap-1 text-sm">
                {sections.map((section, index) => (
                  <li key={section.id}>
                    <a
                      href={`#${section.id}`}
                      className="block rounded-md px-2 py-1 text-ink-muted transition-colors hover:bg-canvas hover:text-ink focus-visible:outline-2 focus-visible:outline-brand-500"
                    >
                      {index + 1}. {section.title}
                    </a>
                    {section.subsections && (
                      <ol className="mt-1 mb-1 ml-4 flex flex-col gap-0.5 border-l border-line pl-2">
                        {section.subsections.map((sub) => (
                          <li key={sub.id}>
                            <a
                              href={`#${sub.id}`}
                              className="block rounded-md px-2 py-0.5 text-ink-subtle transition-colors hover:bg-canvas hover:text-ink focus-visible:outline-2 focus-visible:outline-brand-500"
                            >
                              {sub.title}
                            </a>
                          </li>
                        ))}
                      </ol>
                    )}
                  </li>
                ))}
              </ol>
            </div>
          </nav>

          <article className="prose-legal min-w-0 max-w-3xl rounded-2xl border border-line bg-surface p-6 sm:p-10 [&>section:first-child>h2]:mt-0">
            {sections.map((section, index) => (
              <section key={section.id} aria-labelledby={section.id}>
                <h2 id={section.id}>
                  {index + 1}. {section.title}
                </h2>
                {section.content}
              </section>
            ))}
          </article>
        </div>
      </div>
    </>
  )
}
