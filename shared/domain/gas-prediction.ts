/**
 * Gas use predicted from heating degree days. A building burns gas for two reasons: a baseload that
 * follows the calendar (hot water, catering, process) and space heating that follows how cold it was,
 * which heating degree days (HDD) measure. So each month of history is read as
 *
 *     kWh = baseload × days + heating × HDD
 *
 * and the two coefficients are fitted by ordinary least squares over the months that have both a
 * recorded consumption and degree days (no intercept: a month of no days uses nothing). A prediction
 * applies the fitted coefficients to the days and degree days of the months asked for. The degree days
 * must all be of one base temperature and one weather station, whichever the caller chose.
 *
 * When the data shows no heating signal (the fitted heating coefficient is negative, or the degree days
 * do not vary apart from the days), the model falls back to the average use per day; when the baseload
 * comes out negative, it is fitted through degree days alone. `method` says which fit was used.
 */

export interface GasObservation {
  /** YYYY-MM */
  month: string;
  days: number;
  kwh: number;
  degreeDays: number;
}

export type GasModelMethod = 'baseload-and-heating' | 'heating-only' | 'baseload-only';

export interface GasModel {
  method: GasModelMethod;
  /** kWh a day whatever the weather. */
  baseloadKwhPerDay: number;
  /** kWh per heating degree day. */
  kwhPerDegreeDay: number;
  /** Share of the month-to-month variation the model explains (1 is a perfect fit). */
  r2: number;
  /** Root mean square error over the mean month, as a share (CV(RMSE)): lower is a closer fit. */
  cvRmse: number;
  observations: number;
}

export const MIN_GAS_OBSERVATIONS = 6;

const sum = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0);

export function predictGas(
  model: Pick<GasModel, 'baseloadKwhPerDay' | 'kwhPerDegreeDay'>,
  days: number,
  hdd: number,
) {
  const baseload = model.baseloadKwhPerDay * days;
  const heating = model.kwhPerDegreeDay * hdd;
  return { baseload, heating, total: baseload + heating };
}

function coefficients(
  obs: readonly GasObservation[],
): Pick<GasModel, 'method' | 'baseloadKwhPerDay' | 'kwhPerDegreeDay'> {
  const sdd = sum(obs.map((o) => o.days * o.days));
  const shh = sum(obs.map((o) => o.degreeDays * o.degreeDays));
  const sdh = sum(obs.map((o) => o.days * o.degreeDays));
  const sdy = sum(obs.map((o) => o.days * o.kwh));
  const shy = sum(obs.map((o) => o.degreeDays * o.kwh));
  const perDay = {
    method: 'baseload-only' as const,
    baseloadKwhPerDay: sum(obs.map((o) => o.kwh)) / sum(obs.map((o) => o.days)),
    kwhPerDegreeDay: 0,
  };
  const det = sdd * shh - sdh * sdh;
  // Degree days that only ever scale with the days cannot be told apart from a baseload.
  if (shh === 0 || Math.abs(det) <= 1e-9 * sdd * shh) return perDay;
  const a = (sdy * shh - shy * sdh) / det;
  const b = (shy * sdd - sdy * sdh) / det;
  if (b <= 0) return perDay;
  if (a < 0) return { method: 'heating-only', baseloadKwhPerDay: 0, kwhPerDegreeDay: shy / shh };
  return { method: 'baseload-and-heating', baseloadKwhPerDay: a, kwhPerDegreeDay: b };
}

/** Fits the model to history; needs at least MIN_GAS_OBSERVATIONS months. */
export function fitGasModel(obs: readonly GasObservation[]): GasModel {
  if (obs.length < MIN_GAS_OBSERVATIONS)
    throw new Error(`At least ${MIN_GAS_OBSERVATIONS} months are needed, not ${obs.length}`);
  const c = coefficients(obs);
  const fitted = obs.map((o) => predictGas(c, o.days, o.degreeDays).total);
  const mean = sum(obs.map((o) => o.kwh)) / obs.length;
  const ssRes = sum(obs.map((o, i) => (o.kwh - (fitted[i] as number)) ** 2));
  const ssTot = sum(obs.map((o) => (o.kwh - mean) ** 2));
  return {
    ...c,
    r2: ssTot === 0 ? 1 : 1 - ssRes / ssTot,
    cvRmse: mean === 0 ? 0 : Math.sqrt(ssRes / obs.length) / mean,
    observations: obs.length,
  };
}
