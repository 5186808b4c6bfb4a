/**
 * Compliance report calls: a customer's reports (paged, sorted, filtered), generating one,
 * signing one, and the PDFs and receipts. Keys follow the API path (['customers', id, 'reports', …]),
 * so a signature or a new report invalidates the customer's lists by prefix. Files come as blobs
 * through the one API client: the bearer token never goes into a URL.
 */
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, api, unwrap } from '#client/lib/api-client.ts';
import { formDataSerializer } from '#client/lib/form-data.ts';
import { saveBlob } from '#client/lib/save-blob.ts';
import type { QueryOf, RequestBodyOf, Schemas } from '#shared/api/index.ts';

export type Report = Schemas['Report'];
export type ReportVersion = Schemas['ReportVersion'];
export type ReportsQuery = QueryOf<'listCustomerReports'>;

const reportsKey = (customerId: number) => ['customers', customerId, 'reports'] as const;

/** GET /customers/{id}/reports: one page. */
export const reportsQueryOptions = (customerId: number, query: ReportsQuery) =>
  queryOptions({
    queryKey: [...reportsKey(customerId), query],
    queryFn: () =>
      unwrap(api.GET('/customers/{id}/reports', { params: { path: { id: customerId }, query } })),
    placeholderData: keepPreviousData,
  });

export const useReports = (customerId: number, query: ReportsQuery) =>
  useQuery(reportsQueryOptions(customerId, query));

/** The generate form's values: the contract's body, every field filled, the language one of the two. */
export type GenerateReportValues = Required<RequestBodyOf<'createReport'>> & {
  language: Schemas['ReportLanguage'];
};

/** POST /customers/{id}/reports: the server renders and stores the draft. */
export function useGenerateReport(customerId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...reportsKey(customerId), 'generate'],
    mutationFn: (values: GenerateReportValues) =>
      unwrap(
        api.POST('/customers/{id}/reports', {
          params: { path: { id: customerId } },
          body: values,
          bodySerializer: formDataSerializer,
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reportsKey(customerId) }),
  });
}

/** The sign form's values: the contract's body as typed; a passkey's answer joins it on submit. */
export type SignReportValues = Required<Omit<RequestBodyOf<'signReport'>, 'passkey'>>;

/**
 * Whether the signer has a second factor, whose code (or, without an app, one of whose passkeys) a
 * signature then needs too (docs/accounts.md §5, §6).
 */
export const useSignerSecondFactor = (enabled: boolean) =>
  useQuery({
    queryKey: ['auth', 'me', 'second-factor'],
    queryFn: () => unwrap(api.GET('/auth/me/second-factor')),
    enabled,
  });

/** POST /customers/{id}/reports/{reportId}/signatures. */
export function useSignReport(customerId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...reportsKey(customerId), 'sign'],
    mutationFn: ({ reportId, ...values }: SignReportValues & { reportId: number; passkey?: string }) =>
      unwrap(
        api.POST('/customers/{id}/reports/{reportId}/signatures', {
          params: { path: { id: customerId, reportId } },
          body: values,
          bodySerializer: formDataSerializer,
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reportsKey(customerId) }),
  });
}

function errorOf(error: unknown, status: number): ApiError {
  const envelope = (typeof error === 'object' && error !== null ? error : {}) as {
    message?: unknown;
    data?: unknown;
  };
  return new ApiError(status, typeof envelope.message === 'string' ? envelope.message : '', envelope.data);
}

/** What to download: the draft, a signed version's PDF, or a signed version's receipt. */
export type ReportFile = { reportId: number; version: number | 'draft'; kind: 'pdf' | 'receipt' };

export function reportFileName({ reportId, version, kind }: ReportFile): string {
  const base = `compliance-report-${reportId}-${version === 'draft' ? 'draft' : `v${version}`}`;
  return kind === 'pdf' ? `${base}.pdf` : `${base}-receipt.json`;
}

async function fetchReportFile(customerId: number, file: ReportFile): Promise<Blob> {
  const path = { id: customerId, reportId: file.reportId };
  if (file.kind === 'receipt' && file.version !== 'draft') {
    const receipt = await unwrap(
      api.GET('/customers/{id}/reports/{reportId}/versions/{version}/receipt', {
        params: { path: { ...path, version: file.version } },
      }),
    );
    return new Blob([JSON.stringify(receipt, null, 2)], { type: 'application/json' });
  }
  const { data, error, response } =
    file.version === 'draft'
      ? await api.GET('/customers/{id}/reports/{reportId}/draft', { params: { path }, parseAs: 'blob' })
      : await api.GET('/customers/{id}/reports/{reportId}/versions/{version}', {
          params: { path: { ...path, version: file.version } },
          parseAs: 'blob',
        });
  if (response.ok && data instanceof Blob) return data;
  throw errorOf(error, response.status);
}

/** Downloads a report's draft, a version's PDF or its receipt; errors are shown by the mutation cache. */
export function useDownloadReportFile(customerId: number) {
  return useMutation({
    mutationKey: [...reportsKey(customerId), 'download'],
    mutationFn: async (file: ReportFile) =>
      saveBlob(await fetchReportFile(customerId, file), reportFileName(file)),
  });
}
