import { createHash, randomBytes } from 'node:crypto';
import { createCanvas } from '@napi-rs/canvas';
import { PDFDocument, type PDFFont, PDFHexString, type PDFPage, PDFRawStream, StandardFonts } from 'pdf-lib';

/** A4 in points. */
export const PAGE = { width: 595.28, height: 841.89 };

export interface Drawn {
  text: string;
  /** Where the text was drawn, as Textract's page fractions of its box. */
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Helvetica's cap height and descender, in font sizes: the ink of a word lies between them. */
const CAP_HEIGHT = 0.718;
const DESCENDER = 0.207;

/** Text drawn at a baseline, with the box its glyphs take. */
function draw(page: PDFPage, font: PDFFont, text: string, x: number, y: number, size: number): Drawn {
  page.drawText(text, { x, y, size, font });
  return {
    text,
    left: x / PAGE.width,
    top: (PAGE.height - y - CAP_HEIGHT * size) / PAGE.height,
    width: font.widthOfTextAtSize(text, size) / PAGE.width,
    height: ((CAP_HEIGHT + DESCENDER) * size) / PAGE.height,
  };
}

/** Where a word starts inside a run of text drawn at `x`. */
export function wordIn(run: Drawn, word: string, font: PDFFont, size: number): Drawn {
  const before = run.text.slice(0, run.text.indexOf(word));
  return {
    text: word,
    left: run.left + font.widthOfTextAtSize(before, size) / PAGE.width,
    top: run.top,
    width: font.widthOfTextAtSize(word, size) / PAGE.width,
    height: run.height,
  };
}

export interface InvoiceDrawing {
  font: PDFFont;
  invoiceLine: Drawn;
  tableRows: string[][];
}

/** An invoice as a supplier's billing system prints it: header, addresses, charges table, totals. */
async function drawInvoice(doc: PDFDocument, invoiceId: string): Promise<InvoiceDrawing> {
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([PAGE.width, PAGE.height]);
  draw(page, font, 'ACME Energy Ltd', 50, 790, 18);
  const invoiceLine = draw(page, font, `Invoice number: ${invoiceId}`, 50, 740, 11);
  draw(page, font, 'Invoice date: 12/03/2024', 50, 724, 11);
  draw(page, font, 'Account number: 4455667', 50, 708, 11);
  draw(page, font, 'Bill to:', 350, 740, 11);
  draw(page, font, 'Jane Smith', 350, 724, 11);
  draw(page, font, '1 High Street', 350, 708, 11);
  draw(page, font, 'Leeds LS1 1AA', 350, 692, 11);
  const tableRows = [
    ['Description', 'Qty', 'Unit price', 'Amount'],
    ['Electricity day rate', '1200', '0.25', '300.00'],
    ['Standing charge', '31', '0.50', '15.50'],
  ];
  tableRows.forEach((row, r) => {
    row.forEach((cell, c) => {
      draw(page, font, cell, [50, 300, 380, 480][c] ?? 0, 650 - r * 18, 10);
    });
  });
  draw(page, font, 'Subtotal: 315.50', 380, 580, 11);
  draw(page, font, 'VAT @ 5%: 15.78', 380, 564, 11);
  draw(page, font, 'Total amount due: £331.28', 380, 548, 11);
  return { font, invoiceLine, tableRows };
}

export async function invoicePdf(invoiceId = 'INV123'): Promise<{ bytes: Uint8Array } & InvoiceDrawing> {
  const doc = await PDFDocument.create();
  const drawing = await drawInvoice(doc, invoiceId);
  return { bytes: await doc.save(), ...drawing };
}

/** The invoice followed by a page of terms. */
export async function twoPagePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const { font } = await drawInvoice(doc, 'INV200');
  const page = doc.addPage([PAGE.width, PAGE.height]);
  draw(page, font, 'Terms and conditions', 50, 790, 14);
  for (let i = 0; i < 12; i++)
    draw(page, font, `Clause ${i + 1}: payment is due within 30 days`, 50, 750 - i * 16, 10);
  return doc.save();
}

