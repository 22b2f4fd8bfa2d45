import { describe, expect, it } from 'vitest';
import { foldLine, toICalendar } from '../../../shared/targets/icalendar.ts';
import {
  addYears,
  type CalendarEvent,
  inEnglandOrWales,
  MEES_PROPOSED,
  meesSteps,
  type SiteFacts,
  siteEvents,
  upcoming,
} from '../../../shared/targets/regulatory-calendar.ts';

const site = (over: Partial<SiteFacts> = {}): SiteFacts => ({
  assetId: 'a1',
  siteName: 'Dock House',
  inEnglandOrWales: true,
  epc: { band: 'D', kind: 'non-domestic', lodgementDate: '2017-05-10' },
  leases: [],
  ...over,
});

const TODAY = '2026-11-27';

describe('MEES dates', () => {
  it('holds E in force from 1 April 2023, and C 2027 and B 2030 as proposed', () => {
    expect(meesSteps('in-force').map((s) => [s.from, s.minimumBand, s.proposed])).toEqual([
      ['2023-04-01', 'E', false],
    ]);
    expect(meesSteps('proposed').map((s) => [s.from, s.minimumBand, s.proposed])).toEqual([
      ['2023-04-01', 'E', false],
      ['2027-04-01', 'C', true],
      ['2030-04-01', 'B', true],
    ]);
  });

  it('tells a D site it meets E but falls short of the proposed C and B, labelled proposed', () => {
    const events = siteEvents(site(), TODAY, meesSteps('proposed')).filter((e) => e.kind === 'mees');
    expect(events.map((e) => [e.date, e.needsAction, e.proposed, e.title])).toEqual([
      ['2023-04-01', false, false, 'MEES minimum E: met (EPC D)'],
      ['2027-04-01', true, true, 'MEES minimum C (proposed): EPC D falls short'],
      ['2030-04-01', true, true, 'MEES minimum B (proposed): EPC D falls short'],
    ]);
    expect(events[1]?.action).toContain('before 01/04/2027');
  });

  it('follows a moved proposal', () => {
    const later = MEES_PROPOSED.map((s) => ({
      ...s,
      from: `${Number(s.from.slice(0, 4)) + 1}${s.from.slice(4)}`,
    }));
    expect(meesSteps('proposed', later).map((s) => s.from)).toEqual([
      '2023-04-01',
      '2028-04-01',
      '2031-04-01',
    ]);
  });

  it('keeps an F site failing the E minimum in force on the list, though the date has passed', () => {
    const events = siteEvents(
      site({ epc: { band: 'F', kind: 'non-domestic' } }),
      TODAY,
      meesSteps('in-force'),
    );
    const soon = upcoming(events, TODAY, 24);
    expect(soon.map((e) => [e.kind, e.date, e.needsAction])).toEqual([['mees', '2023-04-01', true]]);
  });

  it('leaves out domestic certificates and sites outside England and Wales', () => {
    expect(
      siteEvents(site({ epc: { band: 'G', kind: 'domestic' } }), TODAY, meesSteps('proposed')).filter(
        (e) => e.kind === 'mees',
      ),
    ).toEqual([]);
    expect(inEnglandOrWales('France')).toBe(false);
    expect(inEnglandOrWales('United Kingdom')).toBe(true);
    expect(inEnglandOrWales(undefined)).toBe(true);
    expect(
      siteEvents(site({ inEnglandOrWales: false }), TODAY, meesSteps('proposed')).map((e) => e.kind),
    ).toEqual(['epc-expiry']);
  });

  it('asks for an EPC where the site holds none', () => {
    const [e] = siteEvents(site({ epc: undefined }), TODAY, meesSteps('in-force'));
    expect(e?.title).toBe('MEES minimum E: no EPC held');
    expect(e?.needsAction).toBe(true);
  });
});

