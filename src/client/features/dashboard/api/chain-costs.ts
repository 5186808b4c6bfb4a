import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '#client/lib/api-client.ts';

/** GET /chain/costs: what anchoring cost per month and per record (canSeeChainCosts). */
export const chainCostsQueryOptions = (months: number) =>
  queryOptions({
    queryKey: ['chain-costs', months],
    queryFn: () => unwrap(api.GET('/chain/costs', { params: { query: { months } } })),
  });

export const useChainCosts = (months: number, enabled: boolean) =>
  useQuery({ ...chainCostsQueryOptions(months), enabled });

export type ChainCosts = NonNullable<ReturnType<typeof useChainCosts>['data']>;
