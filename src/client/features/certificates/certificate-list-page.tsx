import Close from '@mui/icons-material/Close';
import PictureAsPdf from '@mui/icons-material/PictureAsPdf';
import UploadFile from '@mui/icons-material/UploadFile';
import {
  Box,
  CircularProgress,
  Dialog,
  DialogContent,
  DialogContentText,
  DialogTitle,
  IconButton,
  Link,
  Tooltip,
} from '@mui/material';
import { useEffect, useMemo, useState } from 'react';
import { useIntl } from 'react-intl';
import {
  type DataColumn,
  DataTable,
  pagedRows,
  useListControls,
} from '#client/components/data-table/index.ts';
import { DialogButtons } from '#client/components/dialog-buttons.tsx';
import { ListPage, SearchBar } from '#client/components/list/index.ts';
import { ButtonLink, TextLink } from '#client/components/router-link.tsx';
import { formatDay } from '#client/lib/dates.ts';
import { useAbilities } from '#client/lib/session.ts';
import { toast } from '#client/lib/toasts.tsx';
import type { Certificate } from '#shared/api/index.ts';
import {
  type CertificateFileLanguage,
  useCertificateDeletionImpact,
  useCertificates,
  useDeleteCertificate,
  useDownloadCertificate,
} from './api/certificates';
import { rememberListSearch } from './list-memory';
import type { CertificateListSearch } from './search';

/** A long file name may wrap after "_", "-" or a space (never inside a word). */
function breakableName(fileName: string) {
  const parts = fileName.split(/(?<=[_\s-])/);
  return parts.map((part, index) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed string
    <span key={index}>
      {part}
      {index < parts.length - 1 && <wbr />}
    </span>
  ));
}

function FileLink({
  certificate,
  lang,
  fileName,
}: {
  certificate: Certificate;
  lang: CertificateFileLanguage;
  fileName: string;
}) {
  const intl = useIntl();
  const download = useDownloadCertificate();
  return (
    <Box sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.75, maxWidth: 220 }}>
      {download.isPending ? (
        <CircularProgress size={16} aria-label={intl.formatMessage({ id: 'common.loading' })} />
      ) : (
        <PictureAsPdf fontSize="small" color="error" aria-hidden />
      )}
      <Link
        component="button"
        type="button"
        variant="body2"
        title={intl.formatMessage({ id: 'certificates.list.download' }, { name: fileName })}
        disabled={download.isPending}
        onClick={() => download.mutate({ lang, id: certificate.id, fileName })}
        sx={{ textAlign: 'left', overflowWrap: 'break-word' }}
      >
        {breakableName(fileName)}
      </Link>
    </Box>
  );
}