describe('EPC expiry and leases', () => {
  it('expires a certificate ten years after lodgement', () => {
    const [expiry] = siteEvents(site(), TODAY, []);
    expect([expiry?.kind, expiry?.date]).toEqual(['epc-expiry', '2027-05-10']);
    expect(addYears('2016-02-29', 10)).toBe('2026-02-28');
    expect(addYears('2014-02-28', 10)).toBe('2024-02-28');
  });

  it('lists lease ends and coming lease starts, and the next 24 months only', () => {
    const events = siteEvents(
      site({
        epc: undefined,
        inEnglandOrWales: false,
        leases: [
          { id: 't1', tenant: 'Acme', start: '2020-01-01', end: '2027-06-30' },
          { id: 't2', tenant: 'Zed', start: '2027-01-01', end: '2037-12-31', break: '2027-12-31' },
          // A break already passed, and one on the day the lease ends anyway, are not events.
          { id: 't3', tenant: 'Old', end: '2040-01-01', break: '2020-06-30' },
          { id: 't4', tenant: 'Same', end: '2030-01-01', break: '2030-01-01' },
        ],
      }),
      TODAY,
      [],
    );
    expect(upcoming(events, TODAY, 24).map((e) => [e.kind, e.date])).toEqual([
      ['lease-start', '2027-01-01'],
      ['lease-end', '2027-06-30'],
      ['lease-break', '2027-12-31'],
    ]);
  });

  it('adds a CRREM misalignment year when the benchmark supplies one', () => {
    const events = siteEvents(
      site({ epc: undefined, inEnglandOrWales: false, crremMisalignmentYear: 2031 }),
      TODAY,
      [],
    );
    expect(events.map((e) => [e.kind, e.date])).toEqual([['crrem-misalignment', '2031-01-01']]);
  });
});

/** A small RFC 5545 reader: unfolds lines, then splits components and properties. */
function parseICalendar(text: string) {
  expect(text.endsWith('\r\n')).toBe(true);
  expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
  const physical = text.slice(0, -2).split('\r\n');
  for (const line of physical) expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
  const lines = text
    .replace(/\r\n[ \t]/g, '')
    .slice(0, -2)
    .split('\r\n');
  const unescaped = (v: string) => v.replace(/\\n/g, '\n').replace(/\\([,;\\])/g, '$1');
  const events: Record<string, string>[] = [];
  const calendar: Record<string, string> = {};
  let current: Record<string, string> | undefined;
  const stack: string[] = [];
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon);
    const value = line.slice(colon + 1);
    if (name === 'BEGIN') {
      stack.push(value);
      if (value === 'VEVENT') current = {};
      continue;
    }
    if (name === 'END') {
      expect(stack.pop()).toBe(value);
      if (value === 'VEVENT' && current) events.push(current);
      current = undefined;
      continue;
    }
    (current ?? calendar)[name] = unescaped(value);
  }
  expect(stack).toEqual([]);
  return { calendar, events };
}

describe('the iCalendar feed', () => {
  const events: CalendarEvent[] = siteEvents(
    site({ siteName: 'Dock House, Unit 4; East Wing — Ümlaut building with a rather long name indeed' }),
    TODAY,
    meesSteps('proposed'),
  );
  const text = toICalendar(events, {
    name: 'Voltfolio regulatory dates',
    domain: 'voltfolio.test',
    now: new Date('2026-11-27T01:02:03Z'),
  });

  it('is RFC 5545 text a reader takes apart into its events', () => {
    const parsed = parseICalendar(text);
    expect(parsed.calendar.VERSION).toBe('2.0');
    expect(parsed.calendar.PRODID).toContain('Voltfolio');
    expect(parsed.events).toHaveLength(4);
    const c = parsed.events.find((e) => e.UID === 'mees-C-a1-2027-04-01@voltfolio.test');
    expect(c?.['DTSTART;VALUE=DATE']).toBe('20270401');
    expect(c?.['DTEND;VALUE=DATE']).toBe('20270402');
    expect(c?.DTSTAMP).toBe('20261127T010203Z');
    expect(c?.SUMMARY).toBe(
      'Dock House, Unit 4; East Wing — Ümlaut building with a rather long name indeed: MEES minimum C (proposed): EPC D falls short',
    );
    expect(c?.DESCRIPTION).toContain('This date is proposed, not yet law.');
  });

  it('folds long lines without splitting a character', () => {
    const folded = foldLine(`SUMMARY:${'é'.repeat(60)}`);
    for (const line of folded.split('\r\n'))
      expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
    expect(folded.replace(/\r\n /g, '')).toBe(`SUMMARY:${'é'.repeat(60)}`);
  });
});
