import { describe, expect, it } from 'vitest';
import { webConfigOf } from '../../web/build.ts';
import { DEFAULT_SCOPE, resolveConfig } from '../../web/lib/config.ts';

const LOCAL = {
  issuer: 'http://localhost:3000/oidc',
  clientId: 'voltfolio-web',
  apiBase: 'http://localhost:3000/api',
  wsUrl: 'ws://localhost:3000/ws',
};

describe('the runtime configuration', () => {
  it('asks the local provider for tokens whose audience is the API', () => {
    const config = resolveConfig(webConfigOf(LOCAL), 'http://localhost:3000');
    expect(config.resource).toBe('http://localhost:3000/api');
    expect(config.scope).toBe(DEFAULT_SCOPE);
    expect(config.scope).toContain('offline_access');
  });

  it('asks Cognito for no resource indicator and only the scopes it knows', () => {
    const cognito = webConfigOf({
      ...LOCAL,
      issuer: 'https://cognito-idp.eu-west-2.amazonaws.com/eu-west-2_AbC123',
      apiBase: '/api',
    });
    expect(cognito.resource).toBeUndefined();
    expect(resolveConfig(cognito, 'https://app.example.com').resource).toBeUndefined();
    // Cognito refuses scopes it does not know, such as offline_access; its admin scope lets the user's
    // token enrol an authenticator app.
    expect(cognito.scope).toBe('openid email profile aws.cognito.signin.user.admin');
  });

  it('leaves the resource out when told to, and keeps an explicit one', () => {
    expect(webConfigOf({ ...LOCAL, resource: null }).resource).toBeUndefined();
    expect(webConfigOf({ ...LOCAL, resource: 'urn:voltfolio:api' }).resource).toBe('urn:voltfolio:api');
  });

  it('resolves relative addresses against the page origin, with a secure socket on https', () => {
    const config = resolveConfig(
      { issuer: 'https://id.example.com/', clientId: 'c', apiBase: '/api/', wsUrl: '/ws', resource: '/api' },
      'https://app.example.com',
    );
    expect(config.issuer).toBe('https://id.example.com');
    expect(config.apiBase).toBe('https://app.example.com/api');
    expect(config.wsUrl).toBe('wss://app.example.com/ws');
    expect(config.resource).toBe('https://app.example.com/api');
  });

  it('names the missing setting', () => {
    expect(() => resolveConfig({ clientId: 'c', apiBase: '/api', wsUrl: '/ws' }, 'http://x')).toThrow(
      /"issuer"/,
    );
    expect(() => resolveConfig({ ...LOCAL, logoutParams: { client_id: 3 } }, 'http://x')).toThrow(
      /logoutParams.client_id/,
    );
  });
});
