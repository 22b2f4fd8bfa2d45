import type { NamedOption, VersionedList } from './lookup.ts';

/** How finely analytics break a period down; monthly is the default (02 §9). */
export const GRANULARITIES: VersionedList<NamedOption & { isDefault: boolean }> = {
  version: '2025.1',
  data: [
    { value: 'halfhourly', name: 'Half-hourly', isDefault: false },
    { value: 'hourly', name: 'Hourly', isDefault: false },
    { value: 'daily', name: 'Daily', isDefault: false },
    { value: 'weekly', name: 'Weekly', isDefault: false },
    { value: 'monthly', name: 'Monthly', isDefault: true },
    { value: 'quarterly', name: 'Quarterly', isDefault: false },
    { value: 'yearly', name: 'Yearly', isDefault: false },
  ],
};
