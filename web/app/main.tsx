import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { createApiClient } from '../lib/api-client.ts';
import type { Services } from '../lib/app-context.tsx';
import { createAuth } from '../lib/auth.ts';
import { loadConfig } from '../lib/config.ts';
import { Providers } from './providers.tsx';
import { createAppRouter } from './router.tsx';

function StartupError({ error }: { error: unknown }) {
  return (
    <div role="alert" style={{ fontFamily: 'system-ui, sans-serif', padding: 32 }}>
      <h1 style={{ fontSize: 20 }}>Voltfolio could not start</h1>
      <p>{error instanceof Error ? error.message : String(error)}</p>
    </div>
  );
}

async function start(container: HTMLElement) {
  const root = createRoot(container);
  try {
    const config = await loadConfig(window.location.origin);
    const auth = createAuth(config);
    const api = createApiClient({
      baseUrl: config.apiBase,
      getToken: () => auth.getAccessToken(),
      onUnauthorized: () => void auth.signOut(),
    });
    const services: Services = {
      config,
      auth,
      api,
      logOut: () => auth.signOut(() => api.del('/sessions')),
    };
    const router = createAppRouter(services);
    root.render(
      <StrictMode>
        <Providers services={services}>
          <RouterProvider router={router} />
        </Providers>
      </StrictMode>,
    );
  } catch (error) {
    root.render(<StartupError error={error} />);
  }
}

const container = document.getElementById('root');
if (container) void start(container);
