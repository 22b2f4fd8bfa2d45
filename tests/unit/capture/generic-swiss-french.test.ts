import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { extractGeneric } from '../../../shared/capture/generic-extractor.ts';
import { findNumbers } from '../../../shared/capture/number-text.ts';
import { buildPages } from '../../../shared/capture/pages.ts';
import { analyseBytes } from '../../bench/capture-accuracy-lib.ts';
import { analysis, at, type PageSpec, row } from './blocks.ts';

/**
 * Bills laid out as Swiss and French utilities print them, read without a template: the amount taken
 * from the customer's account, thousands set apart by an apostrophe, the invoice's date printed after
 * its number, the account beside a customer number, amounts in Swiss francs, the sender among a
 * postage imprint and a stylesheet's copyright, and a metering point only where it is labelled.
 */

const read = (spec: PageSpec) => extractGeneric(buildPages(analysis([spec])), [1]);

/** The first page of a Geneva utility bill, as its layout sets the values beside their labels. */
const swissBill = (total: string): PageSpec => ({
  lines: [
    at(0.2, 0.047, 'Service Clients SIG'),
    at(0.2, 0.058, 'Services Industriels de Genève'),
    at(0.2, 0.11, 'CHE-108.955.185 TVA'),
    at(0.547, 0.1, 'P.P. 1211 Genève 2'),
    at(0.87, 0.102, 'Poste CH SA'),
    at(0.071, 0.173, 'www.sig-ge.ch'),
    ...row(0.25, [0.547, 'N° client'], [0.657, '150091']),
    ...row(0.27, [0.547, 'N° du compte'], [0.657, '200323069 (pour toute communication)']),
    ...row(0.281, [0.547, 'N° facture'], [0.657, '83419233 du 01.09.2016']),
    at(0.848, 0.368, 'Date'),
    at(0.829, 0.378, 'échéance'),
    at(0.823, 0.39, '03.10.2016'),
    ...row(0.421, [0.547, 'Total Electricité'], [0.848, '102.48']),
    ...row(0.549, [0.53, 'Montant prélevé de votre compte'], [0.848, total]),
    at(0.586, 0.566, 'Total en CHF, inclus TVA'),
  ],
});

describe('an amount with its thousands set apart by an apostrophe', () => {
  it("reads as one amount ('1'068.45'), not as the digits after the apostrophe", () => {
    expect(findNumbers("Total 1'068.45").map((t) => t.value)).toEqual([1068.45]);
    expect(findNumbers('1’234’567.80').map((t) => t.value)).toEqual([1234567.8]);
  });
});

describe('a Swiss utility bill', () => {
  it('asks for the amount taken from the account ("Montant prélevé de votre compte")', () => {
    expect(read(swissBill('665.65')).values.grossTotal?.value).toBe(665.65);
    expect(read(swissBill("1'068.45")).values.grossTotal?.value).toBe(1068.45);
  });

  it("is dated by the date after the invoice's number, not by the due date ('Date échéance')", () => {
    const { values } = read(swissBill('665.65'));
    expect(values.invoiceDate?.value).toBe('2016-09-01');
    expect(values.invoiceNumber?.value).toBe('83419233');
  });

  it('takes the account number ("N° du compte") over the customer number beside it', () => {
    expect(read(swissBill('665.65')).values.accountNumber?.value).toBe('200323069');
  });

  it('is in Swiss francs, and comes from its sender, not from the postal operator of the imprint', () => {
    const { values } = read(swissBill('665.65'));
    expect(values.currency?.value).toBe('CHF');
    expect(String(values.supplierName?.value)).not.toMatch(/poste/i);
  });

  it('reads the metering point printed under its label, and does not take it for a gas MPRN', () => {
    const { values, utilityType } = read({
      lines: [
        ...swissBill('665.65').lines,
        at(0.2, 0.7, 'Electricité Votre meilleur tarif: Profil Double'),
        at(0.596, 0.74, 'Point de mesure : CH1022501234500000000000000146772'),
      ],
    });
    expect(values.meterPointNumber?.value).toBe('CH1022501234500000000000000146772');
    expect(utilityType).toBe('electricity');
  });

  it('invents no metering point from a long number that no label names', () => {
    const { values } = read({
      lines: [...swissBill('665.65').lines, at(0.2, 0.93, '0000000000000 CH1022501234500000000000000146772')],
    });
    expect(values.meterPointNumber).toBeUndefined();
  });
});

