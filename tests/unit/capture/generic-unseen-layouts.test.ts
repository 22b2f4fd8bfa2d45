import { describe, expect, it } from 'vitest';
import { findDates } from '../../../shared/capture/date-text.ts';
import { extractGeneric } from '../../../shared/capture/generic-extractor.ts';
import { findMpans } from '../../../shared/capture/meter-points.ts';
import { buildPages } from '../../../shared/capture/pages.ts';
import { isValidMpanCore } from '../../../shared/domain/mpan.ts';
import { analysis, at, type Line, mpan, row } from './blocks.ts';

/** Bills laid out as outside suppliers lay them out, read without a template. */

function read(lines: Line[]) {
  const doc = buildPages(analysis([lines]));
  return extractGeneric(doc, [1]).values;
}

describe('the amount due, chosen by what its label means', () => {
  it('is not the sub-total of one service printed above it', () => {
    const values = read([
      ...row(0.1, [0.55, 'Account Number: 110159085']),
      ...row(0.13, [0.55, 'Gas & Water Charges: 132.48']),
      ...row(0.15, [0.55, 'Stormwater Rate Charges: 12.49']),
      ...row(0.17, [0.55, 'Pre-authorized Withdrawal: 144.97']),
      ...row(0.19, [0.55, 'Issue Date: Dec 14 2017']),
      ...row(0.6, [0.1, 'Total Stormwater Rate Charges'], [0.8, '12.49']),
    ]);
    expect(values.grossTotal?.value).toBe(144.97);
    expect(values.invoiceDate?.value).toBe('2017-12-14');
  });

  it('is the total with tax, not the net before it (Total HT / Total TTC)', () => {
    const values = read([
      at(0.1, 0.1, 'Facture n° 2022089083'),
      at(0.1, 0.12, 'Date : 28/11/2022'),
      at(0.6, 0.4, 'Total HT : 46,68 €'),
      at(0.6, 0.42, 'TVA 20% : 9,34 €'),
      at(0.6, 0.44, 'Total TTC : 56,02 €'),
    ]);
    expect(values.grossTotal?.value).toBe(56.02);
    expect(values.netTotal?.value).toBe(46.68);
    expect(values.invoiceNumber?.value).toBe('2022089083');
    expect(values.currency?.value).toBe('EUR');
  });

  it('is the sum to pay of a French bill, with its date after the invoice number', () => {
    const values = read([
      at(0.1, 0.1, 'Free SAS'),
      at(0.1, 0.3, 'Facture n°562044387 du 02 Juillet 2015'),
      ...row(0.4, [0.1, 'Total facture'], [0.6, '24.99'], [0.7, '5.00'], [0.8, '29.99']),
      at(0.1, 0.45, 'Somme à payer 29.99 € TTC'),
    ]);
    expect(values.grossTotal?.value).toBe(29.99);
    expect(values.invoiceDate?.value).toBe('2015-07-02');
    expect(values.invoiceNumber?.value).toBe('562044387');
  });
});

describe('a row of headings over a row of values', () => {
  it('reads each value under its own heading', () => {
    const values = read([
      ...row(0.3, [0.1, 'Bill Date'], [0.37, 'Account Number'], [0.68, 'Enbridge Gas Distribution Inc.']),
      ...row(
        0.315,
        [0.1, 'Jan 27, 2015'],
        [0.37, '91 00 02 20772 4'],
        [0.68, 'EMERGENCY GAS: 1-866-763-5427'],
      ),
      at(0.1, 0.6, 'Amount due now $101.40'),
    ]);
    expect(values.invoiceDate?.value).toBe('2015-01-27');
    // The whole number as printed in groups, not the one group long enough to look like an id.
    expect(values.accountNumber?.value).toBe('910002207724');
    expect(values.grossTotal?.value).toBe(101.4);
    expect(values.supplierName?.value).toBe('Enbridge Gas Distribution Inc.');
  });

  it('reads a billing date and a due date printed side by side under one heading line', () => {
    const values = read([at(0.1, 0.3, 'BILLING DATE DUE DATE'), at(0.1, 0.315, 'SEP 26 2017 OCT 18 2017')]);
    expect(values.invoiceDate?.value).toBe('2017-09-26');
  });
});

