import type { AutomationTemplateId } from '../../shared/schemas/automation.ts';

export interface AutomationTemplate {
  _id: AutomationTemplateId;
  name: string;
  description: string;
  /** The supplier login it runs: a bill portal, or a meter data API. */
  needs: 'bill-portal' | 'meter-data' | 'folder' | 'contact';
}

export const AUTOMATION_TEMPLATES: readonly AutomationTemplate[] = [
  {
    _id: 'portal-bills',
    name: 'Fetch bills from a supplier portal',
    description:
      'Signs in to the supplier portal, downloads every bill newer than the last run and sends it to capture.',
    needs: 'bill-portal',
  },
  {
    _id: 'meter-data',
    name: 'Fetch half-hourly meter data',
    description:
      "Fetches each meter's half-hourly consumption from the data provider, from the last interval held.",
    needs: 'meter-data',
  },
  {
    _id: 'folder-import',
    name: 'Import a file dropped into the automation folder',
    description:
      "Takes the file last dropped into this automation's folder: a bill (PDF or image) goes to capture, a spreadsheet (CSV or XLSX) is imported.",
    needs: 'folder',
  },
  {
    _id: 'data-request',
    name: 'E-mail a data request to a site contact',
    description:
      "E-mails a site contact or supplier asking for meter readings or a bill; their reply goes to the company's bill inbox, with no sign-in.",
    needs: 'contact',
  },
];

export const templateOf = (id: string) => AUTOMATION_TEMPLATES.find((t) => t._id === id);

/** Why a run failed, by code; a connector run's error type is the code of the run it did the work of. */
export const AUTOMATION_ERROR_CODES = {
  'wrong-password': 'The portal refused the stored password. Set it again on the connectors page.',
  'portal-unavailable': 'The portal could not be reached.',
  'portal-changed': "The portal's pages were not as the connector expects.",
  'not-runnable': 'The connector is not ready to run: check its login on the connectors page.',
  'no-supplier': 'This automation names no supplier login.',
  'no-file': 'No file has been dropped into the automation folder.',
  'file-refused': 'The dropped file is neither a bill (PDF, PNG or JPEG) nor a spreadsheet (CSV or XLSX).',
  'file-too-large': 'The dropped file is larger than 20 MB. Split it, or upload the bills themselves.',
  'file-unreadable': 'The dropped spreadsheet could not be read or its columns matched for import.',
  'no-contact': 'This automation names no contact to e-mail.',
  'no-reply-address': 'The company has no bill inbox address for replies. Set one in the company settings.',
  interrupted: 'The run stopped before it finished, after every retry.',
} as const satisfies Record<string, string>;

export type AutomationErrorCode = keyof typeof AUTOMATION_ERROR_CODES;

export const errorCodeOf = (type: string | undefined): AutomationErrorCode =>
  type && type in AUTOMATION_ERROR_CODES ? (type as AutomationErrorCode) : 'interrupted';
