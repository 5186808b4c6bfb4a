/**
 * Calls of the verification modal: the chain settings (GET /chain, public), the anchoring transaction
 * read in the browser from the chain (through GET /chain's rpc_url, see chain-reader.ts), and the
 * server's own calculation (POST /transactions/calculateHash), which is only a second opinion.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Hex } from 'viem';
import { api, unwrap } from '#client/lib/api-client.ts';
import { formDataSerializer } from '#client/lib/form-data.ts';
import type { IntegrityRecord } from '#shared/integrity/index.ts';

/** GET /chain: network, chain id, contract and the RPC URL the browser reads. */
export const chainInfoQueryOptions = () =>
  queryOptions({
    queryKey: ['chain'],
    queryFn: () => unwrap(api.GET('/chain')),
    staleTime: Number.POSITIVE_INFINITY,
  });

export const useChainInfo = () => useQuery(chainInfoQueryOptions());

/**
 * The transaction as the chain has it (eth_getTransactionByHash + receipt over `rpcUrls`, the next asked
 * when one does not answer). Silent: the modal shows a failed read as a failed check. A mined transaction
 * does not change: never stale.
 */
export const anchorTransactionQueryOptions = (rpcUrls: readonly string[], hash: Hex) =>
  queryOptions({
    queryKey: ['chain-rpc', rpcUrls, 'transaction', hash],
    queryFn: async () => (await import('../chain-reader')).readAnchorTransaction(rpcUrls, hash),
    staleTime: Number.POSITIVE_INFINITY,
    meta: { silentError: true },
  });

export const useAnchorTransaction = (
  rpcUrls: readonly string[] | undefined,
  hash: Hex | null,
  enabled: boolean,
) =>
  useQuery({
    ...anchorTransactionQueryOptions(rpcUrls ?? [], hash ?? '0x'),
    enabled: enabled && rpcUrls !== undefined && hash !== null,
  });

/**
 * POST /transactions/calculateHash with the record as the form describes it (the form of docs/product.md §7:
 * hashing_version, blockchain_data_block_id and the 14 fields). A null field is left out (the server
 * reads an absent field as null); an empty text is sent as "" (the form-data serializer would drop it).
 */
export const calculateHashQueryOptions = (
  form: IntegrityRecord,
  hashingVersion: number,
  blockId: number | null,
) =>
  queryOptions({
    queryKey: ['transactions', 'calculateHash', { form, hashingVersion, blockId }],
    queryFn: () => {
      const body = new FormData();
      body.append('hashing_version', String(hashingVersion));
      if (blockId !== null) body.append('blockchain_data_block_id', String(blockId));
      for (const [field, value] of Object.entries(form)) {
        if (value !== null && value !== undefined) body.append(field, String(value));
      }
      return unwrap(
        api.POST('/transactions/calculateHash', {
          body: body as unknown as Record<string, string>,
          bodySerializer: formDataSerializer,
        }),
      );
    },
    staleTime: Number.POSITIVE_INFINITY,
    meta: { silentError: true },
  });

export const useServerHashes = (
  form: IntegrityRecord | null,
  hashingVersion: number,
  blockId: number | null,
) =>
  useQuery({
    ...calculateHashQueryOptions(form ?? ({} as IntegrityRecord), hashingVersion, blockId),
    enabled: form !== null,
  });