describe('identifiers never taken from a phone or fax number', () => {
  it('reads the bill number under its label, not the fax number beside it', () => {
    const values = read([
      ...row(0.2, [0.1, 'Bill Number'], [0.6, 'Fax: 1-888-711-1211']),
      ...row(0.215, [0.1, '685001457490'], [0.6, 'Mail: PO Box 650, Scarborough']),
    ]);
    expect(values.invoiceNumber?.value).toBe('685001457490');
  });

  it('reads no invoice number at all when only a fax number follows the label', () => {
    const values = read([at(0.1, 0.2, 'Invoice number Fax: 1-888-711-1211')]);
    expect(values.invoiceNumber).toBeUndefined();
  });
});

describe('meter point numbers', () => {
  const core = mpan('131234567890');

  it('never makes one of a date joined to a meter reading', () => {
    // 28/12/2020 and the reading 12349 run together as 2812202012349, whose MPAN check digit holds.
    expect(isValidMpanCore('2812202012349')).toBe(true);
    expect(findMpans('28/12/2020 12349')).toEqual([]);
    const values = read([at(0.1, 0.3, 'Meter point 28/12/2020 12349'), at(0.1, 0.5, 'Total due £10.00')]);
    expect(values.meterPointNumber).toBeUndefined();
  });

  it('takes a labelled MPAN, and not unlabelled digits whose check digit falls right', () => {
    expect(read([at(0.1, 0.3, `MPAN ${core}`)]).meterPointNumber?.value).toBe(core);
    expect(read([at(0.1, 0.3, `Reference ${core}`)]).meterPointNumber).toBeUndefined();
  });

  it('takes the core of an S-box printed under its top line', () => {
    const values = read([at(0.1, 0.3, 'S 03 801 100'), at(0.1, 0.315, core)]);
    expect(values.meterPointNumber?.value).toBe(core);
  });
});

describe('supplier and currency', () => {
  it('names a labelled supplier and keeps US dollars as dollars', () => {
    const values = read([
      at(0.1, 0.1, 'Sammy Maystone'),
      at(0.1, 0.2, 'Bill To: Taylor Riddel'),
      at(0.6, 0.3, 'Balance Due: $127.50'),
      at(0.6, 0.8, 'Service Provider:'),
      at(0.6, 0.815, 'Amazon Web Services, Inc.'),
    ]);
    expect(values.supplierName?.value).toBe('Amazon Web Services Inc.');
    expect(values.currency?.value).toBe('USD');
    expect(values.grossTotal?.value).toBe(127.5);
  });

  it('takes a dollar on a Canadian bill for Canadian dollars and pounds for pounds', () => {
    expect(
      read([at(0.1, 0.1, 'TORONTO ON M4J 3G3'), at(0.1, 0.3, 'Amount due now $101.40')]).currency?.value,
    ).toBe('CAD');
    expect(read([at(0.1, 0.3, 'Total amount due £422.17')]).currency?.value).toBe('GBP');
  });

  it('assumes no currency when no amount is marked and nothing says where the bill is from', () => {
    expect(read([at(0.1, 0.3, 'Total due 94.29')]).currency).toBeUndefined();
  });

  it('finds the supplier from its web address when no company name is printed', () => {
    expect(
      read([at(0.1, 0.05, 'www.azure-interior.com'), at(0.1, 0.3, 'Total $ 279.84')]).supplierName?.value,
    ).toBe('Azure Interior');
  });
});

describe('dates in English and French forms', () => {
  it.each([
    ['02 Juillet 2015', '2015-07-02'],
    ['1er août 2024', '2024-08-01'],
    ['12 déc. 2023', '2023-12-12'],
    ['15 février 2022', '2022-02-15'],
    ['August 3 , 2014', '2014-08-03'],
    ['Sep 18 2017', '2017-09-18'],
    ['28/11/2022', '2022-11-28'],
  ])('reads %s', (text, iso) => {
    expect(findDates(text)[0]?.iso).toBe(iso);
  });
});

