import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { S3Client } from '@aws-sdk/client-s3';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { MAIL_RECEIPTS, SCHEDULES } from '../../shared/system/pipeline.ts';
import type { MailReceiptMessage } from '../../shared/system/queue-messages.ts';
import { type DynamoEmulator, ensureTable, startDynamo } from './dynamodb.ts';
import {
  applyEnvironment,
  LOCAL_CREDENTIALS,
  LOCAL_REGION,
  type LocalUrls,
  localEnvironment,
  localQueueUrl,
  localUrls,
} from './environment.ts';
import { setUpDemoPortals } from './fakes/demo-portals.ts';
import { startPublicDataFakes } from './fakes/public-data-server.ts';
import { type ConnectorFakes, startConnectorFakes } from './fakes/supplier-portal-server.ts';
import { type Component, healthOf } from './health.ts';
import { createGateway, type GatewayParts } from './http-gateway.ts';
import { type FunctionLoad, loadFunctions } from './lambda.ts';
import { ensureBuckets, ensureQueues, type MessagingEmulator, startMessaging } from './messaging.ts';
import { loadOidc } from './oidc-loader.ts';
import { explainPortError, prepareStateDir, type StackOptions } from './options.ts';
import { drainQueues } from './queue-drain.ts';
import { startQueuePollers } from './queue-pollers.ts';
import { S3_PATH, s3Proxy } from './s3-proxy.ts';
import { routeObjectCreated } from './s3-routing.ts';
import { startSchedules } from './schedules.ts';
import { type SeedOutcome, seedOnce } from './seeding.ts';
import { startSmtpInbox } from './smtp-inbox.ts';
import { staticFiles } from './static-files.ts';
import { startTextract } from './textract/server.ts';
import { buildWebApp, type WebBuild } from './web-build.ts';
import { type WsGateway, wsGateway } from './ws-gateway.ts';

