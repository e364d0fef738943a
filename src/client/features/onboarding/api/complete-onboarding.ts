import { useMutation } from '@tanstack/react-query'
import { completeOnboardingContract } from '#shared/api/account.ts'
import { callApi } from '#client/lib/api-client.ts'

/** POST /_api/onboarding/complete, empty body (SPEC 7 "Onboarding"). */
export const completeOnboarding = () => callApi(completeOnboardingContract, { body: {} })

export const useCompleteOnboarding = () => useMutation({ mutationFn: completeOnboarding })
