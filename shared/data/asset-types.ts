import type { NamedOption, VersionedList } from './lookup.ts';

/** Kinds of building an asset can be; the value is what an asset stores as `assetType`. */
export const ASSET_TYPES: VersionedList<NamedOption & { domestic: boolean }> = {
  version: '2025.1',
  data: [
    { value: 'Office', name: 'Office', domestic: false },
    { value: 'Retail', name: 'Retail', domestic: false },
    { value: 'Warehouse', name: 'Warehouse', domestic: false },
    { value: 'Industrial', name: 'Industrial', domestic: false },
    { value: 'Residential block', name: 'Residential block', domestic: true },
    { value: 'Hotel', name: 'Hotel', domestic: false },
    { value: 'Healthcare', name: 'Healthcare', domestic: false },
    { value: 'Education', name: 'Education', domestic: false },
    { value: 'Leisure', name: 'Leisure', domestic: false },
    { value: 'Data centre', name: 'Data centre', domestic: false },
    { value: 'Mixed use', name: 'Mixed use', domestic: false },
    { value: 'Car park', name: 'Car park', domestic: false },
    { value: 'Land', name: 'Land', domestic: false },
    { value: 'Other', name: 'Other', domestic: false },
  ],
};