describe('German and Dutch invoices', () => {
  it('reads a German invoice by its labels, the amount as printed with a decimal comma', () => {
    const values = read([
      at(0.55, 0.25, 'Rechnungsdatum: 31.01.2014'),
      at(0.55, 0.27, 'Kundennummer: K0100077603'),
      at(0.12, 0.33, 'Rechnungsnummer: R0005532486'),
      ...row(0.59, [0.63, 'Summe netto'], [0.82, '1.420,00']),
      ...row(0.61, [0.63, 'Umsatzsteuer 19%'], [0.83, '269,80']),
      ...row(0.62, [0.63, 'Rechnungsbetrag'], [0.82, '1.589,80']),
    ]);
    expect(values.invoiceDate?.value).toBe('2014-01-31');
    expect(values.invoiceNumber?.value).toBe('R0005532486');
    expect(values.accountNumber?.value).toBe('K0100077603');
    expect(values.netTotal?.value).toBe(1420);
    expect(values.vatTotal?.value).toBe(269.8);
    expect(values.grossTotal?.value).toBe(1589.8);
  });

  it('takes the date after the invoice number (vom), and not the total of one part for the amount', () => {
    const values = read([
      at(0.1, 0.06, 'Handelsrechnung (380) Nr. 471102 vom 05.03.2018'),
      ...row(0.59, [0.36, 'Gesamtbetrag der Zuschläge'], [0.87, '12,00']),
      ...row(0.66, [0.36, 'Rechnungssumme ohne USt.'], [0.86, '473,00']),
      ...row(0.7, [0.36, 'Steuerbetrag'], [0.87, '56,87']),
      ...row(0.74, [0.36, 'Bruttosumme'], [0.86, '529,87']),
    ]);
    expect(values.invoiceNumber?.value).toBe('471102');
    expect(values.invoiceDate?.value).toBe('2018-03-05');
    expect(values.grossTotal?.value).toBe(529.87);
  });

  it('reads a Dutch invoice, and takes the total with VAT over a nil balance left to pay', () => {
    const values = read([
      at(0.05, 0.29, 'Datum: 29 oktober 2015'),
      at(0.05, 0.31, 'Vervaldatum: 12 november 2015'),
      at(0.05, 0.33, 'Factuurnummer: 8587333880016'),
      ...row(0.47, [0.45, 'Totaal exclusief BTW'], [0.71, '€ 156,20']),
      ...row(0.49, [0.45, 'BTW'], [0.72, '€ 32,80']),
      ...row(0.5, [0.45, 'Bedrag inclusief BTW'], [0.71, '€ 189,00']),
      ...row(0.54, [0.45, 'Te betalen'], [0.73, '€ 0,00']),
    ]);
    expect(values.invoiceDate?.value).toBe('2015-10-29');
    expect(values.dueDate?.value).toBe('2015-11-12');
    expect(values.invoiceNumber?.value).toBe('8587333880016');
    // Net + VAT adds up to 189,00: the balance after an online payment is not the bill's total.
    expect(values.grossTotal?.value).toBe(189);
  });

  it('reads German and Dutch month names', () => {
    expect(findDates('4. Juni 2014')[0]?.iso).toBe('2014-06-04');
    expect(findDates('12. März 2019')[0]?.iso).toBe('2019-03-12');
    expect(findDates('3 Dezember 2020')[0]?.iso).toBe('2020-12-03');
    expect(findDates('1 mei 2021')[0]?.iso).toBe('2021-05-01');
    expect(findDates('20 maart 2022')[0]?.iso).toBe('2022-03-20');
    expect(findDates('7 okt 2018')[0]?.iso).toBe('2018-10-07');
  });
});

