import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { InvoiceView } from '../../web/features/invoices/api.ts';
import { CaptureNotes } from '../../web/features/invoices/capture-notes.tsx';
import { SupplierCreatePage } from '../../web/features/suppliers/supplier-create-page.tsx';
import { type Services, ServicesProvider, SessionProvider } from '../../web/lib/app-context.tsx';
import { accessOf, type Me, type MyPermissions, type Session } from '../../web/lib/session.ts';
import { textOf as htmlText, renderHtml } from './render.tsx';

/** The text as read: React's separate text nodes leave no space before punctuation. */
const textOf = (html: string) => htmlText(html).replace(/\s+([.,;])/g, '$1');

/** The supplier found for a bill read without a template, as its review page tells it. */

const EMPTY = { read: [], write: [] };
const mine: MyPermissions = { permissions: ['admin'], entities: EMPTY, assets: EMPTY, accounts: EMPTY };
const me: Me = {
  _id: 'owner',
  sub: 'owner',
  isAdmin: true,
  companyId: 'demo',
  companies: ['demo'],
  staffView: false,
  roles: [],
  isEntityGroupUser: false,
  permissions: ['admin'],
  role: null,
  apiKey: null,
};
const admin: Session = {
  me,
  company: { _id: 'demo', name: 'Demo Estates Ltd' },
  permissions: mine,
  access: accessOf(me, mine),
};

const html = (node: ReactNode, path = '/') =>
  renderHtml(
    <MemoryRouter initialEntries={[path]}>
      <ServicesProvider services={{ api: {}, auth: {} } as unknown as Services}>
        <SessionProvider session={admin}>{node}</SessionProvider>
      </ServicesProvider>
    </MemoryRouter>,
  );

const invoiceWith = (
  supplierMatch: NonNullable<InvoiceView['results']>['supplierMatch'],
  values: Record<string, unknown> = {},
) => ({ _id: 'i1', status: 'manual', values, results: { supplierMatch } }) as unknown as InvoiceView;

describe('the supplier a bill was matched to, on its review page', () => {
  it('says the bill was matched by its VAT number, and which', () => {
    const text = textOf(
      html(
        <CaptureNotes
          invoice={invoiceWith({
            read: 'NWP Energy',
            how: 'vatNumber',
            evidence: 'GB123456789',
            supplierId: 'nw',
            name: 'Northwind Power Ltd',
          })}
        />,
      ),
    );
    expect(text).toContain(
      'The bill names “NWP Energy”, matched to Northwind Power Ltd on the suppliers list by its VAT number GB123456789.',
    );
  });

  it('says the bill was matched by the domain of its web or e-mail address', () => {
    const web = invoiceWith({
      read: '',
      how: 'website',
      evidence: 'octopus.energy',
      supplierId: 'oe',
      name: 'Octopus Energy',
    });
    expect(textOf(html(<CaptureNotes invoice={web} />))).toContain(
      'The bill is matched to Octopus Energy on the suppliers list by its web address on octopus.energy.',
    );
    const mail = invoiceWith({
      read: 'Facture',
      how: 'email',
      evidence: 'edf.fr',
      supplierId: 'edf',
      name: 'EDF',
    });
    expect(textOf(html(<CaptureNotes invoice={mail} />))).toContain('by its e-mail address on edf.fr.');
  });

  it('offers to create the supplier with the name, VAT number and web address the bill printed', () => {
    const page = html(
      <CaptureNotes
        invoice={invoiceWith({
          read: 'Greenbrook Water Ltd',
          how: 'none',
          vatNumber: 'GB987654321',
          website: 'greenbrook-water.co.uk',
        })}
      />,
    );
    expect(textOf(page)).toContain(
      'The bill names “Greenbrook Water Ltd”, prints VAT number GB987654321, and greenbrook-water.co.uk; no supplier on the list matches it.',
    );
    expect(page).toContain(
      'href="/suppliers/create?name=Greenbrook+Water+Ltd&amp;vatNumber=GB987654321&amp;website=greenbrook-water.co.uk"',
    );
  });

  it('opens the create form filled in with them', () => {
    const page = html(
      <SupplierCreatePage />,
      '/suppliers/create?name=Greenbrook+Water+Ltd&vatNumber=GB987654321&website=greenbrook-water.co.uk',
    );
    expect(page).toMatch(/value="Greenbrook Water Ltd"/);
    expect(page).toMatch(/value="GB987654321"/);
    expect(page).toMatch(/value="greenbrook-water.co.uk"/);
  });

  it('says a bill in euros is not checked in pounds and is for review', () => {
    const text = textOf(html(<CaptureNotes invoice={invoiceWith(undefined, { currency: 'EUR' })} />));
    expect(text).toContain(
      'Amounts in EUR The bill is in EUR, not pounds. Its amounts are kept in EUR and are not checked against sterling contracts, tax and levies: review it before confirming.',
    );
    expect(textOf(html(<CaptureNotes invoice={invoiceWith(undefined, { currency: 'GBP' })} />))).toBe('');
  });
});
