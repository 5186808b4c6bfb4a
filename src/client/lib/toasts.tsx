/**
 * Toasts: alerts that close by themselves after 4000 ms (SPEC §4, §9), and notifyApiError, the one
 * place that turns a failed call into the alert SPEC §8 asks for. Toasts hold message ids, not
 * text, so they are translated when shown (and follow a language switch).
 */
import { Alert, type AlertColor, Box, Slide, Stack } from '@mui/material';
import { useEffect, useSyncExternalStore } from 'react';
import { useIntl } from 'react-intl';
import { ApiError } from './api-client';
import { translateKnown, translateServerMessage, translateValidation } from './intl';

export const TOAST_DURATION_MS = 4000;

export type MessageRef = { id: string; values?: Record<string, string | number> };

export type Toast = {
  key: number;
  severity: AlertColor;
  /** Translated title line. */
  title?: MessageRef;
  /** A server message id: translated when known, else shown as is (or replaced by `fallback`). */
  serverMessage?: string;
  fallback?: MessageRef;
  /** Per-field validation messages (message ids) from a validation_error answer. */
  fields?: Array<{ field: string; messages: string[] }>;
};

type ToastInput = Omit<Toast, 'key'>;

let toasts: Toast[] = [];
let nextKey = 1;
const listeners = new Set<() => void>();
const emit = () => {
  for (const listener of listeners) listener();
};

const signature = ({ key: _key, ...rest }: Toast | (ToastInput & { key?: number })) => JSON.stringify(rest);

export function showToast(input: ToastInput): void {
  // The same alert twice at once (e.g. a 401 seen by the middleware and by the caller) shows once.
  const sig = signature(input);
  if (toasts.some((toast) => signature(toast) === sig)) return;
  toasts = [...toasts, { ...input, key: nextKey++ }];
  emit();
}

export function dismissToast(key: number): void {
  toasts = toasts.filter((toast) => toast.key !== key);
  emit();
}

/** Every alert closed at once (tests start from none). */
export function dismissAllToasts(): void {
  toasts = [];
  emit();
}

export const toast = {
  success: (title: MessageRef) => showToast({ severity: 'success', title }),
  info: (title: MessageRef) => showToast({ severity: 'info', title }),
  warning: (title: MessageRef) => showToast({ severity: 'warning', title }),
  error: (title: MessageRef) => showToast({ severity: 'error', title }),
};

function fieldErrors(data: unknown): Array<{ field: string; messages: string[] }> {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return [];
  return Object.entries(data).map(([field, value]) => ({
    field,
    messages: Array.isArray(value) ? value.map(String) : [String(value)],
  }));
}

/**
 * SPEC §8: the alert for any failed call. `failureMessage` is the call's own text (e.g. "Unable to
 * retrieve client list"), shown instead of the server's message unless the session has expired.
 */
export function notifyApiError(error: unknown, failureMessage?: MessageRef): void {
  const expired = error instanceof ApiError && (error.status === 401 || error.message === 'session_expired');
  if (expired) {
    showToast({ severity: 'error', title: { id: 'errors.session_expired' } });
    return;
  }
  if (failureMessage) {
    showToast({ severity: 'error', title: failureMessage });
    return;
  }
  if (!(error instanceof ApiError)) {
    showToast({ severity: 'error', title: { id: 'errors.generic' } });
    return;
  }
  if (error.status === 405 || error.status >= 500) {
    showToast({ severity: 'error', title: { id: 'errors.server' }, serverMessage: error.message });
    return;
  }
  if (error.message === 'validation_error') {
    showToast({ severity: 'error', title: { id: 'errors.validation' }, fields: fieldErrors(error.data) });
    return;
  }
  showToast({ severity: 'error', serverMessage: error.message, fallback: { id: 'errors.generic' } });
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
const getToasts = () => toasts;

function ToastItem({ item }: { item: Toast }) {
  const intl = useIntl();
  useEffect(() => {
    const timer = setTimeout(() => dismissToast(item.key), TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [item.key]);

  const title = item.title ? intl.formatMessage({ id: item.title.id }, item.title.values) : null;
  let server: string | null = null;
  if (item.serverMessage !== undefined) {
    server = translateServerMessage(intl, item.serverMessage);
    if (server === null) {
      server = item.fallback
        ? intl.formatMessage({ id: item.fallback.id }, item.fallback.values)
        : item.serverMessage;
    }
  } else if (!title && item.fallback) {
    server = intl.formatMessage({ id: item.fallback.id }, item.fallback.values);
  }

  return (
    <Slide direction="up" in mountOnEnter unmountOnExit>
      <Alert
        severity={item.severity}
        variant="filled"
        elevation={6}
        closeText={intl.formatMessage({ id: 'common.close' })}
        onClose={() => dismissToast(item.key)}
        sx={{ minWidth: 280, maxWidth: 560 }}
      >
        {title && <div>{title}</div>}
        {server && <div>{server}</div>}
        {item.fields && item.fields.length > 0 && (
          <Box component="ul" sx={{ m: 0, pl: 2 }}>
            {item.fields.map(({ field, messages }) => (
              <li key={field}>
                {translateKnown(intl, `fields.${field}`) ?? field}:{' '}
                {messages.map((message) => translateValidation(intl, message)).join(', ')}
              </li>
            ))}
          </Box>
        )}
      </Alert>
    </Slide>
  );
}

/** Renders the open toasts, newest at the bottom. Mount once, inside the intl provider. */
export function Toaster() {
  const items = useSyncExternalStore(subscribe, getToasts, getToasts);
  return (
    <Stack
      spacing={1}
      aria-live="polite"
      sx={{
        position: 'fixed',
        bottom: 24,
        left: '50%',
        transform: 'translateX(-50%)',
        zIndex: (theme) => theme.zIndex.snackbar,
        alignItems: 'center',
      }}
    >
      {items.map((item) => (
        <ToastItem key={item.key} item={item} />
      ))}
    </Stack>
  );
}
