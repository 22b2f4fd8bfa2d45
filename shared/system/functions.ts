/**
 * The Lambda functions of the system. HTTP functions serve one resource area each, so the API's
 * ~250 calls run in a dozen functions rather than one per route.
 */
export const HTTP_FUNCTIONS = [
  'session',
  'companies',
  'entities',
  'assets',
  'asset-groups',
  'accounts',
  'invoices',
  'invoice-validation',
  'templates',
  'insights',
  'targets',
  'automation',
  'collaboration',
  'util',
] as const;
export type HttpFunctionName = (typeof HTTP_FUNCTIONS)[number];

export const WORKER_FUNCTIONS = [
  'email-intake',
  'asset-images',
  'capture',
  'validation',
  'missing-bills',
  'reports',
  'scraper',
  'imports',
  'restatements',
] as const;
export type WorkerFunctionName = (typeof WORKER_FUNCTIONS)[number];

export const WS_FUNCTIONS = ['live'] as const;
export type WsFunctionName = (typeof WS_FUNCTIONS)[number];

export type FunctionName = HttpFunctionName | WorkerFunctionName | WsFunctionName;

export interface FunctionDecl {
  name: FunctionName;
  kind: 'http' | 'worker' | 'ws';
  /** Entry module, relative to the repository root. */
  entry: string;
  memoryMb: number;
  timeoutSeconds: number;
  /** What the function may touch; the CDK app grants exactly this. */
  grants: {
    table: 'read' | 'readwrite';
    buckets?: Partial<Record<BucketName, 'read' | 'write' | 'readwrite'>>;
    queues?: QueueName[];
    liveConnections?: boolean;
    sendEmail?: boolean;
    /** Manage people in the user pool: create them, set temporary passwords, second factors. */
    userPool?: boolean;
    /** Run Textract analyses (on objects of the buckets it may read). */
    textract?: boolean;
    /**
     * The supplier-portal passwords sealed at rest: `seal` stores them (the KMS key's Encrypt), `open`
     * signs in with them (its Decrypt). No function needs both.
     */
    portalSecrets?: 'seal' | 'open';
    /** Read how many messages wait in every queue and its dead-letter queue (the staff admin overview). */
    queueDepths?: boolean;
  };
}

export const BUCKETS = ['uploads', 'documents', 'inbox', 'reports', 'web'] as const;
export type BucketName = (typeof BUCKETS)[number];

export const QUEUES = [
  'email-intake',
  'asset-images',
  'capture',
  'validation',
  'missing-bills',
  'reports',
  'scraper',
  'imports',
  'restatements',
] as const;
export type QueueName = (typeof QUEUES)[number];

const httpFn = (name: HttpFunctionName, grants: FunctionDecl['grants']): FunctionDecl => ({
  name,
  kind: 'http',
  entry: `functions/handlers/http/${name}.ts`,
  memoryMb: 512,
  timeoutSeconds: 29,
  grants,
});

const rw = { table: 'readwrite' } as const;