/** docs/product.md §2 Certificate list. */
export function CertificateListPage({
  search,
  onSearchChange,
}: {
  search: CertificateListSearch;
  onSearchChange: (patch: Partial<CertificateListSearch>) => void;
}) {
  const intl = useIntl();
  const abilities = useAbilities();
  const canUpload = abilities.canUploadCertificates === true;
  const list = useListControls(search, onSearchChange, 'certificates');
  const certificates = useCertificates(search);
  const remove = useDeleteCertificate();
  const [pendingDelete, setPendingDelete] = useState<Certificate | null>(null);
  // How many records of the lot lose their certification with it, said before confirming.
  const impact = useCertificateDeletionImpact(pendingDelete?.id);

  useEffect(() => {
    rememberListSearch(search);
  }, [search]);

  // A page beyond the last one (e.g. after deleting the last row of the last page): go back one.
  const lastPage = certificates.data
    ? Math.max(1, Math.ceil(certificates.data.total / certificates.data.per_page))
    : 1;
  useEffect(() => {
    if (certificates.data && !certificates.isPlaceholderData && search.page > lastPage) {
      onSearchChange({ page: lastPage });
    }
  }, [certificates.data, certificates.isPlaceholderData, search.page, lastPage, onSearchChange]);

  const confirmDelete = async () => {
    if (!pendingDelete) return;
    try {
      await remove.mutateAsync(pendingDelete.id);
      toast.success({ id: 'certificates.deleted' });
    } catch {
      // The mutation cache showed the server's message, translated (docs/product.md §8).
    } finally {
      setPendingDelete(null);
    }
  };

  const columns = useMemo<DataColumn<Certificate>[]>(() => {
    const base: DataColumn<Certificate>[] = [
      {
        id: 'lot_number',
        headerId: 'certificates.list.lot_number',
        sortKey: 'lot_number',
        cell: (row) => (
          <>
            <Box component="span" sx={{ display: 'block' }}>
              {row.lot_number}
            </Box>
            <TextLink
              to="/recall"
              search={{ lot: row.lot_number }}
              variant="caption"
              aria-label={intl.formatMessage({ id: 'certificates.list.recall_of' }, { lot: row.lot_number })}
            >
              {intl.formatMessage({ id: 'certificates.list.recall' })}
            </TextLink>
          </>
        ),
      },
      {
        id: 'validated_treatment_number',
        headerId: 'certificates.list.validated_treatment_number',
        sortKey: 'validated_treatment_number',
        cell: (row) => row.validated_treatment_number,
      },
      {
        id: 'expiration_date',
        headerId: 'certificates.list.expiration_date',
        sortKey: 'expiration_date',
        cell: (row) => formatDay(row.expiration_date),
      },
      {
        id: 'it_file',
        headerId: 'certificates.list.it_file',
        cell: (row) => <FileLink certificate={row} lang="it" fileName={row.it_file_name} />,
      },
      {
        id: 'en_file',
        headerId: 'certificates.list.en_file',
        cell: (row) => <FileLink certificate={row} lang="en" fileName={row.en_file_name} />,
      },
    ];
    if (!canUpload) return base;
    return [
      ...base,
      {
        id: 'actions',
        headerId: 'certificates.list.actions',
        align: 'right',
        cell: (row) => {
          const label = intl.formatMessage(
            { id: 'certificates.list.delete' },
            { lot: row.lot_number, treatment: row.validated_treatment_number },
          );
          return (
            <Tooltip title={label}>
              <IconButton aria-label={label} size="small" color="error" onClick={() => setPendingDelete(row)}>
                <Close fontSize="small" />
              </IconButton>
            </Tooltip>
          );
        },
      },
    ];
  }, [canUpload, intl]);

  return (
    <ListPage
      titleId="certificates.list.title"
      action={
        canUpload && (
          <ButtonLink to="/certificates/upload" variant="contained" startIcon={<UploadFile />}>
            {intl.formatMessage({ id: 'certificates.list.upload' })}
          </ButtonLink>
        )
      }
    >
      <SearchBar
        labelId="certificates.list.filters"
        placeholderId="certificates.list.search_placeholder"
        value={search.q}
        onChange={(q) => onSearchChange({ q, page: 1 })}
      />
      <DataTable<Certificate>
        labelId="certificates.list.title"
        columns={columns}
        {...pagedRows(certificates)}
        getRowId={(row) => row.id}
        {...list}
        emptyMessageId="certificates.list.empty"
      />
      <Dialog
        open={pendingDelete !== null}
        onClose={() => (remove.isPending ? undefined : setPendingDelete(null))}
        aria-labelledby="certificate-delete-title"
        aria-describedby="certificate-delete-text"
      >
        <DialogTitle id="certificate-delete-title">
          {intl.formatMessage({ id: 'certificates.delete.title' })}
        </DialogTitle>
        <DialogContent>
          <DialogContentText id="certificate-delete-text">
            {intl.formatMessage({ id: 'certificates.delete.text' })}{' '}
            {impact.data &&
              intl.formatMessage(
                { id: 'certificates.delete.records' },
                { count: impact.data.records_losing_certification },
              )}
          </DialogContentText>
          {pendingDelete && (
            <DialogContentText sx={{ mt: 1, fontWeight: 600 }}>
              {intl.formatMessage(
                { id: 'certificates.delete.which' },
                { lot: pendingDelete.lot_number, treatment: pendingDelete.validated_treatment_number },
              )}
            </DialogContentText>
          )}
        </DialogContent>
        <DialogButtons
          confirmLabelId="certificates.delete.confirm"
          color="error"
          busy={remove.isPending}
          onCancel={() => setPendingDelete(null)}
          onConfirm={() => void confirmDelete()}
        />
      </Dialog>
    </ListPage>
  );
}
