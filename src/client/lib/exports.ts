/**
 * CSV exports (docs/product.md §7 /export/...). The link people see, copy or open in a new tab is the app's
 * /download/<export> page with the list's filters; the file itself comes from /export/<export> with a
 * one-time ticket from POST /export-tickets, so the session token never travels in a URL.
 */
import { useMutation } from '@tanstack/react-query';
import type { QueryOf } from '#shared/api/index.ts';
import { api, unwrap } from './api-client';

export const EXPORT_NAMES = [
  'sterilizations-filtered',
  'sterilizations-ok',
  'recall',
  'sterilizations-proof-bundle',
] as const;
export type ExportName = (typeof EXPORT_NAMES)[number];

/** Each export's filters, as the contract takes them (without the ticket). */
export type ExportFilters = {
  'sterilizations-filtered': Omit<QueryOf<'exportSterilizationsFiltered'>, 'ticket'>;
  'sterilizations-ok': Omit<QueryOf<'exportSterilizationsOk'>, 'ticket'>;
  recall: Omit<QueryOf<'exportRecall'>, 'ticket'>;
  'sterilizations-proof-bundle': Omit<QueryOf<'exportSterilizationsProofBundle'>, 'ticket'>;
};

/** Query order of the URLs (the ticket first). */
const KEYS = ['ticket', 'lot', 'from', 'to', 'customerId', 'deviceId', 'anomaly', 'lotStatus'] as const;

function queryString(values: Partial<Record<(typeof KEYS)[number], string | number>>): string {
  const search = new URLSearchParams();
  for (const key of KEYS) {
    const value = values[key];
    if (value !== undefined && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** The app page that starts the download: what a download link shows and a new tab opens. */
export function downloadPageHref<N extends ExportName>(name: N, filters: ExportFilters[N]): string {
  return `/download/${name}${queryString(filters)}`;
}

/** The file's own URL, valid once, within a minute. */
export function exportFileUrl<N extends ExportName>(
  name: N,
  filters: ExportFilters[N],
  ticket: string,
): string {
  return `/export/${name}${queryString({ ticket, ...filters })}`;
}

/** POST /export-tickets, then the file URL of these filters with that ticket. */
export function useExportFileUrl<N extends ExportName>(name: N) {
  return useMutation({
    mutationKey: ['export-tickets', name],
    mutationFn: async (filters: ExportFilters[N]) => {
      const { ticket } = await unwrap(api.POST('/export-tickets', { body: { export: name } }));
      return exportFileUrl(name, filters, ticket);
    },
  });
}

/** Starts the browser's download of `url` in place. */
export function downloadUrl(url: string): void {
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = '';
  anchor.rel = 'noopener';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
}
