import {
  fitGasModel,
  type GasObservation,
  MIN_GAS_OBSERVATIONS,
  predictGas,
} from '../../shared/domain/gas-prediction.ts';
import { convertQuantity } from '../../shared/schemas/account-rules.ts';
import {
  GAS_METER_CHOICES_LIMIT,
  type GasMeterChoice,
  type GasMeterChoices,
  type GasPrediction,
  type GasPredictionMonth,
  gasMeterChoicesQuerySchema,
  gasPredictionSchema,
  UTIL_MESSAGES,
} from '../../shared/schemas/util-staff.ts';
import { getAccount, listAccountMonths } from '../accounts/index.ts';
import { findAssets } from '../assets/index.ts';
import { getCompany } from '../company/index.ts';
import { declaredRef, listItems } from '../core/data/item-repository.ts';
import { formError } from '../core/lib/errors.ts';
import { parseOrThrow } from '../core/lib/validation.ts';
import type { OpContext, Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { monthsBetween } from './gridfetch-service.ts';

/**
 * POST /util/gas-prediction-data (the staff gas prediction tool): a gas account's use over a period,
 * predicted from its own stored monthly consumption and heating degree days. The method is the
 * degree-day regression of shared/domain/gas-prediction.ts: learn a baseload per day and a use per
 * degree day from the history months the caller gives degree days for, then apply them to the days and
 * degree days of each month of the period (a month cut by the period counts its share of days and of
 * degree days). Estimated months are left out of the history: a model should learn from measurements.
 */

const pad = (n: number) => String(n).padStart(2, '0');
const round = (v: number, places: number) => Math.round(v * 10 ** places) / 10 ** places;
const daysIn = (month: string) => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
};
const addMonths = (month: string, n: number) => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const d = new Date(Date.UTC(y, m - 1 + n, 1));
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}`;
};

/** Days of a month inside the period [start, end] (YYYY-MM-DD, both included). */
function daysInside(month: string, start: string, end: string): number {
  const first = `${month}-01`;
  const last = `${month}-${pad(daysIn(month))}`;
  const from = first > start ? first : start;
  const to = last < end ? last : end;
  if (from > to) return 0;
  return (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000 + 1;
}

/**
 * The company a call is about: the one named (staff may name any live company), else the caller's own.
 * A company that does not exist is refused by name, rather than passing as one with no meters.
 */
async function companyOf(ctx: OpContext, named: string | undefined): Promise<string> {
  if (!named) return ctx.caller.companyId;
  const company = await getCompany(named);
  if (!company || company.deleted === true) throw formError({ companyId: UTIL_MESSAGES.companyNotFound });
  return company._id;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);

/** GET /util/gas-prediction-accounts: the company's live gas meters with their sites, for the tool's choice. */
const meterChoices = operation({ query: gasMeterChoicesQuerySchema }, async (ctx): Promise<OpResult> => {
  const { query } = ctx;
  const companyId = await companyOf(ctx, query.companyId);
  const gas = await listItems(declaredRef('accounts', { companyId }), {
    filters: { type: 'gas' },
    limit: GAS_METER_CHOICES_LIMIT,
    skip: 0,
  });
  const assetIds = gas.data.map((a) => str(a.assetId)).filter((id): id is string => id !== undefined);
  const sites = await findAssets(companyId, assetIds);
  const data: GasMeterChoice[] = gas.data.map((a) => {
    const assetId = str(a.assetId);
    const site = assetId ? sites.get(assetId) : undefined;
    const siteName = site ? str(site.siteName) : undefined;
    const meterPointNumber = str(a.meterPointNumber);
    const status = str(a.status);
    return {
      _id: a._id,
      name: str(a.name) ?? meterPointNumber ?? a._id,
      ...(meterPointNumber ? { meterPointNumber } : {}),
      ...(status ? { status } : {}),
      ...(assetId ? { assetId } : {}),
      ...(siteName ? { siteName } : {}),
    };
  });
  data.sort(
    (a, b) =>
      (a.siteName ?? '').localeCompare(b.siteName ?? '', 'en-GB') || a.name.localeCompare(b.name, 'en-GB'),
  );
  const answer: GasMeterChoices = { data, total: gas.total, limit: GAS_METER_CHOICES_LIMIT, skip: 0 };
  return { body: answer };
});

const predict = operation({}, async (ctx): Promise<OpResult> => {
  const body = parseOrThrow(gasPredictionSchema, ctx.body ?? {});
  const companyId = await companyOf(ctx, body.companyId);
  const account = await getAccount(companyId, body.accountId);
  if (!account) throw formError({ accountId: UTIL_MESSAGES.accountNotFound });
  if (account.type !== 'gas') throw formError({ accountId: UTIL_MESSAGES.notGas });

  const firstMonth = body.startDate.slice(0, 7);
  const historyFrom = addMonths(firstMonth, -body.historyMonths);
  const historyTo = addMonths(firstMonth, -1);
  const stored = await listAccountMonths(companyId, account._id, historyFrom, historyTo);
  const observations: GasObservation[] = [];
  for (const m of stored) {
    const kwh = convertQuantity(m.consumption, m.unit, 'kWh');
    const hdd = body.degreeDays[m.month];
    if (kwh === undefined || hdd === undefined || m.source === 'estimate') continue;
    observations.push({ month: m.month, days: daysIn(m.month), kwh, degreeDays: hdd });
  }
  if (observations.length < MIN_GAS_OBSERVATIONS) {
    throw formError({
      degreeDays: `Give degree days for at least ${MIN_GAS_OBSERVATIONS} months of recorded use between ${historyFrom} and ${historyTo}: ${observations.length} ${observations.length === 1 ? 'month has' : 'months have'} both`,
    });
  }
  const periodMonths = monthsBetween(firstMonth, body.endDate.slice(0, 7));
  const missing = periodMonths.filter((m) => body.degreeDays[m] === undefined);
  if (missing.length > 0) throw formError({ degreeDays: `Give degree days for ${missing.join(', ')}` });

  const model = fitGasModel(observations);
  const months: GasPredictionMonth[] = periodMonths.map((month) => {
    const days = daysInside(month, body.startDate, body.endDate);
    const degreeDays = ((body.degreeDays[month] as number) * days) / daysIn(month);
    const p = predictGas(model, days, degreeDays);
    return {
      month,
      days,
      degreeDays: round(degreeDays, 1),
      baseloadKwh: round(p.baseload, 0),
      heatingKwh: round(p.heating, 0),
      predictedKwh: round(p.total, 0),
    };
  });
  const answer: GasPrediction = {
    accountId: account._id,
    unit: 'kWh',
    period: { startDate: body.startDate, endDate: body.endDate },
    model: {
      method: model.method,
      baseloadKwhPerDay: round(model.baseloadKwhPerDay, 3),
      kwhPerDegreeDay: round(model.kwhPerDegreeDay, 3),
      r2: round(model.r2, 3),
      cvRmse: round(model.cvRmse, 3),
      monthsUsed: model.observations,
      historyFrom,
      historyTo,
    },
    months,
    totalKwh: round(
      months.reduce((s, m) => s + m.predictedKwh, 0),
      0,
    ),
    history: observations.map((o) => ({
      month: o.month,
      kwh: round(o.kwh, 1),
      degreeDays: o.degreeDays,
      fittedKwh: round(predictGas(model, o.days, o.degreeDays).total, 0),
    })),
  };
  return { body: answer };
});

export const GAS_PREDICTION_OPERATIONS: Operations = {
  'gas.prediction': predict,
  'gas.meterChoices': meterChoices,
};
