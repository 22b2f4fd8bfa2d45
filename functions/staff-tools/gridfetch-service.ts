import { CAPTURE_CONTENT_TYPES, detectCaptureFileType, safeFileName } from '../../shared/files/file-type.ts';
import {
  type GridfetchLoaView,
  type GridfetchUsageReport,
  gridfetchLoaSchema,
  gridfetchUsageQuerySchema,
  UTIL_MESSAGES,
} from '../../shared/schemas/util-staff.ts';
import { getCompany } from '../company/index.ts';
import { writeActivity } from '../core/activity/activity-service.ts';
import { objectStart } from '../core/adapters/object-start.ts';
import { presignGet, presignPut } from '../core/adapters/s3.ts';
import { bucketName } from '../core/config.ts';
import { formError } from '../core/lib/errors.ts';
import { newId } from '../core/lib/ids.ts';
import { parseOrThrow } from '../core/lib/validation.ts';
import type { Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { listCompanies } from './admin-repository.ts';
import {
  listGridFetchLoas,
  listGridFetchUsage,
  putGridFetchLoa,
  type StoredLoa,
} from './staff-repository.ts';

/**
 * Grid-data fetches (half-hourly electricity data fetched for meters whose owner signed a letter of
 * authority): the staff usage report per company and month, and the letters themselves, kept as PDFs in
 * the documents bucket under their company.
 */

const PDF = CAPTURE_CONTENT_TYPES.pdf;
const loaPrefix = (companyId: string) => `gridfetch-loas/${companyId}/`;
const pad = (n: number) => String(n).padStart(2, '0');
const monthOf = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}`;

/** The months from `from` to `to`, both included. */
export function monthsBetween(from: string, to: string): string[] {
  const out: string[] = [];
  let [y, m] = from.split('-').map(Number) as [number, number];
  for (let month = from; month <= to; month = `${y}-${pad(m)}`) {
    out.push(month);
    m++;
    if (m > 12) {
      m = 1;
      y++;
    }
  }
  return out;
}

async function loaView(loa: StoredLoa): Promise<GridfetchLoaView> {
  return {
    _id: loa._id,
    companyId: String(loa.companyId),
    fileName: String(loa.fileName),
    mpans: Array.isArray(loa.mpans) ? loa.mpans : [],
    ...(typeof loa.validFrom === 'string' ? { validFrom: loa.validFrom } : {}),
    ...(typeof loa.validUntil === 'string' ? { validUntil: loa.validUntil } : {}),
    uploadedAt: String(loa.uploadedAt),
    uploadedBy: String(loa.uploadedBy),
    downloadUrl: await presignGet(bucketName('documents'), String(loa.key), 900, String(loa.fileName)),
  };
}

/** GET /util/gridfetch-usage?from=&to=&companyId=: fetches per company and month, with each company's letters. */
const usage = operation({ query: gridfetchUsageQuerySchema }, async (ctx): Promise<OpResult> => {
  const q = ctx.query;
  const now = new Date();
  const to = q.to ?? monthOf(now);
  const from = q.from ?? monthOf(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 11, 1)));
  if (from > to) throw formError({ from: 'Must not be after to' });
  const months = monthsBetween(from, to);
  const companies = (await listCompanies()).filter((c) => !q.companyId || c._id === q.companyId);
  const data = await Promise.all(
    companies.map(async (company) => {
      const [rows, loas] = await Promise.all([
        listGridFetchUsage(company._id, from, to),
        listGridFetchLoas(company._id),
      ]);
      const byMonth = new Map(rows.map((r) => [r.month, r]));
      const perMonth = months.map((month) => byMonth.get(month) ?? { month, fetches: 0, intervals: 0 });
      return {
        company: { _id: company._id, name: company.name ?? '' },
        months: perMonth,
        totals: {
          fetches: perMonth.reduce((s, m) => s + m.fetches, 0),
          intervals: perMonth.reduce((s, m) => s + m.intervals, 0),
        },
        loas: await Promise.all(loas.map(loaView)),
      };
    }),
  );
  // Companies that used the service most first; the rest by name.
  data.sort(
    (a, b) => b.totals.fetches - a.totals.fetches || a.company.name.localeCompare(b.company.name, 'en-GB'),
  );
  const report: GridfetchUsageReport = {
    from,
    to,
    months,
    data,
    totals: {
      fetches: data.reduce((s, d) => s + d.totals.fetches, 0),
      intervals: data.reduce((s, d) => s + d.totals.intervals, 0),
    },
  };
  return { body: report };
});

/**
 * POST /util/gridfetch-loa. First `{ companyId, fileName }`: a presigned PUT for the PDF, which the
 * browser sends with progress. Then the same with the `key` it was given (and the meters and dates the
 * letter covers): the file is checked by its bytes and the letter recorded for the company.
 */
const loa = operation({}, async (ctx): Promise<OpResult> => {
  const body = parseOrThrow(gridfetchLoaSchema, ctx.body ?? {});
  const company = await getCompany(body.companyId);
  if (!company || company.deleted === true) throw formError({ companyId: UTIL_MESSAGES.companyNotFound });
  const bucket = bucketName('documents');
  if (!body.key) {
    const key = `${loaPrefix(company._id)}${newId()}.pdf`;
    return {
      body: {
        uploadUrl: await presignPut(bucket, key, PDF),
        method: 'PUT',
        headers: { 'Content-Type': PDF },
        key,
        fileName: body.fileName,
      },
    };
  }
  // Only an upload made for this company's letters, and only a PDF, whatever its name says.
  if (!body.key.startsWith(loaPrefix(company._id)) || body.key.includes('..'))
    throw formError({ file: UTIL_MESSAGES.loaMissing });
  const head = await objectStart(bucket, body.key, 1024);
  if (!head || head.length === 0) throw formError({ file: UTIL_MESSAGES.loaMissing });
  if (detectCaptureFileType(head) !== 'pdf') throw formError({ file: UTIL_MESSAGES.loaNotPdf });
  const now = new Date().toISOString();
  const item: StoredLoa = {
    _id: newId(),
    companyId: company._id,
    key: body.key,
    fileName: safeFileName(body.fileName, 'letter-of-authority.pdf'),
    mpans: [...new Set(body.mpans)],
    ...(body.validFrom ? { validFrom: body.validFrom } : {}),
    ...(body.validUntil ? { validUntil: body.validUntil } : {}),
    uploadedAt: now,
    uploadedBy: ctx.caller.sub,
    createdAt: now,
    updatedAt: now,
  };
  await putGridFetchLoa(company._id, item);
  await writeActivity(
    { ...ctx.caller, companyId: company._id },
    {
      type: 'create',
      model: 'gridfetch-loas',
      modelId: item._id,
      message: `Letter of authority ${item.fileName}`,
    },
  );
  return { status: 201, body: await loaView(item) };
});

export const GRIDFETCH_OPERATIONS: Operations = {
  'gridfetch.usage': usage,
  'gridfetch.loa': loa,
};
