import { describe, expect, it } from 'vitest';
import { extractInvoices } from '../../../shared/capture/extract.ts';
import type { CaptureResults } from '../../../shared/capture/model.ts';
import { type ListedSupplier, matchInvoiceSuppliers } from '../../../shared/capture/supplier-match.ts';
import { supplierSchema } from '../../../shared/schemas/supplier.ts';
import { at, expense, type Line, output, summaryField } from './blocks.ts';

/**
 * A bill read without a template is matched to the suppliers list by the strongest thing it prints:
 * the supplier's VAT number, then its web address, then its e-mail domain, then its name. The review
 * page says which matched; with no match, creating the supplier starts from what the bill printed.
 */

const LIST: ListedSupplier[] = [
  { _id: 'nw', name: 'Northwind Power Ltd', vatNumber: '123456789' },
  { _id: 'bg', name: 'British Gas' },
  { _id: 'oe', name: 'Octopus Energy', portal: 'https://my.octopus.energy/account' },
  { _id: 'edf', name: 'EDF', website: 'www.edf.fr' },
  { _id: 'bs', name: 'Bei Spiel GmbH', vatNumber: 'DE 136 695 976' },
];

/** A bill's page: a letterhead of the given lines, an invoice number, a date and a total. */
function bill(letterhead: string[], extra: Line[] = []): Line[] {
  return [
    ...letterhead.map((text, i) => at(0.08, 0.05 + i * 0.02, text)),
    at(0.55, 0.05, 'Invoice number: INV-20417'),
    at(0.55, 0.07, 'Invoice date: 03/02/2024'),
    at(0.08, 0.4, 'Electricity supply January'),
    at(0.55, 0.7, 'Total amount due: £252.00'),
    ...extra,
  ];
}

function matched(
  lines: Line[],
  list = LIST,
  fields = expense([]),
): CaptureResults['multiInvoice']['invoices'][0] {
  const results = extractInvoices(output([lines], { expense: fields }), []);
  matchInvoiceSuppliers(results, list);
  const invoice = results.multiInvoice.invoices[0];
  if (!invoice) throw new Error('no invoice read');
  return invoice;
}

describe('matching a bill to the suppliers list by what it prints', () => {
  it('matches by the VAT number, printed with spaces and no GB prefix, though the bill prints a trading name', () => {
    const invoice = matched(bill(['NWP Energy', '12 Mill Lane, Leeds LS2 7EW', 'VAT Reg No: 123 4567 89']));
    expect(invoice.supplierId).toBe('nw');
    expect(invoice.supplierMatch).toMatchObject({
      how: 'vatNumber',
      evidence: 'GB123456789',
      name: 'Northwind Power Ltd',
    });
  });

  it('takes the VAT number over a name that is another supplier’s', () => {
    // A reseller printing the big supplier's name in its strap line: its VAT number says who it is.
    const invoice = matched(bill(['British Gas', 'VAT No: GB 123 4567 89']));
    expect(invoice.supplierMatch).toMatchObject({ how: 'vatNumber', supplierId: 'nw' });
  });

  it('matches a German VAT number given by AnalyzeExpense as the vendor’s', () => {
    const invoice = matched(
      bill(['Theodor Est', 'Bahnstr. 42']),
      LIST,
      expense([summaryField('VENDOR_VAT_NUMBER', 'DE136695976')]),
    );
    expect(invoice.supplierMatch).toMatchObject({
      how: 'vatNumber',
      evidence: 'DE136695976',
      supplierId: 'bs',
    });
  });

  it('matches by the web address, on the domain of the supplier’s customer portal', () => {
    const invoice = matched(bill(['Your energy bill', 'www.octopus.energy/help']));
    expect(invoice.supplierMatch).toMatchObject({
      how: 'website',
      evidence: 'octopus.energy',
      supplierId: 'oe',
    });
  });

  it('matches by the e-mail domain, a sub-domain of the supplier’s website', () => {
    const invoice = matched(bill(['Facture', 'Contact: service-client@clients.edf.fr']));
    expect(invoice.supplierMatch).toMatchObject({ how: 'email', evidence: 'edf.fr', supplierId: 'edf' });
  });

  it('does not take the customer’s VAT number, a bank account or a webmail address for the supplier’s', () => {
    const invoice = matched(
      bill(
        ['Acme Heating Ltd'],
        [
          at(0.08, 0.2, 'Your VAT number: GB 123 4567 89'),
          at(0.08, 0.8, 'IBAN: DE89 3704 0044 0532 0130 00'),
          at(0.08, 0.82, 'Queries: acmeheating@gmail.com'),
        ],
      ),
    );
    expect(invoice.supplierClues).toEqual({ vatNumbers: [], webDomains: [], mailDomains: [] });
    expect(invoice.supplierMatch).toEqual({ read: 'Acme Heating Ltd', how: 'none' });
  });

  it('offers to create the supplier with the name, VAT number and web address the bill printed', () => {
    const invoice = matched(
      bill(['Greenbrook Water Ltd', 'VAT No: GB 987 6543 21', 'www.greenbrook-water.co.uk']),
    );
    expect(invoice.supplierId).toBeUndefined();
    expect(invoice.supplierMatch).toEqual({
      read: 'Greenbrook Water Ltd',
      how: 'none',
      vatNumber: 'GB987654321',
      website: 'greenbrook-water.co.uk',
    });
  });
});

describe('a supplier’s VAT number and website on the suppliers list', () => {
  it('accepts UK and EU VAT numbers as printed, and refuses what is none, saying why', () => {
    for (const vatNumber of ['GB 123 4567 89', '123456789', 'NL810433941B01', 'FR60421938861', 'ATU62353134'])
      expect(supplierSchema.safeParse({ name: 'S', vatNumber }).success, vatNumber).toBe(true);
    const bad = supplierSchema.safeParse({ name: 'S', vatNumber: 'GB12345', website: 'not a site' });
    expect(bad.success).toBe(false);
    const messages = bad.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(messages).toEqual([
      'vatNumber: Enter a VAT number such as GB123456789 or DE136695976',
      'website: Enter a web address such as www.example.co.uk',
    ]);
  });
});