export const FUNCTIONS: readonly FunctionDecl[] = [
  httpFn('session', { ...rw, buckets: { documents: 'read' }, sendEmail: true, userPool: true }),
  httpFn('companies', {
    ...rw,
    buckets: { documents: 'readwrite' },
    sendEmail: true,
    userPool: true,
    portalSecrets: 'seal',
  }),
  httpFn('entities', rw),
  httpFn('assets', { ...rw, buckets: { documents: 'readwrite', uploads: 'readwrite' } }),
  httpFn('asset-groups', rw),
  httpFn('accounts', {
    ...rw,
    buckets: { documents: 'readwrite', uploads: 'readwrite' },
    // A meter's consumption file is kept and queued for the imports worker.
    queues: ['imports'],
    liveConnections: true,
  }),
  httpFn('invoices', {
    ...rw,
    buckets: { uploads: 'readwrite', documents: 'readwrite' },
    queues: ['capture', 'validation'],
    liveConnections: true,
  }),
  httpFn('invoice-validation', { ...rw, buckets: { uploads: 'read' }, queues: ['validation'] }),
  httpFn('templates', { ...rw, buckets: { uploads: 'readwrite', documents: 'readwrite' }, textract: true }),
  httpFn('insights', {
    ...rw,
    buckets: { reports: 'readwrite' },
    queues: ['reports', 'restatements'],
    sendEmail: true,
  }),
  // Benchmark tables ask the analytics worker to make their kept copy afresh hourly.
  httpFn('targets', { ...rw, queues: ['restatements'] }),
  httpFn('automation', { ...rw, buckets: { uploads: 'readwrite' }, queues: ['scraper', 'imports'] }),
  // documents: letters of authority are uploaded by presigned PUT, which needs the signer's write grant.
  // Discussions and the carbon marketplace: their own function, so util stays within its size budget.
  httpFn('collaboration', { ...rw, buckets: { documents: 'readwrite' } }),
  httpFn('util', {
    ...rw,
    buckets: { documents: 'readwrite', inbox: 'read', uploads: 'read' },
    queueDepths: true,
  }),
  {
    name: 'live',
    kind: 'ws',
    entry: 'functions/handlers/ws/live.ts',
    memoryMb: 256,
    timeoutSeconds: 10,
    grants: { table: 'readwrite', liveConnections: true },
  },
  {
    name: 'email-intake',
    kind: 'worker',
    entry: 'functions/handlers/queue/email-intake.ts',
    memoryMb: 512,
    timeoutSeconds: 60,
    grants: { table: 'readwrite', buckets: { inbox: 'read', uploads: 'write' }, liveConnections: true },
  },
  {
    name: 'asset-images',
    kind: 'worker',
    entry: 'functions/handlers/queue/asset-images.ts',
    memoryMb: 1024,
    timeoutSeconds: 60,
    grants: { table: 'readwrite', buckets: { documents: 'readwrite' }, liveConnections: true },
  },
  {
    name: 'capture',
    kind: 'worker',
    entry: 'functions/handlers/queue/capture.ts',
    memoryMb: 1536,
    // Textract's asynchronous analyses of a long document take a minute or two.
    timeoutSeconds: 300,
    grants: {
      table: 'readwrite',
      buckets: { uploads: 'read' },
      queues: ['validation'],
      liveConnections: true,
      textract: true,
    },
  },
  {
    name: 'validation',
    kind: 'worker',
    entry: 'functions/handlers/queue/validation.ts',
    memoryMb: 1024,
    timeoutSeconds: 60,
    grants: { table: 'readwrite', liveConnections: true },
  },
  {
    name: 'missing-bills',
    kind: 'worker',
    entry: 'functions/handlers/queue/missing-bills.ts',
    memoryMb: 512,
    // Every account of every company, one Query each.
    timeoutSeconds: 600,
    grants: { table: 'readwrite' },
  },
  {
    name: 'reports',
    kind: 'worker',
    entry: 'functions/handlers/queue/reports.ts',
    memoryMb: 1536,
    // A portfolio of hundreds of sites: every site's figures read, then drawn page by page.
    timeoutSeconds: 300,
    grants: {
      table: 'readwrite',
      buckets: { reports: 'readwrite', documents: 'read' },
      liveConnections: true,
      // The sweep queues scheduled runs on the worker's own queue; a run mails its report.
      queues: ['reports'],
      sendEmail: true,
    },
  },
  {
    name: 'scraper',
    kind: 'worker',
    entry: 'functions/handlers/queue/scraper.ts',
    memoryMb: 1024,
    // A run signs in, pages through the bill list and downloads every new bill; a slow portal takes minutes.
    timeoutSeconds: 900,
    grants: {
      table: 'readwrite',
      buckets: { uploads: 'readwrite' },
      queues: ['scraper'],
      liveConnections: true,
      portalSecrets: 'open',
    },
  },
  {
    name: 'imports',
    kind: 'worker',
    entry: 'functions/handlers/queue/imports.ts',
    // A file of monthly or long-layout half-hourly rows is judged whole before it is written (a wide
    // half-hourly file is written a part at a time and stays under 512 MB).
    memoryMb: 1024,
    timeoutSeconds: 900,
    // Imported bills go on to validation, as captured ones do.
    grants: {
      table: 'readwrite',
      buckets: { uploads: 'read' },
      queues: ['validation'],
      liveConnections: true,
    },
  },
  {
    name: 'restatements',
    kind: 'worker',
    entry: 'functions/handlers/queue/restatements.ts',
    memoryMb: 1024,
    // Every meter month of a company of thousands of meters is read, and those in other factors rewritten.
    timeoutSeconds: 900,
    grants: { table: 'readwrite', liveConnections: true },
  },
];

export interface QueueDecl {
  name: QueueName;
  consumer: WorkerFunctionName;
  batchSize: number;
  /** Must exceed the consumer's timeout, or a message reappears while it is still being handled. */
  visibilityTimeoutSeconds: number;
  /** Receives after which a message moves to the queue's dead-letter queue. */
  maxReceiveCount: number;
  /**
   * How many batches the local stack's reader hands its consumer at once (1 unless given), as Lambda
   * runs several instances of a consumer while its queue is deep.
   */
  localReaders?: number;
}

/** Which object-created events reach which queue, as S3 event notifications do in AWS. */
export interface SubscriptionDecl {
  bucket: BucketName;
  prefix: string;
  queue: QueueName;
}

/**
 * Where SES writes the mail it receives (bucket and key prefix) and which queue gets its receipt
 * notification: the receipt names the stored object and the SMTP envelope's recipients, which the
 * message's own To and Cc headers may not (a blind copy) or may falsely (anyone writes them).
 */
export interface MailReceiptDecl {
  bucket: BucketName;
  prefix: string;
  queue: QueueName;
}

export interface ScheduleDecl {
  name: string;
  /** EventBridge schedule expression, `rate(…)` or `cron(…)` in UTC; the local stack runs both. */
  expression: string;
  queue: QueueName;
  message: Record<string, unknown>;
}

export interface WsRouteDecl {
  routeKey: '$connect' | '$disconnect' | '$default' | 'ping';
  fn: WsFunctionName;
}

export const WS_ROUTES: readonly WsRouteDecl[] = [
  { routeKey: '$connect', fn: 'live' },
  { routeKey: '$disconnect', fn: 'live' },
  { routeKey: 'ping', fn: 'live' },
  { routeKey: '$default', fn: 'live' },
];
