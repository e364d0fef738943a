import type { ContractDefinition } from '#shared/api/contract.ts'

/**
 * A contract's method and path without its zod schemas, for the few calls every public page makes
 * (session, app info, subscription): importing the contract itself would put zod into the home
 * page's JavaScript (docs/decisions/020-prerendered-public-pages.md). `callApi` reads only the
 * method, path and secure flag; the literal types come from the contract, so a path or method that
 * drifts from it fails the typecheck.
 */
export function contractRoute<C extends ContractDefinition>(route: Pick<C, 'method' | 'path'> & Partial<Pick<C, 'secure'>>): C {
  return route as C
}
