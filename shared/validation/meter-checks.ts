import { isValidMpanCore, mpanCheckDigit } from '../domain/mpan.ts';
import { isValidMprn } from '../domain/mprn.ts';
import { type Check, flagged, passed, skipped } from './check-kit.ts';
import { quantity } from './figures.ts';

export const estimatedReads: Check = ({ bill }) => {
  const f = bill.facts;
  if (f.isCreditNote) return skipped('Reads are not checked on a credit note.');
  const estimated = f.readings.filter((r) => r.readType === 'estimated');
  if (f.isEstimate === true || estimated.length > 0) {
    const which = estimated
      .map((r) => {
        const read = r.closingRead ?? r.openingRead;
        const parts = [
          r.register ? `register ${r.register}` : undefined,
          r.meterSerialNumber ? `meter ${r.meterSerialNumber}` : undefined,
          read !== undefined ? `read ${quantity(read)}` : undefined,
        ].filter(Boolean);
        return parts.join(', ');
      })
      .filter((s) => s !== '');
    return flagged(
      `The bill is based on estimated reads${which.length > 0 ? ` (${which.join('; ')})` : ''}: submit an actual read and ask the supplier to re-bill on it.`,
    );
  }
  if (f.isEstimate === false || f.readings.length > 0) return passed('The bill is based on actual reads.');
  return skipped('The bill does not say whether its reads are actual or estimated.');
};

const digitsOf = (s: string) => s.replace(/^\s*S\s*/i, '').replace(/\D/g, '');

/** The 13-digit core of an MPAN written as a core or as a full 21-digit MPAN. */
function mpanCore(s: string): string | undefined {
  const d = digitsOf(s);
  if (d.length === 13) return d;
  if (d.length === 21) return d.slice(8);
  return undefined;
}

function meterSerials(a?: string, b?: string): { bill: string; account: string } | undefined {
  if (!a || !b) return undefined;
  return { bill: a.replace(/\s+/g, '').toUpperCase(), account: b.replace(/\s+/g, '').toUpperCase() };
}

export const meterNumber: Check = ({ bill }) => {
  const f = bill.facts;
  const account = bill.context.account;
  const onBill = f.meterPointNumber?.trim();
  if (!onBill) {
    const serials = meterSerials(f.meterSerialNumber, account?.meterSerialNumber);
    if (!serials) return skipped('No meter point number on the bill.');
    if (serials.bill !== serials.account) {
      return flagged(
        `The bill is for meter ${f.meterSerialNumber} but the account's meter is ${account?.meterSerialNumber}: the bill may belong to another supply, or the meter was exchanged.`,
        { expected: serials.account, actual: serials.bill },
      );
    }
    return passed(
      `The meter serial number ${f.meterSerialNumber} is the account's (the bill shows no meter point number).`,
    );
  }
  const onAccount = account?.meterPointNumber?.trim();

  if (bill.utility === 'electricity') {
    const core = mpanCore(onBill);
    if (!core) {
      return flagged(
        `The MPAN ${onBill} on the bill is not a 13-digit core or a 21-digit full MPAN: check how it was read.`,
        {
          actual: onBill,
        },
      );
    }
    if (!isValidMpanCore(core)) {
      return flagged(
        `The MPAN ${core} on the bill fails its check digit (the last digit should be ${mpanCheckDigit(core.slice(0, 12))}): it was probably misread.`,
        { actual: core },
      );
    }
    const accountCore = onAccount ? mpanCore(onAccount) : undefined;
    if (!onAccount)
      return passed(`The MPAN ${core} is valid; the account has no MPAN to compare it with.`, {
        actual: core,
      });
    if (accountCore !== core) {
      return flagged(
        `The bill is for MPAN ${core} but the account's MPAN is ${accountCore ?? onAccount}: the bill may belong to another supply.`,
        { expected: accountCore ?? onAccount, actual: core },
      );
    }
    return passed(`The MPAN ${core} is the account's.`, { expected: accountCore, actual: core });
  }

  if (bill.utility === 'gas') {
    const mprn = digitsOf(onBill);
    if (!isValidMprn(mprn)) {
      return flagged(`The MPRN ${onBill} on the bill is not 6 to 11 digits: check how it was read.`, {
        actual: onBill,
      });
    }
    if (!onAccount)
      return passed(`The MPRN ${mprn} is valid; the account has no MPRN to compare it with.`, {
        actual: mprn,
      });
    // Some systems drop an MPRN's leading zeros.
    const accountMprn = digitsOf(onAccount);
    if (accountMprn.replace(/^0+/, '') !== mprn.replace(/^0+/, '')) {
      return flagged(
        `The bill is for MPRN ${mprn} but the account's MPRN is ${accountMprn}: the bill may belong to another supply.`,
        { expected: accountMprn, actual: mprn },
      );
    }
    return passed(`The MPRN ${mprn} is the account's.`, { expected: accountMprn, actual: mprn });
  }

  if (!onAccount) return skipped('The account has no meter point number to compare with.');
  const a = onAccount.replace(/\s+/g, '').toUpperCase();
  const b = onBill.replace(/\s+/g, '').toUpperCase();
  if (a !== b) {
    return flagged(
      `The bill is for meter point ${onBill} but the account's is ${onAccount}: the bill may belong to another supply.`,
      { expected: onAccount, actual: onBill },
    );
  }
  return passed(`The meter point ${onBill} is the account's.`, { expected: onAccount, actual: onBill });
};
