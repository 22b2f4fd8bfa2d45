import type { ReportDocument } from '../../shared/reports/report-document.ts';
import { REPORT_CONTENT_TYPES, reportFileName } from '../../shared/reports/report-templates.ts';
import type { ReportBuildMessage } from '../../shared/system/queue-messages.ts';
import { loadCaller } from '../core/access/caller-service.ts';
import { publishToCompany } from '../core/adapters/live.ts';
import { putObject } from '../core/adapters/s3.ts';
import { bucketName } from '../core/config.ts';
import { ApiError } from '../core/lib/errors.ts';
import type { Logger } from '../core/lib/logger.ts';
import { changeReport, findReport, reportFileKey, type StoredReport } from './report-repository.ts';

/** The first key figures of a document: what a mail carrying the report shows in its body. */
function headlineOf(doc: ReportDocument): { label: string; value: string }[] {
  for (const section of doc.sections)
    for (const block of section.blocks)
      if (block.kind === 'figures') return block.items.slice(0, 6).map((i) => ({ ...i }));
  return [];
}

/** Tells the company's open pages how the report is getting on, so the history shows it live. */
async function announce(report: StoredReport, log: Logger): Promise<void> {
  await publishToCompany(
    report.companyId ?? '',
    {
      type: 'report',
      keys: ['/reports', `/reports/${report._id}`],
      data: {
        reportId: report._id,
        name: report.name,
        status: report.status,
        progress: report.progress ?? 0,
        requestedBy: report.requestedBy,
      },
    },
    log,
  );
}

/**
 * Builds one report for a `{ companyId, reportId, generation }` message. The message names the build it is
 * for: a build already stored, or one a newer build has overtaken, is passed over, so a message delivered
 * twice makes one file. The file's key is the build's own, so a build cut short and done again overwrites
 * what it had written. The report is built with what its requester may read now.
 */
export async function buildReport(message: ReportBuildMessage, log: Logger): Promise<void> {
  const { companyId, reportId, generation } = message;
  const found = (await findReport(companyId, reportId))?.report;
  if (!found) {
    log.info('report gone before it was built', { reportId });
    return;
  }
  if ((found.builtGeneration ?? 0) >= generation || found.generation > generation) {
    log.info('report build already done', { reportId, generation });
    return;
  }
  const started = await changeReport(companyId, reportId, (r) =>
    r.generation === generation && (r.builtGeneration ?? 0) < generation
      ? { status: 'generating', progress: 10 }
      : undefined,
  );
  if (!started?.written) return;
  let report = started.report;
  await announce(report, log);
  const progress = async (percent: number) => {
    const changed = await changeReport(companyId, reportId, (r) =>
      r.generation === generation ? { progress: percent } : undefined,
    );
    if (changed?.written) await announce(changed.report, log);
  };
  try {
    const caller = await loadCaller(report.requestedBy, [], { companyId });
    // The figures' reading and the documents' layout are loaded by the first build, not by every start of
    // the functions that can queue one.
    const { reportDocument } = await import('./report-data.ts');
    const doc = await reportDocument(report, caller, progress);
    let bytes: Uint8Array;
    let pages: number | undefined;
    if (report.format === 'pdf') {
      // The PDF library is loaded by the first PDF, not by every start of the worker.
      const { reportPdf } = await import('../../shared/reports/report-pdf.ts');
      const pdf = await reportPdf(doc);
      bytes = pdf.bytes;
      pages = pdf.pages;
    } else {
      const { reportCsv, reportXlsx } = await import('../../shared/reports/report-files.ts');
      bytes = report.format === 'xlsx' ? reportXlsx(doc) : reportCsv(doc);
    }
    await progress(90);
    const fileName = reportFileName(report.name, report.format);
    await putObject(
      bucketName('reports'),
      reportFileKey(companyId, reportId, generation, fileName),
      bytes,
      REPORT_CONTENT_TYPES[report.format],
    );
    const done = await changeReport(companyId, reportId, (r) =>
      r.generation === generation
        ? {
            status: 'ready',
            progress: 100,
            builtGeneration: generation,
            fileName,
            sizeBytes: bytes.length,
            ...(pages ? { pages } : {}),
            factorSets: [...doc.factorSets],
            headline: headlineOf(doc),
            error: undefined,
            completedAt: new Date().toISOString(),
          }
        : undefined,
    );
    if (done?.written) {
      report = done.report;
      await announce(report, log);
      log.info('report built', { reportId, generation, bytes: bytes.length, pages });
    }
  } catch (err) {
    // A refusal (the requester may no longer read the scope) will not change on a retry; anything else may.
    const refused = err instanceof ApiError && err.status < 500;
    const failed = await changeReport(companyId, reportId, (r) =>
      r.generation === generation
        ? {
            status: 'failed',
            progress: 0,
            error: refused
              ? (err as ApiError).message
              : 'The report could not be built; it will be tried again',
          }
        : undefined,
    );
    if (failed?.written) await announce(failed.report, log);
    if (!refused) throw err;
    log.warn('report refused', { reportId, error: String(err) });
  }
}
