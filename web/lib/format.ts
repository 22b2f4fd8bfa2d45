import { IMPERIAL_AREA_FACTOR } from '../../shared/constants.ts';

/** Formatting rules of the specification (01 §1): DD/MM/YYYY dates and en-GB numbers everywhere. */

type DateInput = string | number | Date | null | undefined;

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const pad = (n: number) => String(n).padStart(2, '0');

function toDate(value: DateInput): Date | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** DD/MM/YYYY. A bare calendar day (YYYY-MM-DD) is shown as written, whatever the browser's time zone. */
export function formatDate(value: DateInput): string {
  if (typeof value === 'string') {
    const day = ISO_DAY.exec(value);
    if (day) return `${day[3]}/${day[2]}/${day[1]}`;
  }
  const date = toDate(value);
  if (!date) return '';
  return `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${date.getFullYear()}`;
}

/** DD/MM/YYYY HH:mm in the browser's time zone. */
export function formatDateTime(value: DateInput): string {
  const date = toDate(value);
  if (!date) return '';
  return `${formatDate(date)} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

const numberFormats = new Map<string, Intl.NumberFormat>();

function numberFormat(options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = JSON.stringify(options);
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat('en-GB', options);
    numberFormats.set(key, format);
  }
  return format;
}

/** en-GB grouping and decimal point; at most `maximumFractionDigits` decimals (2 unless told). */
export function formatNumber(
  value: number | null | undefined,
  options: { maximumFractionDigits?: number; minimumFractionDigits?: number } = {},
): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '';
  const maximumFractionDigits = options.maximumFractionDigits ?? 2;
  const minimumFractionDigits = Math.min(options.minimumFractionDigits ?? 0, maximumFractionDigits);
  return numberFormat({ maximumFractionDigits, minimumFractionDigits }).format(value);
}

/** A whole count, e.g. 12,345. */
export function formatCount(value: number | null | undefined): string {
  return formatNumber(value, { maximumFractionDigits: 0 });
}

export type AreaUnitSystem = 'metric' | 'imperial';

/** Floor area held in m², shown in m² or, for imperial companies, in ft² (1 ft² = 0.092903 m²). */
export function formatArea(
  squareMetres: number | null | undefined,
  system: AreaUnitSystem = 'metric',
): string {
  if (squareMetres === null || squareMetres === undefined || !Number.isFinite(squareMetres)) return '';
  if (system === 'imperial') return `${formatCount(squareMetres / IMPERIAL_AREA_FACTOR)} ft²`;
  return `${formatCount(squareMetres)} m²`;
}
