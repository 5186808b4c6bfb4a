/**
 * Certificate calls (docs/product.md §7): the paged list, the upload (multipart: three text fields and the
 * Italian PDF), delete, and the two downloads. Downloads go through the one API client, so the
 * bearer token travels in a header and never in a URL; the file reaches the user as a blob URL.
 */
import {
  keepPreviousData,
  type QueryClient,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { withoutColumns } from '#client/components/data-table/list-search.ts';
import { ApiError, api, unwrap } from '#client/lib/api-client.ts';
import { formDataSerializer } from '#client/lib/form-data.ts';
import { saveBlob } from '#client/lib/save-blob.ts';
import type { QueryOf } from '#shared/api/index.ts';

export type CertificatesSearch = Required<Omit<QueryOf<'listCertificates'>, 'q' | 'perPage'>> &
  Pick<QueryOf<'listCertificates'>, 'q' | 'perPage'>;
export type CertificateSortBy = CertificatesSearch['sortBy'];
export type CertificateFileLanguage = 'it' | 'en';

/**
 * A certificate decides its lot's records' compliance (kept by the database): the lists, recalls and
 * dashboard that show it are stale too, not only the certificate list.
 */
function invalidateLotViews(queryClient: QueryClient) {
  return Promise.all(
    [['certificates'], ['sterilizations'], ['recall'], ['dashboard']].map((queryKey) =>
      queryClient.invalidateQueries({ queryKey }),
    ),
  );
}

/** GET /certificates: one page, sorted. */
export const certificatesQueryOptions = (search: CertificatesSearch) =>
  queryOptions({
    queryKey: ['certificates', withoutColumns(search)],
    queryFn: () => unwrap(api.GET('/certificates', { params: { query: withoutColumns(search) } })),
    placeholderData: keepPreviousData,
  });

export const useCertificates = (search: CertificatesSearch) => useQuery(certificatesQueryOptions(search));

/** GET /certificates/{id}/deletion-impact: asked when the delete dialog opens; never kept (it changes). */
export const useCertificateDeletionImpact = (id: number | undefined) =>
  useQuery({
    queryKey: ['certificates', id, 'deletion-impact'],
    queryFn: () =>
      unwrap(api.GET('/certificates/{id}/deletion-impact', { params: { path: { id: id ?? 0 } } })),
    enabled: id !== undefined,
    gcTime: 0,
    staleTime: 0,
  });

export type CertificateUploadValues = {
  lot_number: string;
  validated_treatment_number: string;
  /** YYYY-MM-DD. */
  expiration_date: string;
  italian_file: File;
};

/** POST /certificates. The list refetches afterwards (docs/product.md §2: go to the list, refetch). */
export function useUploadCertificate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['certificates', 'upload'],
    mutationFn: (values: CertificateUploadValues) =>
      unwrap(
        api.POST('/certificates', {
          // The generated type says string (binary); the serializer sends the File as it is.
          body: values as unknown as Record<string, string>,
          bodySerializer: formDataSerializer,
        }),
      ),
    onSuccess: () => invalidateLotViews(queryClient),
  });
}

/** DELETE /certificates/{id}. A failure shows the server's message, translated (mutation cache). */
export function useDeleteCertificate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['certificates', 'delete'],
    mutationFn: (id: number) => unwrap(api.DELETE('/certificates/{id}', { params: { path: { id } } })),
    onSuccess: () => invalidateLotViews(queryClient),
  });
}

function errorMessage(error: unknown): { message: string; data: unknown } {
  if (typeof error === 'object' && error !== null && 'message' in error) {
    const envelope = error as { message?: unknown; data?: unknown };
    return { message: typeof envelope.message === 'string' ? envelope.message : '', data: envelope.data };
  }
  return { message: '', data: undefined };
}

/** GET /certificates/download/{lang}/{id} as a Blob (with the session's bearer token). */
export async function fetchCertificateFile(lang: CertificateFileLanguage, id: number): Promise<Blob> {
  const { data, error, response } = await api.GET('/certificates/download/{lang}/{id}', {
    params: { path: { lang, id } },
    parseAs: 'blob',
  });
  if (response.ok && data instanceof Blob) return data;
  const { message, data: errorData } = errorMessage(error);
  throw new ApiError(response.status, message, errorData);
}

/** Fetches one certificate file and saves it; errors are reported by the caller. */
export function useDownloadCertificate() {
  return useMutation({
    mutationKey: ['certificates', 'download'],
    mutationFn: async ({
      lang,
      id,
      fileName,
    }: {
      lang: CertificateFileLanguage;
      id: number;
      fileName: string;
    }) => {
      saveBlob(await fetchCertificateFile(lang, id), fileName);
    },
  });
}
