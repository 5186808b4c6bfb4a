/**
 * The cycle report PDF of one record: GET /sterilizations/cycle-report/{id} as a Blob through
 * the one API client (the bearer token never goes into a URL), saved as a download. Errors are shown
 * by the mutation cache.
 */
import { useMutation } from '@tanstack/react-query';
import { ApiError, api } from '#client/lib/api-client.ts';
import { saveBlob } from '#client/lib/save-blob.ts';
import type { QueryOf } from '#shared/api/index.ts';

export type CycleReportLanguage = NonNullable<QueryOf<'downloadCycleReport'>['lang']>;

export const cycleReportFileName = (id: number, lang: CycleReportLanguage) =>
  `cycle-report-${id}-${lang}.pdf`;

export function useDownloadCycleReport() {
  return useMutation({
    mutationKey: ['sterilizations', 'cycle-report'],
    mutationFn: async ({ id, lang }: { id: number; lang: CycleReportLanguage }) => {
      const { data, error, response } = await api.GET('/sterilizations/cycle-report/{id}', {
        params: { path: { id }, query: { lang } },
        parseAs: 'blob',
      });
      if (!response.ok || !(data instanceof Blob)) {
        const envelope = (typeof error === 'object' && error !== null ? error : {}) as {
          message?: unknown;
          data?: unknown;
        };
        const message = typeof envelope.message === 'string' ? envelope.message : '';
        throw new ApiError(response.status, message, envelope.data);
      }
      saveBlob(data, cycleReportFileName(id, lang));
    },
  });
}
