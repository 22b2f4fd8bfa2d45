const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');

/** 'Jan 2025' for a YYYY-MM month, the year itself for a YYYY year. */
export function periodLabel(period: string): string {
  const [year, month] = period.split('-');
  if (!month) return period;
  return `${MONTHS[Number(month) - 1] ?? month} ${year}`;
}

/** The default window (02 §9): from the start of the month a year ago to the end of last month. */
export function defaultConsumptionWindow(today: Date): { startDate: string; endDate: string } {
  const y = today.getFullYear();
  const m = today.getMonth();
  const lastDay = new Date(y, m, 0);
  return {
    startDate: `${y - 1}-${pad(m + 1)}-01`,
    endDate: `${lastDay.getFullYear()}-${pad(lastDay.getMonth() + 1)}-${pad(lastDay.getDate())}`,
  };
}