export interface LocalStack {
  urls: LocalUrls;
  /** The environment the functions run with (also applied to process.env). */
  env: Record<string, string>;
  ports: { http: number; smtp: number; dynamo: number; aws: number; textract: number };
  stateDir: string;
  webDir: string;
  messaging: MessagingEmulator;
  dynamo: DynamoEmulator;
  functions: FunctionLoad;
  /** The WebSocket gateway, e.g. to cut live connections in tests. */
  ws: WsGateway;
  /** The supplier portals and meter data API the connectors reach, to set up and to misbehave. */
  connectors: ConnectorFakes;
  seed?: SeedOutcome;
  web?: WebBuild;
  components: Map<string, Component>;
  health(): { status: number; body: unknown };
  /** Resolves when every polled queue is empty and no consumer is running. */
  drainQueues(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
  startedInMs: number;
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * Everything on one machine, in this process: DynamoDB, SQS and S3 emulators, the functions behind an
 * API Gateway-like HTTP and WebSocket gateway, queue consumers, S3 notifications, schedules, the SMTP
 * inbox, the OpenID provider and the web app. The gateway listens first and answers 503 until all is up.
 */
export async function startStack(options: StackOptions): Promise<LocalStack> {
  const started = performance.now();
  const { log, stateDir, repoRoot } = options;
  const components = new Map<string, Component>();
  const set = (name: string, c: Component) => components.set(name, c);
  // Stopping runs in phases: inputs, then work in progress, the gateway, files, and the emulators last.
  const stops: { phase: 1 | 2 | 3 | 4 | 5; run: () => Promise<void> | void }[] = [];
  const atStop = (phase: 1 | 2 | 3 | 4 | 5, run: () => Promise<void> | void) => stops.push({ phase, run });
  const parts: GatewayParts = { ready: false, health: () => healthOf(false, components) };

  await prepareStateDir(stateDir);
  const server = createGateway(parts, log);
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err) => reject(explainPortError(err, options.port, 'PORT')));
    server.listen(options.port, options.bindHost, () => resolve());
  });
  atStop(
    3,
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 1000).unref();
      }),
  );
  const httpPort = (server.address() as AddressInfo).port;
  const urls = localUrls(`http://${options.publicHost}:${httpPort}`);
  set('gateway', { status: 'up', detail: urls.origin });

  let stopping: Promise<void> | undefined;
  const stopAll = () => {
    stopping ??= (async () => {
      parts.ready = false;
      for (const step of [...stops].reverse().sort((a, b) => a.phase - b.phase)) {
        try {
          await step.run();
        } catch (err) {
          log('stop step failed', { error: errorText(err) });
        }
      }
    })();
    return stopping;
  };

  try {
    // Each emulator that did start is stopped again, even when the other one failed.
    const dynamo = await startDynamo(join(stateDir, 'dynamodb'), options.dynamoPort, options.bindHost).catch(
      (err: unknown) => {
        throw explainPortError(err, options.dynamoPort, 'DYNAMODB_PORT');
      },
    );
    atStop(5, () => dynamo.stop());
    const messaging = await startMessaging(join(stateDir, 'fauxqs'), options.awsPort).catch(
      (err: unknown) => {
        throw explainPortError(err, options.awsPort, 'AWS_EMULATOR_PORT');
      },
    );
    atStop(5, () => messaging.stop());
    set('dynamodb', { status: 'up', detail: dynamo.endpoint });
    set('sqs+s3', { status: 'up', detail: messaging.endpoint });

    // S3 is reachable (through the gateway's front) from here on, also while the seed runs.
    parts.s3 = s3Proxy(messaging.endpoint, urls.origin, messaging.s3);
    const loopback = ['0.0.0.0', '::'].includes(options.bindHost) ? '127.0.0.1' : options.bindHost;
    const s3Endpoint = `http://${loopback.includes(':') ? `[${loopback}]` : loopback}:${httpPort}${S3_PATH}`;
    // No internet here: the site pages' public services are answered by local servers of their shape.
    const publicData = await startPublicDataFakes();
    atStop(5, () => publicData.stop());
    set('public-data', { status: 'up', detail: publicData.url });
    const connectors = await startConnectorFakes();
    atStop(5, () => connectors.stop());
    set('connector-fakes', { status: 'up', detail: connectors.url });
    // Reads documents from S3 through the same front as the functions; loads nothing until first used.
    const textract = await startTextract({
      port: options.textractPort ?? 0,
      host: options.bindHost,
      s3Endpoint,
      region: LOCAL_REGION,
      log,
    }).catch((err: unknown) => {
      throw explainPortError(err, options.textractPort ?? 0, 'TEXTRACT_PORT');
    });
    atStop(5, () => textract.stop());
    set('textract', { status: 'up', detail: textract.endpoint });
    const env = localEnvironment(
      {
        origin: urls.origin,
        dynamoEndpoint: dynamo.endpoint,
        awsEndpoint: messaging.endpoint,
        s3Endpoint,
        stateDir,
        publicDataUrl: publicData.url,
        textractEndpoint: textract.endpoint,
        connectorsUrl: connectors.url,
      },
      options.logLevel,
    );
    applyEnvironment(env);
    const s3Front = new S3Client({
      region: LOCAL_REGION,
      endpoint: s3Endpoint,
      forcePathStyle: true,
      credentials: LOCAL_CREDENTIALS,
    });
    atStop(5, () => s3Front.destroy());

    const [table, buckets, queues, functions] = await Promise.all([
      ensureTable(dynamo.client),
      ensureBuckets(messaging.s3),
      ensureQueues(messaging.sqs, messaging.endpoint, {
        visibilityTimeoutSeconds: options.visibilityTimeoutSeconds,
      }),
      loadFunctions(repoRoot),
    ]);
    set('table', { status: 'up', detail: `${env.TABLE_NAME} (${table})` });
    set('buckets', { status: 'up', detail: buckets.join(', ') });
    set('queues', { status: 'up', detail: queues.join(', ') });
    for (const [name, error] of functions.failed)
      log('function not loaded; its routes answer 500', { fn: name, error });
    set('functions', {
      status: functions.failed.size === 0 ? 'up' : 'failed',
      detail:
        functions.failed.size === 0
          ? `${functions.loaded.size} loaded`
          : [...functions.failed].map(([n, e]) => `${n}: ${e}`).join('; '),
    });

    const routing = routeObjectCreated(messaging, log);
    atStop(2, async () => {
      routing.stop();
      await routing.idle();
    });

    const webDir = join(stateDir, 'web');
    const [seed, oidc, web] = await Promise.all([
      options.seed
        ? seedOnce(repoRoot, stateDir, urls.origin).catch((err: unknown): SeedOutcome | Error =>
            err instanceof Error ? err : new Error(String(err)),
          )
        : undefined,
      loadOidc(repoRoot, urls.origin, stateDir),
      options.web === 'serve'
        ? ({ state: 'existing', note: 'not built (WEB_BUILD=off)', dispose: async () => {} } as WebBuild)
        : buildWebApp(repoRoot, webDir, urls, options.web === 'watch').catch((err: unknown) =>
            err instanceof Error ? err : new Error(String(err)),
          ),
    ]);
    if (seed && !(seed instanceof Error)) {
      const portals = await setUpDemoPortals(connectors, stateDir).catch((err: unknown) => err);
      if (portals instanceof Error) log('demo supplier portal not set up', { error: portals.message });
    }
    // Data migrations run at every start, after the seed: each skips what it has already done.
    await import('../../functions/assets/floor-area-migration.ts')
      .then(({ migrateFloorAreas }) => migrateFloorAreas())
      .then((done) => {
        if (done.marked > 0) log('floor areas migrated to m²', { ...done });
      })
      .catch((err: unknown) =>
        log('floor-area migration failed', { error: err instanceof Error ? err.message : String(err) }),
      );
    if (seed instanceof Error) {
      log('demo data not seeded', { error: seed.stack ?? seed.message });
      set('seed', { status: 'failed', detail: seed.message });
    } else if (seed) set('seed', { status: 'up', detail: seed.note ?? seed.state });
    else set('seed', { status: 'skipped', detail: 'disabled' });
    if ('error' in oidc) {
      log('OpenID provider not loaded; sign-in is unavailable, the rest runs', { error: oidc.error });
      parts.oidcError = oidc.error;
      set('oidc', { status: 'failed', detail: oidc.error });
    } else {
      parts.oidc = oidc.oidc.handle;
      atStop(4, () => oidc.oidc.close());
      set('oidc', { status: 'up', detail: urls.issuer });
    }
    if (web instanceof Error) {
      log('web app not built; serving what the directory holds', { error: web.message });
      set('web', { status: 'failed', detail: web.message });
    } else {
      atStop(2, () => web.dispose());
      set('web', { status: 'up', detail: web.note ? `${web.state}: ${web.note}` : web.state });
    }
    parts.web = staticFiles(webDir);
    parts.functions = functions;

    const ws = wsGateway(functions, log);
    parts.ws = ws;
    atStop(1, () => ws.stop());
    set('websocket', { status: functions.loaded.has('live') ? 'up' : 'failed', detail: urls.wsUrl });

    const pollers =
      options.pollers === false
        ? undefined
        : startQueuePollers(
            messaging,
            functions,
            log,
            options.pollers === true ? undefined : options.pollers,
          );
    if (pollers) atStop(1, () => pollers.stop());
    set('pollers', { status: 'up', detail: pollers?.polled().join(', ') || 'none' });

    const receiptQueue = MAIL_RECEIPTS.find((r) => r.bucket === 'inbox')?.queue;
    // SES's S3 action publishes its receipt to a topic the intake queue subscribes to, raw.
    const notifyReceipt = async (receipt: MailReceiptMessage) => {
      if (!receiptQueue) return;
      await messaging.sqs.send(
        new SendMessageCommand({
          QueueUrl: localQueueUrl(messaging.endpoint, receiptQueue),
          MessageBody: JSON.stringify(receipt),
        }),
      );
    };
    const smtp = await startSmtpInbox(s3Front, options.smtpPort, log, notifyReceipt, options.bindHost).catch(
      (err: unknown) => {
        throw explainPortError(err, options.smtpPort, 'SMTP_PORT');
      },
    );
    atStop(1, () => smtp.stop());
    set('smtp', { status: 'up', detail: `${options.bindHost}:${smtp.port}` });

    if (options.schedules) {
      const schedules = startSchedules(SCHEDULES, messaging.sqs, messaging.endpoint, log);
      atStop(1, () => schedules.stop());
    }
    set('schedules', {
      status: 'up',
      detail: options.schedules ? `${SCHEDULES.length} declared` : 'disabled',
    });

    parts.health = () => healthOf(true, components);
    parts.ready = true;
    return {
      urls,
      env,
      ports: {
        http: httpPort,
        smtp: smtp.port,
        dynamo: dynamo.port,
        aws: messaging.port,
        textract: textract.port,
      },
      stateDir,
      webDir,
      messaging,
      dynamo,
      functions,
      ws,
      connectors,
      seed: seed instanceof Error ? undefined : seed,
      web: web instanceof Error ? undefined : web,
      components,
      health: () => parts.health(),
      drainQueues: (timeoutMs) =>
        drainQueues({ messaging, routing, pollers, timeoutMs: timeoutMs ?? 30_000 }),
      stop: stopAll,
      startedInMs: Math.round(performance.now() - started),
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