describe('totals checked against each other', () => {
  const readAll = (lines: Line[]) => extractGeneric(buildPages(analysis([lines])), [1]);

  it('takes the net that makes the total with the tax, and not the tax base for the tax', () => {
    const { values, totalsCheck } = readAll([
      at(0.1, 0.1, 'Invoice Number: INV-2023-0008'),
      at(0.1, 0.12, 'Invoice Date: 20/03/2023'),
      ...row(0.48, [0.81, 'Subtotal $ 112.00']),
      ...row(0.6, [0.81, 'Subtotal $ 150.90']),
      ...row(0.64, [0.52, 'Subtotal'], [0.88, '$ 262.90']),
      ...row(0.67, [0.52, 'Tax 15% on $ 112.90'], [0.89, '$ 16.94']),
      ...row(0.69, [0.52, 'Total'], [0.88, '$ 279.84']),
    ]);
    expect(values.vatTotal?.value).toBe(16.94);
    expect(values.netTotal?.value).toBe(262.9);
    expect(values.grossTotal?.value).toBe(279.84);
    expect(totalsCheck).toEqual({ taxAdds: true, problems: [] });
  });

  it('flags a total that net and tax do not make, and reads it with less confidence', () => {
    const { values, totalsCheck } = readAll([
      at(0.55, 0.25, 'Rechnungsdatum: 31.01.2014'),
      at(0.12, 0.33, 'Rechnungsnummer: 4242'),
      ...row(0.59, [0.63, 'Summe netto'], [0.82, '1.420,00'], [0.9, ' ']),
      ...row(0.61, [0.63, 'Umsatzsteuer 19%'], [0.83, '269,80']),
      ...row(0.62, [0.63, 'Rechnungsbetrag'], [0.82, '1.589,80']),
    ]);
    expect(values.grossTotal?.value).toBe(1589.8);
    expect(totalsCheck?.taxAdds).toBe(false);
    expect(totalsCheck?.problems).toEqual(['Net 1420.00 + tax 269.80 is 1689.80, not the total 1589.80']);
    expect(values.grossTotal?.confidence).toBeLessThan(70);
  });

  it('chooses the total the charges add up to over one they do not', () => {
    const { values, totalsCheck } = readAll([
      at(0.1, 0.1, 'Invoice Number: 778812'),
      at(0.1, 0.12, 'Invoice Date: 02/05/2024'),
      ...row(0.3, [0.1, 'Standing charge 31 days'], [0.8, '£12.40']),
      ...row(0.32, [0.1, 'Energy charge 1,000 kWh at 25.000p'], [0.8, '£250.00']),
      ...row(0.5, [0.1, 'Total'], [0.8, '£262.40']),
      at(0.1, 0.52, 'Total: £26.24'),
    ]);
    expect(values.grossTotal?.value).toBe(262.4);
    expect(totalsCheck?.chargesAdd).toBe(true);
  });
});

describe('the supplier is not the buyer', () => {
  it('takes no company printed under the buyer heading for the supplier', () => {
    const values = read([
      at(0.09, 0.09, 'Rechnung 4. Juni 2014'),
      at(0.17, 0.24, 'Bestellt von'),
      at(0.17, 0.25, 'iViveLabs Limited'),
      at(0.17, 0.26, '93B Sai Yu Chung'),
      at(0.37, 0.6, 'Amazon EU S.a.r.L, 5 Rue Plaetis, L-2338, Luxembourg'),
    ]);
    expect(values.supplierName?.value).not.toMatch(/ViveLabs/);
  });
});

