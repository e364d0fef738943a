import { useMutation, useQueryClient } from '@tanstack/react-query'
import { domainListContracts, type DomainEntry, type DomainListKind } from '#shared/api/domain-lists.ts'
import { callApi } from '#client/lib/api-client.ts'
import { domainListQueryOptions } from './get-domain-list.ts'

/** POST /_api/whitelist or /_api/blacklist {domain} → the new entry (SPEC 7 "Domain lists"). */
export const addDomain = (kind: DomainListKind, domain: string): Promise<DomainEntry> =>
  callApi(domainListContracts[kind].add, { body: { domain } })

/** Retried once like every mutation (SPEC 7); the list is refreshed either way. */
export function useAddDomain(kind: DomainListKind) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (domain: string) => addDomain(kind, domain),
    onSettled: () => queryClient.invalidateQueries({ queryKey: domainListQueryOptions(kind).queryKey }),
  })
}