/** A page of text drawn into a picture at 150 dpi, as a scanner would make it. */
export function scanPng(lines: { text: string; x: number; y: number; size: number }[]): {
  png: Uint8Array;
  width: number;
  height: number;
  boxes: Drawn[];
} {
  const width = 1240;
  const height = 1754;
  const canvas = createCanvas(width, height);
  const g = canvas.getContext('2d');
  g.fillStyle = '#ffffff';
  g.fillRect(0, 0, width, height);
  g.fillStyle = '#111111';
  const boxes: Drawn[] = [];
  for (const { text, x, y, size } of lines) {
    g.font = `${size}px sans-serif`;
    g.fillText(text, x, y);
    let at = x;
    for (const word of text.split(' ')) {
      const m = g.measureText(word);
      boxes.push({
        text: word,
        left: (at + m.actualBoundingBoxLeft * -1) / width,
        top: (y - m.actualBoundingBoxAscent) / height,
        width: m.width / width,
        height: (m.actualBoundingBoxAscent + m.actualBoundingBoxDescent) / height,
      });
      at += m.width + g.measureText(' ').width;
    }
  }
  return { png: canvas.toBuffer('image/png'), width, height, boxes };
}

/** The picture as the only thing on a PDF page: no text layer. */
export async function imageOnlyPdf(png: Uint8Array): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([PAGE.width, PAGE.height]);
  page.drawImage(await doc.embedPng(png), { x: 0, y: 0, width: PAGE.width, height: PAGE.height });
  return doc.save();
}

const PASSWORD_PAD = Buffer.from('28BF4E5E4E758A4164004E56FFFA01082E2E00B6D0683E802F0CA9FE6453697A', 'hex');

function rc4(key: Uint8Array, data: Uint8Array): Uint8Array {
  const s = Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + (s[i] ?? 0) + (key[i % key.length] ?? 0)) & 255;
    [s[i], s[j]] = [s[j] ?? 0, s[i] ?? 0];
  }
  const out = new Uint8Array(data.length);
  for (let n = 0, i = 0, j = 0; n < data.length; n++) {
    i = (i + 1) & 255;
    j = (j + (s[i] ?? 0)) & 255;
    [s[i], s[j]] = [s[j] ?? 0, s[i] ?? 0];
    out[n] = (data[n] ?? 0) ^ (s[((s[i] ?? 0) + (s[j] ?? 0)) & 255] ?? 0);
  }
  return out;
}

const md5 = (...parts: Uint8Array[]) => createHash('md5').update(Buffer.concat(parts)).digest();
const padded = (password: string) =>
  Buffer.concat([Buffer.from(password, 'latin1'), PASSWORD_PAD]).subarray(0, 32);

/**
 * The PDF encrypted with a user password (the PDF standard security handler, revision 2: RC4 with a
 * 40-bit key), as "protect with password" in a PDF tool makes it: it opens only with the password.
 */
export async function encryptPdf(bytes: Uint8Array, userPassword: string): Promise<Uint8Array> {
  // Every object on its own first: objects inside object streams would stay unencrypted.
  const flat = await (await PDFDocument.load(bytes)).save({ useObjectStreams: false });
  const doc = await PDFDocument.load(flat);
  const context = doc.context;
  const permissions = -44;
  const id = randomBytes(16);
  const owner = rc4(md5(padded(`${userPassword}-owner`)).subarray(0, 5), padded(userPassword));
  const p = Buffer.alloc(4);
  p.writeInt32LE(permissions);
  const key = md5(padded(userPassword), owner, p, id).subarray(0, 5);
  const user = rc4(key, PASSWORD_PAD);
  for (const [ref, object] of context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFRawStream)) continue;
    const salt = Buffer.alloc(5);
    salt.writeUIntLE(ref.objectNumber, 0, 3);
    salt.writeUInt16LE(ref.generationNumber, 3);
    context.assign(ref, PDFRawStream.of(object.dict, rc4(md5(key, salt).subarray(0, 10), object.contents)));
  }
  // The info dictionary's strings would need encrypting too; without it the file is as valid.
  context.trailerInfo.Info = undefined;
  const hex = (b: Uint8Array) => PDFHexString.of(Buffer.from(b).toString('hex'));
  context.trailerInfo.Encrypt = context.register(
    context.obj({ Filter: 'Standard', V: 1, R: 2, Length: 40, P: permissions, O: hex(owner), U: hex(user) }),
  );
  context.trailerInfo.ID = context.obj([hex(id), hex(id)]);
  return doc.save({ useObjectStreams: false, updateFieldAppearances: false });
}
