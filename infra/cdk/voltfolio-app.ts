import { join } from 'node:path';
import type { App, Stack } from 'aws-cdk-lib';
import { COGNITO_SCOPE, webConfigOf } from '../../web/build.ts';
import { bundleFunctions, DEFAULT_BUNDLE_DIR, REPO_ROOT } from '../build/bundle-functions.ts';
import type { FunctionSettings } from './constructs/declared-function.ts';
import { readContext } from './context.ts';
import { API_BASE_PATH, ApiStack } from './stacks/api-stack.ts';
import { AuthStack } from './stacks/auth-stack.ts';
import { DataStack } from './stacks/data-stack.ts';
import { EmailStack } from './stacks/email-stack.ts';
import { PipelineStack } from './stacks/pipeline-stack.ts';
import { RealtimeStack } from './stacks/realtime-stack.ts';
import { SchedulesStack } from './stacks/schedules-stack.ts';
import { WebStack } from './stacks/web-stack.ts';
import { type SystemDecl, systemDecl } from './system.ts';

export interface VoltfolioAppOptions {
  /** Defaults to the declaration in shared/system. */
  system?: SystemDecl;
  /** Where the function bundles are written and deployed from. */
  bundleDir?: string;
  /** Bundle the functions first (the default); off when bundleDir already holds current bundles. */
  bundle?: boolean;
  /** The built SPA the web stack deploys; `app.ts` builds it here before synthesis. */
  webDir?: string;
}

/** Where `cdk synth` builds the SPA for the web stack. */
export const DEFAULT_WEB_DIR = join(REPO_ROOT, '.build', 'web');

export interface VoltfolioStacks {
  data: DataStack;
  auth: AuthStack;
  realtime: RealtimeStack;
  pipeline: PipelineStack;
  /** Absent while no schedule is declared: CloudFormation refuses a stack without resources. */
  schedules?: SchedulesStack;
  email: EmailStack;
  api: ApiStack;
  web: WebStack;
}

/**
 * The whole system, as stacks in deployment order. Stacks carry no account or region, so the same
 * templates deploy anywhere and synthesis needs no AWS credentials.
 */
export function createVoltfolioStacks(app: App, options: VoltfolioAppOptions = {}): VoltfolioStacks {
  const system = options.system ?? systemDecl();
  const context = readContext(app.node);
  const bundleDir = options.bundleDir ?? DEFAULT_BUNDLE_DIR;
  if (options.bundle ?? true) {
    bundleFunctions({ outDir: bundleDir, names: system.functions.map((f) => f.name) });
  }
  const settings: FunctionSettings = {
    bundleDir,
    logRetention: context.logRetention,
    logLevel: context.logLevel,
    appUrl: context.appOrigins[0] ?? '',
    mailFrom: `Voltfolio <no-reply@${context.mailSenderDomain}>`,
  };
  const name = (part: string) => `${context.stackPrefix}-${part}`;

  const data = new DataStack(app, name('Data'), { system, appOrigins: context.appOrigins });
  const auth = new AuthStack(app, name('Auth'), { context });
  const email = new EmailStack(app, name('Email'), { system, context, inbox: requireBucket(data, 'inbox') });

  const shared = {
    table: data.table,
    buckets: data.buckets,
    auth: {
      userPoolId: auth.userPool.userPoolId,
      userPoolArn: auth.userPool.userPoolArn,
      clientId: auth.webClient.userPoolClientId,
    },
    sender: email.sender,
    portalSecretsKey: data.portalSecretsKey,
  };
  const realtime = new RealtimeStack(app, name('Realtime'), { system, resources: shared, settings });
  const schedulesName = name('Schedules');
  const pipeline = new PipelineStack(app, name('Pipeline'), {
    system,
    settings,
    resources: { ...shared, liveStage: realtime.stage },
    schedulesStackName: schedulesName,
  });
  email.deliverReceiptsTo(pipeline.queues);
  const schedules =
    system.schedules.length > 0
      ? new SchedulesStack(app, schedulesName, { system, queues: pipeline.queues })
      : undefined;
  const api = new ApiStack(app, name('Api'), {
    system,
    settings,
    resources: {
      ...shared,
      queues: pipeline.queues,
      deadLetterQueues: pipeline.deadLetterQueues,
      liveStage: realtime.stage,
    },
  });
  const clientId = auth.webClient.userPoolClientId;
  const region = auth.region;
  const web = new WebStack(app, name('Web'), {
    apiOriginDomain: api.originDomain,
    // The token endpoint of the hosted UI, the user pool (discovery, keys), the WebSocket API and the
    // buckets presigned URLs name (virtual-hosted, in the stack's region).
    connectSources: [
      auth.domain.baseUrl(),
      `https://cognito-idp.${region}.amazonaws.com`,
      `wss://*.execute-api.${region}.amazonaws.com`,
      `https://*.s3.${region}.amazonaws.com`,
      'https://*.s3.amazonaws.com',
    ],
    webDir: options.webDir ?? DEFAULT_WEB_DIR,
    spaConfig: webConfigOf({
      issuer: auth.userPool.userPoolProviderUrl,
      clientId,
      apiBase: API_BASE_PATH,
      wsUrl: realtime.stage.url,
      resource: null,
      scope: COGNITO_SCOPE,
      // Cognito's discovery document names no end-session endpoint; its hosted UI signs out at /logout.
      endSessionEndpoint: `${auth.domain.baseUrl()}/logout`,
      logoutParams: { client_id: clientId, logout_uri: context.authLogoutUrls[0] ?? '' },
    }),
  });

  return { data, auth, realtime, pipeline, schedules, email, api, web };
}

function requireBucket(data: DataStack, name: 'inbox') {
  const bucket = data.buckets[name];
  if (!bucket) throw new Error(`The data stack has no ${name} bucket`);
  return bucket;
}

export function allStacks(stacks: VoltfolioStacks): Stack[] {
  return Object.values(stacks).filter((stack): stack is Stack => stack !== undefined);
}
