import { useMutation, useQueryClient } from '@tanstack/react-query'
import { domainListContracts, type DomainListKind } from '#shared/api/domain-lists.ts'
import { callApi } from '#client/lib/api-client.ts'
import { domainListQueryOptions } from './get-domain-list.ts'

/** POST /_api/whitelist/domain or /_api/blacklist/domain {domain} removes it (SPEC 7 "Domain lists"). */
export const removeDomain = (kind: DomainListKind, domain: string) => callApi(domainListContracts[kind].remove, { body: { domain } })

/** Retried once like every mutation (SPEC 7); the list is refreshed either way. */
export function useRemoveDomain(kind: DomainListKind) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (domain: string) => removeDomain(kind, domain),
    onSettled: () => queryClient.invalidateQueries({ queryKey: domainListQueryOptions(kind).queryKey }),
  })
}
