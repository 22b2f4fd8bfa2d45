import * as z from 'zod';
import type { QueueName } from './functions.ts';

/**
 * The body of each queue's messages. A consumer parses every message with its queue's schema; one that
 * does not fit can never be handled, so it is logged and dropped rather than retried.
 */

const s3Record = z.object({
  eventName: z.string().optional(),
  s3: z.object({
    bucket: z.object({ name: z.string().min(1) }),
    object: z.object({ key: z.string().min(1), size: z.number().optional() }),
  }),
});

/** An S3 event notification: object-created records, or the test event S3 sends when one is configured. */
export const s3EventMessage = z.union([
  z.object({ Event: z.literal('s3:TestEvent') }),
  z.object({ Records: z.array(s3Record) }),
]);
export type S3EventMessage = z.output<typeof s3EventMessage>;

/**
 * SES's notification that it received a mail and stored it (the S3 action's SNS notification, delivered
 * raw): the envelope's recipients of the rule's domain, and the stored object.
 */
export const mailReceiptMessage = z.object({
  notificationType: z.literal('Received'),
  mail: z.object({
    source: z.string().optional(),
    messageId: z.string().optional(),
    timestamp: z.string().optional(),
  }),
  receipt: z.object({
    recipients: z.array(z.string()),
    /** PASS, FAIL, GRAY (not checked) or PROCESSING_FAILED, as SES judged the From domain. */
    dmarcVerdict: z.object({ status: z.string() }).optional(),
    action: z.object({
      type: z.literal('S3'),
      bucketName: z.string().min(1),
      objectKey: z.string().min(1),
    }),
  }),
});
export type MailReceiptMessage = z.output<typeof mailReceiptMessage>;

/** A capture started again from the API: the document it stored is read once more. */
export const captureRestartMessage = z.object({ companyId: z.string().min(1), captureId: z.string().min(1) });

/** One invoice to validate, sent by capture, imports and the API. */
export const validationMessage = z.object({ companyId: z.string().min(1), invoiceId: z.string().min(1) });

/** The daily schedule's check for bills that have stopped coming. */
export const missingBillsMessage = z.object({ check: z.literal('missing-bills') });

/** The daily schedule's judgement of every reduction target, on the same queue as the other daily check. */
export const targetsCheckMessage = z.object({ check: z.literal('targets') });
/**
 * One report to build. `generation` counts the report's builds (a regeneration adds one), so a message
 * delivered again for a build already done is recognised and passed over.
 */
export const reportMessage = z.object({
  companyId: z.string().min(1),
  reportId: z.string().min(1),
  generation: z.number().int().min(1),
});
/** The timer's sweep: every scheduled report whose run has come is queued as a run of its own. */
export const scheduledReportsSweepMessage = z.object({ sweep: z.literal('scheduled-reports') });
/**
 * One run of a scheduled report: the run that fell at `runAt` (its period is the one just ended then), or
 * one asked for now, which names its own `key`. The period, or the key, is sent once however often the
 * message is delivered.
 */
export const scheduledReportRunMessage = z.object({
  companyId: z.string().min(1),
  scheduleId: z.string().min(1),
  runAt: z.iso.datetime(),
  key: z.string().min(1).max(100).optional(),
});
/**
 * One connector run to carry out (`runId`, with the automation run it works for, if any), an automation
 * run that needs no connector, or the schedule's sweep, which starts a run for every supplier login a
 * company has switched on and every automation due.
 */
export const scraperMessage = z.union([
  z.object({
    companyId: z.string().min(1),
    runId: z.string().min(1),
    automationRunId: z.string().min(1).optional(),
  }),
  z.object({ companyId: z.string().min(1), automationRunId: z.string().min(1) }),
  z.object({ sweep: z.literal('scraper') }),
]);
/**
 * An import or its rollback, claimed by the API and run by the imports worker; `at-once` is a file sent in
 * a request (one meter's consumption), read, mapped by suggestion and imported without a wizard.
 */
export const importRunMessage = z.object({
  companyId: z.string().min(1),
  importId: z.string().min(1),
  action: z.enum(['import', 'rollback', 'at-once']),
  sub: z.string().min(1),
});

/** One restatement of a company's emissions in a factor set edition, recorded as a job by the API. */
export const restatementMessage = z.object({ companyId: z.string().min(1), jobId: z.string().min(1) });

/**
 * Parts of a company's kept copy of site years (the sites' fields, or a year's figures) to make afresh
 * from every item, asked by the first table call to find them older than an hour; on the analytics
 * worker's queue.
 */
export const keptSiteYearsMessage = z.object({
  companyId: z.string().min(1),
  keptSiteYears: z
    .array(z.string().regex(/^(sites|\d{4})$/))
    .min(1)
    .max(100),
});

/**
 * A company's moves of meters between users that requests died before finishing, to finish (their sites'
 * roll-ups rebuilt), sent by the first split by meter user to find one; on the analytics worker's queue.
 */
export const meterUserMovesMessage = z.object({
  companyId: z.string().min(1),
  meterUserMoves: z.literal(true),
});

export type ReportBuildMessage = z.output<typeof reportMessage>;
export type ScheduledReportRunMessage = z.output<typeof scheduledReportRunMessage>;
export type RestatementMessage = z.output<typeof restatementMessage>;
export type KeptSiteYearsMessage = z.output<typeof keptSiteYearsMessage>;

export const QUEUE_MESSAGES = {
  'email-intake': mailReceiptMessage,
  'asset-images': s3EventMessage,
  capture: z.union([captureRestartMessage, s3EventMessage]),
  validation: validationMessage,
  'missing-bills': z.union([missingBillsMessage, targetsCheckMessage]),
  reports: z.union([reportMessage, scheduledReportsSweepMessage, scheduledReportRunMessage]),
  scraper: scraperMessage,
  imports: z.union([importRunMessage, s3EventMessage]),
  restatements: z.union([restatementMessage, keptSiteYearsMessage, meterUserMovesMessage]),
} as const satisfies Record<QueueName, z.ZodType>;

export type QueueMessage<Q extends QueueName> = z.output<(typeof QUEUE_MESSAGES)[Q]>;
