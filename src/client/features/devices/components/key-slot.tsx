import KeyIcon from '@mui/icons-material/Key';
import TokenIcon from '@mui/icons-material/Token';
import { Alert, Box, Button, CircularProgress, Paper, Stack, TextField, Typography } from '@mui/material';
import { useIntl } from 'react-intl';
import { AbilityGate } from '#client/components/ability-gate.tsx';
import { CopyButton } from '#client/components/copy-button.tsx';
import { DisabledReason } from '#client/components/disabled-reason.tsx';
import { API_BASE_URL } from '#client/lib/api-client.ts';
import { FormikTextField } from '#client/lib/form-fields.tsx';
import type { TestToken } from '../device-keys';
import type { KeySlot } from '../private-key-handoff';

const monospace = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: 12 };

function JsonBlock({
  labelId,
  value,
  testId,
  copyLabelId,
}: {
  labelId: string;
  value: string;
  testId: string;
  /** Message id of a copy button's label, for a block worth copying. */
  copyLabelId?: string;
}) {
  const intl = useIntl();
  return (
    <Box>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', gap: 1 }}>
        <Typography variant="subtitle2" component="h4">
          {intl.formatMessage({ id: labelId })}
        </Typography>
        {copyLabelId && <CopyButton text={value} labelId={copyLabelId} />}
      </Stack>
      <Box
        component="pre"
        data-testid={testId}
        sx={{
          ...monospace,
          m: 0,
          p: 1.5,
          bgcolor: 'grey.100',
          borderRadius: 1,
          overflowX: 'auto',
          whiteSpace: 'pre-wrap',
          wordBreak: 'break-all',
        }}
      >
        {value}
      </Box>
    </Box>
  );
}

/** Where a device sends its token: a POST of {"token": "…"} to this page's server's ingestion URL. */
function IngestionTarget() {
  const intl = useIntl();
  const url = `${window.location.origin}${API_BASE_URL}/ingest/sterilizations`;
  return (
    <Box>
      <Typography variant="body2">
        {intl.formatMessage(
          { id: 'devices.jwt.ingestion' },
          {
            url: (
              <Box
                component="code"
                key="url"
                data-testid="ingestion-url"
                sx={{ ...monospace, wordBreak: 'break-all' }}
              >
                {url}
              </Box>
            ),
            body: (
              <Box component="code" key="body" sx={monospace}>
                {'{"token": "…"}'}
              </Box>
            ),
          },
        )}
      </Typography>
      <CopyButton text={url} labelId="devices.jwt.copy_url" />
    </Box>
  );
}

type KeySlotProps = {
  slot: KeySlot;
  /** The private key of this slot generated in this page, if any (never part of the form). */
  privateKey: string | undefined;
  /** The public key in the form differs from the stored one. */
  unsaved: boolean;
  generating: boolean;
  onGenerate: () => void;
  testToken: TestToken | undefined;
  signing: boolean;
  onSignTestToken: () => void;
};

/** One key slot of a device: public key (a form field), private key (page only), key and test JWT buttons. */
export function KeySlotPanel({
  slot,
  privateKey,
  unsaved,
  generating,
  onGenerate,
  testToken,
  signing,
  onSignTestToken,
}: KeySlotProps) {
  const intl = useIntl();
  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-labelledby={`key-slot-${slot}`}>
      <Typography id={`key-slot-${slot}`} variant="h6" component="h2">
        {intl.formatMessage({ id: 'devices.keys.title' }, { n: slot })}
      </Typography>
      <FormikTextField
        name={slot === 1 ? 'public_key' : 'public_key_2'}
        labelId={slot === 1 ? 'fields.public_key' : 'fields.public_key_2'}
        multiline
        minRows={3}
        maxRows={9}
        placeholder={intl.formatMessage({ id: 'devices.keys.none' })}
        slotProps={{ input: { readOnly: true, sx: monospace }, inputLabel: { shrink: true } }}
      />
      <TextField
        id={`private-key-${slot}`}
        fullWidth
        margin="normal"
        multiline
        minRows={3}
        maxRows={9}
        label={intl.formatMessage({ id: 'devices.keys.private_key' }, { n: slot })}
        value={privateKey ?? ''}
        placeholder={intl.formatMessage({ id: 'devices.keys.private_none' })}
        slotProps={{ input: { readOnly: true, sx: monospace }, inputLabel: { shrink: true } }}
      />
      {privateKey && (
        <Alert
          severity="warning"
          sx={{ mb: 1 }}
          action={<CopyButton text={privateKey} labelId="devices.keys.copy_private" values={{ n: slot }} />}
        >
          {intl.formatMessage({ id: 'devices.keys.warning' })}
        </Alert>
      )}
      {unsaved && (
        <Alert severity="info" sx={{ mb: 1 }}>
          {intl.formatMessage({ id: 'devices.keys.unsaved' })}
        </Alert>
      )}
      <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
        <AbilityGate ability="canGenerateDeviceKeys">
          <Button
            variant="outlined"
            onClick={onGenerate}
            disabled={generating}
            startIcon={generating ? <CircularProgress size={18} color="inherit" /> : <KeyIcon />}
          >
            {intl.formatMessage({ id: 'devices.keys.generate' }, { n: slot })}
          </Button>
        </AbilityGate>
        <DisabledReason
          reason={
            privateKey ? undefined : intl.formatMessage({ id: 'devices.jwt.needs_private_key' }, { n: slot })
          }
        >
          <Button
            variant="outlined"
            onClick={onSignTestToken}
            disabled={signing}
            startIcon={signing ? <CircularProgress size={18} color="inherit" /> : <TokenIcon />}
          >
            {intl.formatMessage({ id: 'devices.jwt.generate' }, { n: slot })}
          </Button>
        </DisabledReason>
      </Stack>
      {generating && (
        <Typography role="status" variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {intl.formatMessage({ id: 'devices.keys.generating' })}
        </Typography>
      )}
      {testToken && (
        <Stack
          spacing={1.5}
          sx={{ mt: 2 }}
          aria-label={intl.formatMessage({ id: 'devices.jwt.title' }, { n: slot })}
          role="group"
        >
          <Typography variant="subtitle1" component="h3">
            {intl.formatMessage({ id: 'devices.jwt.title' }, { n: slot })}
          </Typography>
          <JsonBlock
            labelId="devices.jwt.header"
            value={JSON.stringify(testToken.header, null, 2)}
            testId={`jwt-header-${slot}`}
          />
          <JsonBlock
            labelId="devices.jwt.payload"
            value={JSON.stringify(testToken.payload, null, 2)}
            testId={`jwt-payload-${slot}`}
          />
          <JsonBlock
            labelId="devices.jwt.token"
            value={testToken.token}
            testId={`jwt-token-${slot}`}
            copyLabelId="devices.jwt.copy"
          />
          <IngestionTarget />
        </Stack>
      )}
    </Paper>
  );
}
