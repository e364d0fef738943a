import { queryOptions, useQuery } from '@tanstack/react-query'
import { domainListContracts, type DomainEntry, type DomainListKind } from '#shared/api/domain-lists.ts'
import { callApi } from '#client/lib/api-client.ts'

/** GET /_api/whitelist or /_api/blacklist: the entries, domains lowercased (SPEC 3, SPEC 7 "Domain lists"). */
export const getDomainList = (kind: DomainListKind): Promise<DomainEntry[]> => callApi(domainListContracts[kind].list)

export const domainListQueryOptions = (kind: DomainListKind) =>
  queryOptions({
    queryKey: ['domain-lists', kind] as const,
    queryFn: () => getDomainList(kind),
  })

export const useDomainList = (kind: DomainListKind) => useQuery(domainListQueryOptions(kind))