describe('a French energy bill', () => {
  it('is dated by "Facture du …" and numbered by the "n°" after that date', () => {
    const { values } = read({
      lines: [
        at(0.07, 0.04, 'FICTIOCORP'),
        at(0.3, 0.3, 'Facture du 29/01/2021'),
        // A contract's period printed after its reference is no date of issue.
        at(0.04, 0.2, '1234567890 du 01/01/2021 au 28/02/2021'),
        at(0.04, 0.42, 'Compte de facturation : 1234567890'),
        at(0.04, 0.44, 'Compte commercial : 9876543210'),
        ...row(0.41, [0.3, 'à payer (TTC)'], [0.8, '1479,85 €']),
        at(0.04, 0.6, 'Détail de votre facture du 29/01/2021 n° 10123590373'),
      ],
    });
    expect(values.invoiceDate?.value).toBe('2021-01-29');
    expect(values.invoiceNumber?.value).toBe('10123590373');
    expect(values.accountNumber?.value).toBe('1234567890');
  });

  it('takes no supplier from a sentence that speaks of suppliers in general', () => {
    const { values } = read({
      lines: [
        at(0.07, 0.04, 'www.edf.fr'),
        ...row(
          0.5,
          [0.036, "Taxes et contributions (identiques pour l'ensemble des fournisseurs)"],
          [0.816, '283,60 €'],
        ),
        at(0.326, 0.522, 'Période'),
      ],
    });
    expect(values.supplierName?.value).toBe('Edf');
  });
});

describe('an e-invoice printed by a stylesheet', () => {
  it('comes from the seller named under "Verkäufer:", not from the copyright of the stylesheet', () => {
    const { values } = read({
      lines: [
        at(0.05, 0.07, 'Stylesheet Lesbarmachung der XML-Daten von ZUGFeRD-Rechnungen'),
        at(0.05, 0.13, '(c) AWV e.V. 2020'),
        at(0.05, 0.17, 'Handelsrechnung Nr. 471102 vom 05.03.2018'),
        at(0.05, 0.34, 'Verkäufer:'),
        at(0.05, 0.35, 'Nummer : 549910'),
        at(0.05, 0.37, 'Globale Nummer: 4000001123452 (GTIN)'),
        at(0.05, 0.38, 'Lieferant GmbH'),
        at(0.05, 0.39, 'Lieferantenstraße 20'),
      ],
    });
    expect(values.supplierName?.value).toBe('Lieferant GmbH');
  });
});

describe('the local Textract reading a label set over two lines', () => {
  it('answers "Date" over "échéance" as the due date, not as the date of the invoice', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const page = doc.addPage([595.28, 841.89]);
    page.drawText('N° facture 83419233 du 01.09.2016', { x: 320, y: 620, size: 9, font });
    page.drawText('Date', { x: 500, y: 532, size: 8, font });
    page.drawText('échéance', { x: 490, y: 523, size: 8, font });
    page.drawText('03.10.2016', { x: 488, y: 512, size: 9, font });
    const { output } = await analyseBytes(await doc.save());
    const fields = (output.expense?.ExpenseDocuments ?? []).flatMap((d) => d.SummaryFields ?? []);
    const typeOf = (text: string) => fields.find((f) => f.ValueDetection?.Text === text)?.Type?.Text;
    expect(typeOf('03.10.2016')).toBe('DUE_DATE');
  }, 60_000);
});
