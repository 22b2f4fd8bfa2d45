import '../lib/zod-without-eval.ts';
import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { createApiClient } from '../lib/api-client.ts';
import type { Services } from '../lib/app-context.tsx';
import { type Auth, createAuth } from '../lib/auth.ts';
import { loadConfig, type ResolvedConfig } from '../lib/config.ts';
import {
  type ClientErrorReport,
  createErrorReporter,
  installErrorReporting,
  sessionSampled,
} from '../lib/error-reporting.ts';
import { createSessionLoader } from '../lib/session.ts';
import { endApiSession } from '../lib/session-api.ts';
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

/**
 * Reports go straight to the API rather than through the API client: a report that is refused must
 * neither sign the user out nor raise an error of its own. Signed-out pages have nobody to report as.
 */
function errorSender(config: ResolvedConfig, auth: Auth) {
  return async (report: ClientErrorReport) => {
    const user = await auth.getUser();
    if (!user) return;
    await fetch(`${config.apiBase}/client-errors`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${user.access_token}` },
      body: JSON.stringify(report),
      keepalive: true,
    });
  };
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
    installErrorReporting(
      window,
      createErrorReporter({
        send: errorSender(config, auth),
        sampled: sessionSampled(window.sessionStorage),
      }),
    );
    const logOut = () => auth.signOut(() => endApiSession(api));
    const services: Services = {
      config,
      auth,
      api,
      logOut,
      session: createSessionLoader({ api, signOut: logOut }),
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