describe('German bills read by their titles and legal forms', () => {
  it('reads "Rechnung Nr. 42", its date, the total with tax and a GmbH for the supplier', () => {
    const values = read([
      at(0.12, 0.15, 'Acme GmbH | Europa-Allee 1980 | 60486 Frankfurt,'),
      at(0.12, 0.19, 'Karl E. Coyote'),
      at(0.55, 0.25, 'Rechnungsdatum: 31.01.2014'),
      at(0.12, 0.33, 'Rechnung Nr. 42'),
      ...row(0.59, [0.63, 'Summe netto'], [0.82, '1.300,00']),
      ...row(0.61, [0.63, 'Umsatzsteuer 19%'], [0.82, '247,00']),
      ...row(0.63, [0.63, 'Summe inkl. USt'], [0.82, '1.547,00']),
    ]);
    expect(values.invoiceNumber?.value).toBe('42');
    expect(values.invoiceDate?.value).toBe('2014-01-31');
    expect(values.grossTotal?.value).toBe(1547);
    expect(values.supplierName?.value).toBe('Acme GmbH');
  });

  it('takes the date beside a bill title, and its number, but not an order number named in it', () => {
    const values = read([
      at(0.12, 0.09, 'MVM Musterhafter'),
      at(0.12, 0.1, 'Versicherungsverein Musterstadt a.G.'),
      at(0.12, 0.14, 'Max Mustermann'),
      ...row(
        0.35,
        [0.12, 'Beitragsrechnung zur Kraftfahrtversicherung Nr. 00.123.456.7'],
        [0.71, '11. März 2014'],
      ),
      at(0.12, 0.4, 'Rechnung gemäß Bestellung Nr. 2013-471331'),
      ...row(0.59, [0.12, 'Rechnungsbeitrag'], [0.8, '59,50 €']),
    ]);
    expect(values.invoiceNumber?.value).toBe('00.123.456.7');
    expect(values.invoiceDate?.value).toBe('2014-03-11');
    expect(values.grossTotal?.value).toBe(59.5);
    expect(values.supplierName?.value).toBe('MVM Musterhafter Versicherungsverein Musterstadt a.G.');
  });
});

describe('dates of a bill that writes the month first', () => {
  it('reads an ambiguous date month first when another date on the bill can only be month first', () => {
    const values = read([
      at(0.1, 0.1, 'Au bon moulin SARL - 1242 chemin de l’olive - 84340 Malaucène'),
      ...row(0.3, [0.1, 'Invoice Date'], [0.3, '11/03/2017']),
      ...row(0.5, [0.1, 'SEPA Wire transfer'], [0.3, '11/17/2017'], [0.5, '623.00 €']),
    ]);
    expect(values.invoiceDate?.value).toBe('2017-11-03');
    expect(values.supplierName?.value).toBe('Au bon moulin SARL');
  });

  it('keeps the day first when nothing on the bill says otherwise', () => {
    const values = read([...row(0.3, [0.1, 'Invoice Date'], [0.3, '11/03/2017'])]);
    expect(values.invoiceDate?.value).toBe('2017-03-11');
  });
});

describe('no meter point made up', () => {
  it('does not take a water meter for the meter point when the bill lists two meters', () => {
    const values = read([
      at(0.1, 0.1, 'Kitchener Utilities'),
      at(0.1, 0.2, 'Water and wastewater charges'),
      at(0.04, 0.4, 'Meter # 20043032'),
      at(0.04, 0.6, 'Meter # 46112'),
      at(0.1, 0.7, 'Water consumption 14 m3'),
    ]);
    expect(values.meterPointNumber).toBeUndefined();
  });
});

describe('the amount a statement asks for', () => {
  it('is its new balance, arrears included, over the charges of the period', () => {
    const values = read([
      at(0.1, 0.1, 'Account Number: 7012 3344'),
      ...row(0.3, [0.1, 'Previous Balance'], [0.8, '$10.00']),
      ...row(0.32, [0.1, 'Total Current Charges'], [0.8, '$91.74']),
      ...row(0.34, [0.1, 'New Balance'], [0.8, '$101.74']),
    ]);
    expect(values.grossTotal?.value).toBe(101.74);
  });

  it('is the charges of the period when the statement prints no balance', () => {
    const values = read([
      at(0.1, 0.1, 'Account Number: 7012 3344'),
      ...row(0.32, [0.1, 'Total Current Charges'], [0.8, '$91.74']),
    ]);
    expect(values.grossTotal?.value).toBe(91.74);
  });
});
