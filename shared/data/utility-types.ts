import type { UtilityType } from '../schemas/common.ts';
import { UTILITY_TYPES } from '../schemas/mini-fields.ts';
import type { VersionedList } from './lookup.ts';

/** A utility type as pickers and charts show it (01 §3): its value, name, icon and colour. */
export interface UtilityTypeOption {
  value: UtilityType;
  name: string;
  icon: string;
  color: string;
}

const LOOKS: Record<UtilityType, Omit<UtilityTypeOption, 'value'>> = {
  electricity: { name: 'Electricity', icon: 'bolt', color: '#f2b705' },
  gas: { name: 'Gas', icon: 'flame', color: '#e4572e' },
  water: { name: 'Water', icon: 'droplet', color: '#2e86de' },
  waste: { name: 'Waste', icon: 'trash', color: '#6c757d' },
  heating: { name: 'Heating', icon: 'temperature', color: '#c0392b' },
  cooling: { name: 'Cooling', icon: 'snowflake', color: '#48c9b0' },
  solar: { name: 'Solar', icon: 'sun', color: '#f39c12' },
};

export const UTILITY_TYPE_OPTIONS: VersionedList<UtilityTypeOption> = {
  version: '2025.1',
  data: UTILITY_TYPES.map((value) => ({ value, ...LOOKS[value] })),
};
