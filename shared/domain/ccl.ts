/**
 * Climate Change Levy main rates, £ per kWh, and the climate change agreement discounts, as data by the
 * date they apply from (each levy year starts on 1 April). Domestic supply is not charged.
 */
export type CclUtility = 'electricity' | 'gas';

export interface CclRate {
  utility: CclUtility;
  /** YYYY-MM-DD, inclusive */
  from: string;
  ratePerKwh: number;
  source: string;
}

const HMRC =
  'HM Revenue & Customs, Climate Change Levy rates (gov.uk/government/publications/rates-and-allowances-climate-change-levy)';

export const CCL_RATES: readonly CclRate[] = [
  { utility: 'electricity', from: '2022-04-01', ratePerKwh: 0.00775, source: HMRC },
  { utility: 'electricity', from: '2026-04-01', ratePerKwh: 0.00801, source: HMRC },
  { utility: 'gas', from: '2022-04-01', ratePerKwh: 0.00568, source: HMRC },
  { utility: 'gas', from: '2023-04-01', ratePerKwh: 0.00672, source: HMRC },
  { utility: 'gas', from: '2024-04-01', ratePerKwh: 0.00775, source: HMRC },
  { utility: 'gas', from: '2026-04-01', ratePerKwh: 0.00801, source: HMRC },
];

export interface CcaDiscount {
  utility: CclUtility;
  /** YYYY-MM-DD, inclusive */
  from: string;
  /** Share of the main rate that climate change agreement holders are relieved of, 0 to 1 */
  discount: number;
  source: string;
}

/** The "percentage discount for holders of a climate change agreement" table of the same gov.uk page. */
export const CCA_DISCOUNTS: readonly CcaDiscount[] = [
  { utility: 'electricity', from: '2022-04-01', discount: 0.92, source: HMRC },
  { utility: 'gas', from: '2022-04-01', discount: 0.86, source: HMRC },
  { utility: 'gas', from: '2023-04-01', discount: 0.88, source: HMRC },
  { utility: 'gas', from: '2024-04-01', discount: 0.89, source: HMRC },
];

/** The climate change agreement discount in force on a date (YYYY-MM-DD), or undefined before the table. */
export function ccaDiscount(
  utility: CclUtility,
  date: string,
  table: readonly CcaDiscount[] = CCA_DISCOUNTS,
): number | undefined {
  return table
    .filter((d) => d.utility === utility && d.from <= date)
    .sort((a, b) => (a.from < b.from ? 1 : -1))[0]?.discount;
}

export interface CclOptions {
  /** The consumer holds a climate change agreement. */
  cca?: boolean;
  /** Domestic supply: no levy. */
  domestic?: boolean;
  table?: readonly CclRate[];
}

/** The rate in force on a date (YYYY-MM-DD), or undefined before the first rate the table knows. */
export function cclRate(utility: CclUtility, date: string, opts: CclOptions = {}): number | undefined {
  const rates = (opts.table ?? CCL_RATES)
    .filter((r) => r.utility === utility && r.from <= date)
    .sort((a, b) => (a.from < b.from ? 1 : -1));
  const main = rates[0]?.ratePerKwh;
  if (main === undefined) return undefined;
  if (opts.domestic) return 0;
  if (!opts.cca) return main;
  const discount = ccaDiscount(utility, date);
  return discount === undefined ? undefined : main * (1 - discount);
}

/** The levy on a quantity of kWh, in pounds rounded to the penny. */
export function cclCharge(
  utility: CclUtility,
  kwh: number,
  date: string,
  opts: CclOptions = {},
): number | undefined {
  const rate = cclRate(utility, date, opts);
  return rate === undefined ? undefined : Math.round(kwh * rate * 100) / 100;
}
