/**
 * The Italian certificate file: dropped onto the zone or chosen with the file dialog (react-dropzone),
 * PDF only. A file of another type is kept in the form so that its validation message explains the
 * refusal instead of the drop silently doing nothing.
 */
import Delete from '@mui/icons-material/Delete';
import PictureAsPdf from '@mui/icons-material/PictureAsPdf';
import UploadFile from '@mui/icons-material/UploadFile';
import { Box, FormHelperText, IconButton, Paper, Tooltip, Typography } from '@mui/material';
import { useField, useFormikContext } from 'formik';
import { useDropzone } from 'react-dropzone';
import { useIntl } from 'react-intl';
import { translateValidation } from '#client/lib/intl.tsx';

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export function PdfDropzone({ name, labelId }: { name: string; labelId: string }) {
  const intl = useIntl();
  const [field, meta, helpers] = useField<File | null>(name);
  const { submitCount } = useFormikContext();
  const showError = Boolean(meta.error) && (meta.touched || submitCount > 0);
  const file = field.value;
  const helperId = `${name}-helper`;
  const labelElementId = `${name}-label`;
  const promptId = `${name}-prompt`;

  const { getRootProps, getInputProps, isDragActive } = useDropzone({
    accept: { 'application/pdf': ['.pdf'] },
    multiple: false,
    onDrop: (accepted, rejected) => {
      const chosen = accepted[0] ?? rejected[0]?.file ?? null;
      void helpers.setValue(chosen, true);
      void helpers.setTouched(true, false);
    },
    onFileDialogCancel: () => void helpers.setTouched(true),
  });

  const borderColor = showError ? 'error.main' : isDragActive ? 'primary.main' : 'divider';
  return (
    <Box sx={{ mt: 2, mb: 1 }}>
      <Typography
        id={labelElementId}
        variant="body2"
        color={showError ? 'error' : 'text.secondary'}
        sx={{ mb: 0.5 }}
      >
        {intl.formatMessage({ id: labelId })} *
      </Typography>
      <Paper
        variant="outlined"
        {...getRootProps({
          role: 'button',
          // The name holds the visible prompt too, so speech users can say what they see (WCAG 2.5.3).
          'aria-labelledby': `${labelElementId} ${promptId}`,
          'aria-describedby': helperId,
          'aria-invalid': showError || undefined,
          onBlur: () => void helpers.setTouched(true),
        })}
        sx={{
          p: 3,
          borderStyle: 'dashed',
          borderWidth: 2,
          borderColor,
          bgcolor: isDragActive ? 'action.hover' : 'background.default',
          cursor: 'pointer',
          textAlign: 'center',
          outline: 'none',
          '&:focus-visible': { borderColor: 'primary.main' },
        }}
        data-testid="certificate-dropzone"
      >
        <UploadFile color={isDragActive ? 'primary' : 'action'} sx={{ fontSize: 36 }} />
        <Typography id={promptId} variant="body2" sx={{ mt: 1 }}>
          {intl.formatMessage({
            id: isDragActive ? 'certificates.upload.dropzone.active' : 'certificates.upload.dropzone',
          })}
        </Typography>
      </Paper>
      {/* Beside the zone, not in it: a control inside a role="button" is a nested interactive control. */}
      <input {...getInputProps({ name })} aria-label={intl.formatMessage({ id: labelId })} />
      {file && (
        <Box
          sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 1 }}
          data-testid="certificate-selected-file"
        >
          <PictureAsPdf color="error" fontSize="small" aria-hidden />
          <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
            {file.name} ({formatSize(file.size)})
          </Typography>
          <Tooltip title={intl.formatMessage({ id: 'certificates.upload.file.remove' })}>
            <IconButton
              size="small"
              aria-label={intl.formatMessage({ id: 'certificates.upload.file.remove' })}
              onClick={() => {
                void helpers.setValue(null, true);
                void helpers.setTouched(true, false);
              }}
            >
              <Delete fontSize="small" />
            </IconButton>
          </Tooltip>
        </Box>
      )}
      <FormHelperText id={helperId} error={showError}>
        {showError && meta.error
          ? translateValidation(intl, meta.error)
          : intl.formatMessage({ id: 'certificates.upload.file.helper' })}
      </FormHelperText>
    </Box>
  );
}
