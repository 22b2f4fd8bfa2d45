import { MantineProvider } from '@mantine/core';
import type { ReactNode } from 'react';
import { SWRConfig } from 'swr';
import { Toaster } from '../components/toaster.tsx';
import { ApiError } from '../lib/api-client.ts';
import { type Services, ServicesProvider } from '../lib/app-context.tsx';
import { pickLanguage } from '../lib/i18n.ts';
import { I18nProvider } from '../lib/i18n-context.tsx';
import { fetcherOf } from '../lib/session-api.ts';
import { theme } from './theme.ts';

/** Client errors (4xx) will not change by asking again; server and network errors may. */
const shouldRetry = (error: Error) =>
  !(error instanceof ApiError) || error.status === 0 || error.status >= 500;

export function Providers({ services, children }: { services: Services; children: ReactNode }) {
  return (
    <MantineProvider theme={theme}>
      <I18nProvider language={pickLanguage(undefined, navigator.languages)}>
        <ServicesProvider services={services}>
          <SWRConfig
            value={{
              fetcher: fetcherOf(services.api),
              shouldRetryOnError: shouldRetry,
              revalidateOnFocus: false,
            }}
          >
            {children}
            <Toaster />
          </SWRConfig>
        </ServicesProvider>
      </I18nProvider>
    </MantineProvider>
  );
}
