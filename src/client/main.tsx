import { CssBaseline, ThemeProvider } from '@mui/material';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppIntlProvider, getLocale, loadCatalog } from './lib/intl';
import { createQueryClient } from './lib/query-client';
import { theme } from './lib/theme';
import { Toaster } from './lib/toasts';
import { createAppRouter } from './router';

const queryClient = createQueryClient();
const router = createAppRouter(queryClient);

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

function render(container: HTMLElement) {
  createRoot(container).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <AppIntlProvider>
          <ThemeProvider theme={theme}>
            <CssBaseline />
            <RouterProvider router={router} />
            <Toaster />
          </ThemeProvider>
        </AppIntlProvider>
      </QueryClientProvider>
    </StrictMode>,
  );
}

// The first paint needs the messages of the stored language (lib/intl.tsx).
void loadCatalog(getLocale()).then(() => render(root));
