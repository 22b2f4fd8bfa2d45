import type { VersionedList } from './lookup.ts';

export interface IntegrationOption {
  value: string;
  name: string;
  category: 'invoices' | 'consumption' | 'certificates' | 'data';
  description: string;
}

/** The connectors a company can switch on (the Integrations page). */
export const INTEGRATIONS: VersionedList<IntegrationOption> = {
  version: '2025.1',
  data: [
    {
      value: 'supplier-portal',
      name: 'Supplier portals',
      category: 'invoices',
      description: "Collects invoices from suppliers' online portals on a schedule.",
    },
    {
      value: 'invoice-email',
      name: 'Invoice capture e-mail',
      category: 'invoices',
      description: "Reads invoices sent to the company's capture address.",
    },
    {
      value: 'gridfetch',
      name: 'Grid data (half-hourly)',
      category: 'consumption',
      description: 'Fetches half-hourly electricity data for meters with a letter of authority.',
    },
    {
      value: 'smart-meter',
      name: 'Smart meters',
      category: 'consumption',
      description: 'Reads daily consumption from smart and AMR meters.',
    },
    {
      value: 'epc-register',
      name: 'EPC register',
      category: 'certificates',
      description: 'Looks up Energy Performance Certificates for sites by address.',
    },
    {
      value: 'sftp-import',
      name: 'SFTP import',
      category: 'data',
      description: 'Imports consumption and invoice files dropped on a secure file server.',
    },
    {
      value: 'api',
      name: 'API access',
      category: 'data',
      description: 'Reads and writes portfolio data with a personal API key.',
    },
  ],
};
