/**
 * Configuration from the environment, read once per process. A missing variable fails loudly with its
 * name, at the first use of the part that needs it, so a function never runs half-configured.
 */
function required(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') {
    throw new Error(`Missing required environment variable ${name}`);
  }
  return value;
}

function optional(name: string): string | undefined {
  const value = process.env[name];
  return value === undefined || value === '' ? undefined : value;
}

export interface AuthConfig {
  provider: 'cognito' | 'oidc';
  /** Cognito user pool id (cognito) */
  userPoolId?: string;
  /** OpenID issuer URL (oidc) */
  issuer?: string;
  jwksUri?: string;
  /** App client id: Cognito checks it as client_id, the local provider as the token's client_id claim. */
  clientId: string;
  /** Resource indicator that local access tokens are issued for (their `aud`). */
  audience?: string;
}

export interface Config {
  region: string;
  tableName: string;
  apiBasePath: string;
  auth: AuthConfig;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
}

let cached: Config | undefined;

export function config(): Config {
  if (cached) return cached;
  const provider = (optional('AUTH_PROVIDER') ?? 'cognito') as AuthConfig['provider'];
  if (provider !== 'cognito' && provider !== 'oidc') {
    throw new Error(`AUTH_PROVIDER must be cognito or oidc, not ${provider}`);
  }
  const auth: AuthConfig =
    provider === 'cognito'
      ? { provider, userPoolId: required('COGNITO_USER_POOL_ID'), clientId: required('AUTH_CLIENT_ID') }
      : {
          provider,
          issuer: required('AUTH_ISSUER'),
          jwksUri: optional('AUTH_JWKS_URI'),
          clientId: required('AUTH_CLIENT_ID'),
          audience: required('AUTH_AUDIENCE'),
        };
  cached = {
    region: optional('AWS_REGION') ?? 'eu-west-2',
    tableName: required('TABLE_NAME'),
    apiBasePath: optional('API_BASE_PATH') ?? '/api',
    auth,
    logLevel: (optional('LOG_LEVEL') ?? 'info') as Config['logLevel'],
  };
  return cached;
}

export function bucketName(bucket: 'uploads' | 'documents' | 'inbox' | 'reports'): string {
  return required(`BUCKET_${bucket.toUpperCase()}`);
}

export function queueUrl(queue: string): string {
  return required(`QUEUE_URL_${queue.toUpperCase().replaceAll('-', '_')}`);
}

export function liveEndpoint(): string {
  return required('LIVE_ENDPOINT');
}

/** Locally, S3 is reached by path-style URLs; presigned URLs for browsers may need another public host. */
export function s3Options(): { forcePathStyle: boolean; publicEndpoint?: string } {
  return {
    forcePathStyle: optional('S3_FORCE_PATH_STYLE') === 'true',
    publicEndpoint: optional('S3_PUBLIC_ENDPOINT'),
  };
}

/**
 * Where sign-in identities are created: the Cognito user pool, or the local OpenID provider's account
 * file (`accounts.json` in LOCAL_ACCOUNTS_DIR). By default it follows AUTH_PROVIDER.
 */
export function identityConfig(): {
  provider: 'cognito' | 'local';
  userPoolId?: string;
  accountsDir?: string;
} {
  const provider =
    optional('IDENTITY_PROVIDER') ?? (optional('AUTH_PROVIDER') === 'oidc' ? 'local' : 'cognito');
  if (provider === 'cognito') return { provider, userPoolId: required('COGNITO_USER_POOL_ID') };
  if (provider === 'local') return { provider, accountsDir: required('LOCAL_ACCOUNTS_DIR') };
  throw new Error(`IDENTITY_PROVIDER must be cognito or local, not ${provider}`);
}

/** Outgoing mail: SES, or .eml files in OUTBOX_DIR when it is set (the local stack). */
export function mailConfig(): { outboxDir?: string; from: string; appUrl?: string; staffTo: string } {
  return {
    outboxDir: optional('OUTBOX_DIR'),
    from: optional('MAIL_FROM') ?? 'Voltfolio <no-reply@voltfolio.test>',
    appUrl: optional('APP_URL'),
    // Where requests for the staff's attention go (interest in a marketplace project).
    staffTo: optional('STAFF_EMAIL') ?? 'staff@voltfolio.test',
  };
}

/**
 * Public services a site's page draws on. The base URLs default to the real services; the local stack
 * and tests point them at local servers of the same shape. EPC lookups need the register's e-mail and key.
 */
export function externalServicesConfig(): {
  postcodesUrl: string;
  policeUrl: string;
  floodUrl: string;
  airQualityUrl: string;
  airQualityKey?: string;
  epcUrl: string;
  epcEmail?: string;
  epcKey?: string;
} {
  return {
    postcodesUrl: optional('POSTCODES_API_URL') ?? 'https://api.postcodes.io',
    policeUrl: optional('POLICE_API_URL') ?? 'https://data.police.uk',
    floodUrl: optional('FLOOD_API_URL') ?? 'https://environment.data.gov.uk/flood-monitoring',
    airQualityUrl: optional('AIR_QUALITY_API_URL') ?? 'https://api.openaq.org',
    airQualityKey: optional('AIR_QUALITY_API_KEY'),
    epcUrl: optional('EPC_API_URL') ?? 'https://epc.opendatacommunities.org',
    epcEmail: optional('EPC_API_EMAIL'),
    epcKey: optional('EPC_API_KEY'),
  };
}

/**
 * The brand search service behind the company logo search (Brandfetch's Brand Search API by default:
 * `GET /v2/search/{name}?c={clientId}`); the local stack and tests point it at a local server of that shape.
 */
export function logoSearchConfig(): { url: string; clientId?: string } {
  return {
    url: optional('LOGO_SEARCH_API_URL') ?? 'https://api.brandfetch.io',
    clientId: optional('LOGO_SEARCH_CLIENT_ID'),
  };
}

/** For tests: forget what was read so a changed environment is read again. */
export function resetConfigForTests(): void {
  cached = undefined;
}

/**
 * The feeds a kiosk's News slide reads when product settings name none: address templates that may hold
 * {lat}, {lng} and {postcode}. News and travel are RSS 2.0; weather is Open-Meteo's forecast JSON.
 */
export function kioskFeedDefaults(): { newsUrl?: string; weatherUrl?: string; travelUrl?: string } {
  return {
    newsUrl: optional('KIOSK_NEWS_FEED_URL'),
    weatherUrl: optional('KIOSK_WEATHER_FEED_URL'),
    travelUrl: optional('KIOSK_TRAVEL_FEED_URL'),
  };
}

/** The signage service that screens pair with (OptiSigns); the local stack and tests run a fake of it. */
export function signageConfig(): { url: string; apiKey?: string } {
  return {
    url: optional('OPTISIGNS_API_URL') ?? 'https://api.optisigns.com',
    apiKey: optional('OPTISIGNS_API_KEY'),
  };
}
