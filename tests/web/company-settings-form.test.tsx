import { describe, expect, it } from 'vitest';
import { EMAIL_CAPTURE_OFF } from '../../shared/schemas/staff-admin.ts';
import type { CompanyView } from '../../web/features/company/api.ts';
import { SettingsForm } from '../../web/features/company/company-manage-page.tsx';
import { type Services, ServicesProvider } from '../../web/lib/app-context.tsx';
import { renderHtml, textOf } from './render.tsx';

const company = (featuresOff: CompanyView['featuresOff']): CompanyView => ({
  _id: 'c1',
  name: 'Demo Estates Ltd',
  settings: { invoiceCaptureEmail: 'invoices+demo@capture.voltfolio.test' },
  featuresOff,
});

const form = (view: CompanyView) =>
  renderHtml(
    <ServicesProvider services={{ api: {} } as unknown as Services}>
      <SettingsForm company={view} />
    </ServicesProvider>,
  );

describe('the company settings form', () => {
  it('shows the capture address while e-mail capture is on', () => {
    const html = form(company([]));
    expect(textOf(html)).toContain('Invoice capture email');
    expect(html).toContain('invoices+demo@capture.voltfolio.test');
    expect(textOf(html)).not.toContain(EMAIL_CAPTURE_OFF);
  });

  it('hides the capture address, and says why, while staff have e-mail capture off', () => {
    const html = form(company(['email-capture']));
    expect(textOf(html)).not.toContain('Invoice capture email');
    expect(html).not.toContain('invoices+demo@capture.voltfolio.test');
    expect(textOf(html)).toContain(EMAIL_CAPTURE_OFF);
  });
});
