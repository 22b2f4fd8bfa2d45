import { createContext, type ReactNode, useContext } from 'react';
import type { ApiClient } from './api-client.ts';
import type { Auth } from './auth.ts';
import type { ResolvedConfig } from './config.ts';
import type { Session, SessionLoader } from './session.ts';

export interface Services {
  config: ResolvedConfig;
  auth: Auth;
  api: ApiClient;
  /** Ends the API session, then the provider session (the Log Out menu item, /logout). */
  logOut: () => Promise<void>;
  /** The user, company and permissions of the signed-in shell, loaded once per page load. */
  session: SessionLoader;
}

const ServicesContext = createContext<Services | null>(null);
const SessionContext = createContext<Session | null>(null);

export function ServicesProvider({ services, children }: { services: Services; children: ReactNode }) {
  return <ServicesContext value={services}>{children}</ServicesContext>;
}

export function SessionProvider({ session, children }: { session: Session; children: ReactNode }) {
  return <SessionContext value={session}>{children}</SessionContext>;
}

export function useServices(): Services {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useServices is used outside ServicesProvider');
  return services;
}

export function useApi(): ApiClient {
  return useServices().api;
}

/** The signed-in user's data; only pages inside the shell have it. */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession is used outside the signed-in shell');
  return session;
}
