import { MAX_ATTACHMENT_BYTES } from '../../shared/reports/report-schedule.ts';
import { REPORT_CONTENT_TYPES } from '../../shared/reports/report-templates.ts';
import { type MailAttachment, mailer, type OutboundEmail } from '../core/adapters/mailer.ts';
import { getObjectBytes, presignGet } from '../core/adapters/s3.ts';
import { bucketName, mailConfig } from '../core/config.ts';
import { conflict } from '../core/lib/errors.ts';
import { reportFileKey, type StoredReport } from './report-repository.ts';

/** A report too large to attach is linked for a week, the longest a signed link may last. */
export const LINK_SECONDS = 7 * 24 * 3600;

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** What a mail of a report carries beside its figures: the file, or a link to it when it is too large. */
export interface ReportDelivery {
  attachment?: MailAttachment;
  link?: string;
}

/** The built file of a report, ready to go to any number of people. */
export async function deliveryOf(report: StoredReport): Promise<ReportDelivery> {
  const { builtGeneration, fileName, companyId } = report;
  if (!builtGeneration || !fileName || !companyId)
    throw conflict(
      report.status === 'failed' ? 'This report could not be built' : 'This report is not ready yet',
    );
  const key = reportFileKey(companyId, report._id, builtGeneration, fileName);
  const bucket = bucketName('reports');
  if ((report.sizeBytes ?? 0) > MAX_ATTACHMENT_BYTES)
    return { link: await presignGet(bucket, key, LINK_SECONDS, fileName) };
  const bytes = await getObjectBytes(bucket, key);
  if (bytes.length > MAX_ATTACHMENT_BYTES)
    return { link: await presignGet(bucket, key, LINK_SECONDS, fileName) };
  return { attachment: { fileName, contentType: REPORT_CONTENT_TYPES[report.format], bytes } };
}

export interface ReportMailOptions {
  to: string;
  /** A line from whoever sent it. */
  message?: string;
  sentBy?: string;
  unsubscribeUrl?: string;
}

/**
 * A short mail of a report: its name and period, its key figures and the factor sets they were worked
 * out with, and the file attached (or linked, for a week, when it is over 10 MB).
 */
export function reportMail(
  report: StoredReport,
  delivery: ReportDelivery,
  opts: ReportMailOptions,
): OutboundEmail {
  const app = mailConfig().appUrl?.replace(/\/$/, '');
  const period = `${report.startDate} to ${report.endDate}`;
  const figures = report.headline ?? [];
  const factorLine = report.factorSets?.length ? `Emission factors: ${report.factorSets.join(', ')}.` : '';
  const fileLine = delivery.attachment
    ? `The report is attached (${delivery.attachment.fileName}).`
    : `The report is too large to attach: download it within 7 days from ${delivery.link ?? ''}`;
  const text = [
    opts.message ?? '',
    '',
    report.name,
    period,
    '',
    ...figures.map((f) => `${f.label}: ${f.value}`),
    '',
    factorLine,
    fileLine,
    ...(app ? ['', `All reports: ${app}/reports/history`] : []),
    ...(opts.sentBy ? ['', `Sent by ${opts.sentBy}.`] : []),
    ...(opts.unsubscribeUrl ? ['', `Stop receiving this report: ${opts.unsubscribeUrl}`] : []),
  ]
    .filter((line, i, all) => line !== '' || (i > 0 && all[i - 1] !== ''))
    .join('\n');
  const rows = figures
    .map(
      (f) =>
        `<tr><td style="padding:4px 16px 4px 0;color:#555">${escapeHtml(f.label)}</td><td style="padding:4px 0;font-weight:600">${escapeHtml(f.value)}</td></tr>`,
    )
    .join('');
  const html = [
    '<!doctype html><html><body style="font-family:Arial,sans-serif;font-size:14px;color:#222">',
    opts.message ? `<p>${escapeHtml(opts.message)}</p>` : '',
    `<h2 style="margin:0 0 4px">${escapeHtml(report.name)}</h2>`,
    `<p style="margin:0 0 12px;color:#555">${escapeHtml(period)}</p>`,
    rows ? `<table style="border-collapse:collapse">${rows}</table>` : '',
    factorLine ? `<p style="color:#555">${escapeHtml(factorLine)}</p>` : '',
    delivery.attachment
      ? `<p>The report is attached (${escapeHtml(delivery.attachment.fileName)}).</p>`
      : `<p>The report is too large to attach: <a href="${escapeHtml(delivery.link ?? '')}">download it</a> within 7 days.</p>`,
    app ? `<p><a href="${escapeHtml(`${app}/reports/history`)}">All reports</a></p>` : '',
    opts.sentBy ? `<p style="color:#555">Sent by ${escapeHtml(opts.sentBy)}.</p>` : '',
    opts.unsubscribeUrl
      ? `<p style="font-size:12px;color:#777"><a href="${escapeHtml(opts.unsubscribeUrl)}">Unsubscribe</a> from this scheduled report.</p>`
      : '',
    '</body></html>',
  ].join('');
  return {
    to: opts.to,
    subject: `${report.name} (${period})`,
    text,
    html,
    ...(delivery.attachment ? { attachments: [delivery.attachment] } : {}),
    ...(opts.unsubscribeUrl ? { unsubscribeUrl: opts.unsubscribeUrl } : {}),
  };
}

export async function sendReportMail(
  report: StoredReport,
  delivery: ReportDelivery,
  opts: ReportMailOptions,
): Promise<void> {
  await mailer().send(reportMail(report, delivery, opts));
}

/** Where an unsubscribe link points: the API's own page, which asks before it acts. */
export function unsubscribeUrlOf(token: string): string | undefined {
  const app = mailConfig().appUrl?.replace(/\/$/, '');
  return app ? `${app}/api/scheduled-reports/unsubscribe?token=${encodeURIComponent(token)}` : undefined;
}
