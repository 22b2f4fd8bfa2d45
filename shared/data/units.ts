import type { VersionedList } from './lookup.ts';

export type UnitKind = 'energy' | 'mass' | 'volume' | 'area' | 'flow' | 'count' | 'temperature' | 'emissions';

export interface UnitOption {
  value: string;
  name: string;
  kind: UnitKind;
}

/** The units the product knows (01 §3), in the order the specification lists them. */
export const UNITS: VersionedList<UnitOption> = {
  version: '2025.1',
  data: [
    { value: 'Wh', name: 'Watt hours', kind: 'energy' },
    { value: 'kWh', name: 'Kilowatt hours', kind: 'energy' },
    { value: 'MWh', name: 'Megawatt hours', kind: 'energy' },
    { value: 'kg', name: 'Kilograms', kind: 'mass' },
    { value: 'm³', name: 'Cubic metres', kind: 'volume' },
    { value: 'm²', name: 'Square metres', kind: 'area' },
    { value: 'lbs', name: 'Pounds', kind: 'mass' },
    { value: 'tonnes', name: 'Tonnes', kind: 'mass' },
    { value: 'ft³', name: 'Cubic feet', kind: 'volume' },
    { value: 'hcf', name: 'Hundred cubic feet', kind: 'volume' },
    { value: 'm³/h', name: 'Cubic metres per hour', kind: 'flow' },
    { value: 'qty', name: 'Quantity', kind: 'count' },
    { value: 'l', name: 'Litres', kind: 'volume' },
    { value: '°C', name: 'Degrees Celsius', kind: 'temperature' },
    { value: 'mcuf', name: 'Thousand cubic feet', kind: 'volume' },
    { value: 'hcuf', name: 'Hundred cubic feet', kind: 'volume' },
    { value: 'tcuf', name: 'Ten cubic feet', kind: 'volume' },
    { value: 'ocuf', name: 'One cubic foot', kind: 'volume' },
    { value: 'hm³', name: 'Hundred cubic metres', kind: 'volume' },
    { value: 'tm³', name: 'Thousand cubic metres', kind: 'volume' },
    { value: 'nm³', name: 'Normal cubic metres', kind: 'volume' },
    { value: 'kg CO₂e', name: 'Kilograms of CO₂ equivalent', kind: 'emissions' },
    { value: 't CO₂e', name: 'Tonnes of CO₂ equivalent', kind: 'emissions' },
  ],
};
