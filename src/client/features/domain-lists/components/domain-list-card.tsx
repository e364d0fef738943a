import { useId, useState, type FormEvent } from 'react'
import { AlertCircle, CheckCircle2, Globe, Plus, X } from 'lucide-react'
import { AddDomainSchema, type DomainListKind } from '#shared/api/domain-lists.ts'
import { Button } from '#client/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#client/components/ui/card.tsx'
import { Input } from '#client/components/ui/input.tsx'
import { Skeleton } from '#client/components/ui/skeleton.tsx'
import { useAddDomain } from '../api/add-domain.ts'
import { useDomainList } from '../api/get-domain-list.ts'
import { useRemoveDomain } from '../api/remove-domain.ts'
import { useFlashMessage, type FlashMessage } from '../hooks/use-flash-message.ts'
import { describeAddError } from '../lib/add-errors.ts'
import { DOMAIN_LIST_MESSAGES } from '../messages.ts'

function Flash({ flash, id }: { flash: FlashMessage | null; id: string }) {
  if (!flash) return null
  if (flash.tone === 'success') {
    return (
      <p id={id} role="status" className="flex items-start gap-2 text-sm text-success-700">
        <CheckCircle2 aria-hidden className="mt-0.5 size-4 shrink-0" />
        <span>{flash.text}</span>
      </p>
    )
  }
  return (
    <p id={id} role="alert" className="flex items-start gap-2 rounded-lg border border-danger-200 bg-danger-50 p-3 text-sm text-danger-700">
      <AlertCircle aria-hidden className="mt-0.5 size-4 shrink-0" />
      <span>{flash.text}</span>
    </p>
  )
}

/**
 * The Whitelisted Domains or Blacklisted Domains card (SPEC 2, SPEC 3 "Whitelist / blacklist entry",
 * SPEC 5 and SPEC 8 "Domain lists"): the list with a remove button per entry, and an add form that
 * checks the domain with the contract's own schema before sending it.
 */
export function DomainListCard({ kind, className }: { kind: DomainListKind; className?: string }) {
  const list = useDomainList(kind)
  const add = useAddDomain(kind)
  const remove = useRemoveDomain(kind)
  const { flash, show } = useFlashMessage()
  const [input, setInput] = useState('')
  // The field is marked invalid only for its own validation failure, until it is edited.
  const [invalid, setInvalid] = useState(false)
  const inputId = useId()
  const flashId = useId()
  const titleId = `${kind}-card-title`

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    // SPEC 5: at least 3 characters, letters, digits, dots and hyphens ending in a dot and 2+ letters.
    const parsed = AddDomainSchema.safeParse({ domain: input })
    if (!parsed.success) {
      setInvalid(true)
      show('error', parsed.error.issues[0]?.message ?? DOMAIN_LIST_MESSAGES.addFailed(parsed.error.message))
      return
    }
    const { domain } = parsed.data
    add.mutate(domain, {
      onSuccess: (entry) => {
        setInput('')
        show('success', DOMAIN_LIST_MESSAGES.added(kind, entry.domain))
      },
      onError: (error) => {
        const described = describeAddError(kind, domain, error)
        if (described.alreadyListed) setInput('')
        show('error', described.text)
      },
    })
  }

  const removeEntry = (domain: string) =>
    remove.mutate(domain, {
      onSuccess: () => show('success', DOMAIN_LIST_MESSAGES.removed(kind, domain)),
      onError: (error) => show('error', DOMAIN_LIST_MESSAGES.removeFailed(error.message)),
    })

  let body
  if (list.data) {
    body =
      list.data.length === 0 ? (
        <p className="rounded-lg border border-dashed border-line p-4 text-sm text-ink-muted">{DOMAIN_LIST_MESSAGES.empty[kind]}</p>
      ) : (
        <ul aria-label={DOMAIN_LIST_MESSAGES.listLabel[kind]} className="flex max-h-72 flex-col divide-y divide-line overflow-y-auto rounded-lg border border-line">
          {list.data.map((entry) => {
            const removing = remove.isPending && remove.variables === entry.domain
            return (
              <li key={entry.id} className="flex items-center justify-between gap-3 px-3 py-2">
                <span className="flex min-w-0 items-center gap-2 text-sm text-ink">
                  <Globe aria-hidden className="size-4 shrink-0 text-ink-subtle" />
                  <span className="truncate" title={entry.domain}>
                    {entry.domain}
                  </span>
                </span>
                <Button
                  variant="ghost"
                  size="icon"
                  className="size-8"
                  aria-label={DOMAIN_LIST_MESSAGES.remove(entry.domain)}
                  loading={removing}
                  onClick={() => removeEntry(entry.domain)}
                >
                  {!removing && <X aria-hidden className="size-4" />}
                </Button>
              </li>
            )
          })}
        </ul>
      )
  } else if (list.error) {
    body = (
      <div className="flex flex-col items-start gap-3">
        <p role="alert" className="flex items-start gap-2 rounded-lg border border-danger-200 bg-danger-50 p-3 text-sm text-danger-700">
          <AlertCircle aria-hidden className="mt-0.5 size-4 shrink-0" />
          <span>{DOMAIN_LIST_MESSAGES.loadFailed(kind, list.error.message)}</span>
        </p>
        <Button variant="outline" size="sm" loading={list.isFetching} onClick={() => void list.refetch()}>
          {DOMAIN_LIST_MESSAGES.retry}
        </Button>
      </div>
    )
  } else {
    body = (
      <div role="status" aria-label={DOMAIN_LIST_MESSAGES.loading(kind)} className="flex flex-col gap-2">
        <Skeleton className="h-9 w-full" />
        <Skeleton className="h-9 w-full" />
        <Skeleton className="h-9 w-2/3" />
      </div>
    )
  }

  return (
    <Card role="region" aria-labelledby={titleId} className={className}>
      <CardHeader>
        <CardTitle id={titleId}>{DOMAIN_LIST_MESSAGES.title[kind]}</CardTitle>
        <CardDescription>{DOMAIN_LIST_MESSAGES.description[kind]}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <form onSubmit={submit} noValidate className="flex flex-col gap-2">
          <label htmlFor={inputId} className="text-sm font-medium text-ink">
            {DOMAIN_LIST_MESSAGES.inputLabel[kind]}
          </label>
          <div className="flex gap-2">
            <Input
              id={inputId}
              name="domain"
              inputMode="url"
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              placeholder={DOMAIN_LIST_MESSAGES.placeholder}
              value={input}
              aria-invalid={invalid || undefined}
              aria-describedby={flash ? flashId : undefined}
              onChange={(event) => {
                setInput(event.currentTarget.value)
                setInvalid(false)
              }}
            />
            <Button type="submit" disabled={input.trim() === ''} loading={add.isPending}>
              {!add.isPending && <Plus aria-hidden className="size-4" />}
              {DOMAIN_LIST_MESSAGES.add}
            </Button>
          </div>
          <Flash flash={flash} id={flashId} />
        </form>
        {body}
      </CardContent>
    </Card>
  )
}
