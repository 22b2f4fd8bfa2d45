import * as z from 'zod';
import { idField, nonEmptyField } from './fields.ts';
import { onFirstUse } from './on-first-use.ts';

export const TARGET_SCOPES = ['company', 'entity', 'portfolio', 'site'] as const;
export type TargetScope = (typeof TARGET_SCOPES)[number];

export const TARGET_MEASURES = ['energy', 'emissions', 'cost', 'water', 'waste'] as const;
export type TargetMeasure = (typeof TARGET_MEASURES)[number];

/** Which part of the emissions a target counts: all scopes, or one (scope 2 location-based). */
export const EMISSION_SCOPES = ['all', 'scope1', 'scope2', 'scope1and2', 'scope3'] as const;
export type EmissionScope = (typeof EMISSION_SCOPES)[number];

export const TARGET_NORMALISATIONS = ['absolute', 'per-m2'] as const;
export type TargetNormalisation = (typeof TARGET_NORMALISATIONS)[number];

// The schemas are built when called, or on first use. The calendar's queries, which the function declares at
// start, are in `calendar-queries.ts`, of zod's small build.
const year = () =>
  z
    .number({ error: 'Must be a year' })
    .int('Must be a whole year')
    .min(2000, 'Must be 2000 or later')
    .max(2100, 'Must be 2100 or earlier');

const milestoneFields = () =>
  z.object({
    year: year(),
    reductionPercent: z
      .number({ error: 'Must be a number' })
      .min(0, 'Must be 0 or more')
      .max(100, 'Must be 100 or less'),
  });
export type Milestone = z.infer<ReturnType<typeof milestoneFields>>;

/**
 * A reduction target as stored: the fields one by one, without the rules between them, so the stored
 * form and a partial change share it; `targetInputSchema` adds those rules for every write.
 */
export const targetFields = () =>
  z.object({
    name: nonEmptyField().max(200),
    scope: z.enum(TARGET_SCOPES, { error: 'Choose company, entity, portfolio or site' }),
    /** The entity, portfolio or site; none for the company. */
    scopeId: idField().optional(),
    measure: z.enum(TARGET_MEASURES, { error: 'Choose energy, emissions, cost, water or waste' }),
    emissionScope: z.enum(EMISSION_SCOPES).default('all'),
    normalisation: z.enum(TARGET_NORMALISATIONS).default('absolute'),
    baselineYear: year(),
    /** Set to replace the baseline worked out from the data (in the target's unit). */
    baselineOverride: z.number({ error: 'Must be a number' }).positive('Must be greater than 0').optional(),
    targetYear: year(),
    reductionPercent: z
      .number({ error: 'Must be a number' })
      .gt(0, 'Must be more than 0')
      .max(100, 'Must be 100 or less'),
    milestones: z.array(milestoneFields()).max(20, 'At most 20 milestones').default([]),
    /** A straight path from the baseline to the target (SBTi-style linear reduction) rather than steps at milestones. */
    linearPath: z.boolean().default(true),
  });
export type TargetFields = z.infer<ReturnType<typeof targetFields>>;

/** The rules between a target's fields, by the field each one is told against. */
export function targetFieldProblems(t: Partial<TargetFields>): Record<string, string> {
  const out: Record<string, string> = {};
  if (t.scope && t.scope !== 'company' && !t.scopeId) out.scopeId = 'Choose what the target covers';
  if (t.baselineYear !== undefined && t.targetYear !== undefined && t.targetYear <= t.baselineYear)
    out.targetYear = 'Must be after the baseline year';
  const milestones = t.milestones ?? [];
  milestones.forEach((m, i) => {
    if (t.baselineYear !== undefined && t.targetYear !== undefined) {
      if (m.year <= t.baselineYear || m.year >= t.targetYear)
        out[`milestones.${i}.year`] ??= 'Must fall between the baseline and target years';
    }
    if (t.reductionPercent !== undefined && m.reductionPercent > t.reductionPercent)
      out[`milestones.${i}.reductionPercent`] ??= 'Must not exceed the target reduction';
    if (milestones.some((o, j) => j < i && o.year === m.year))
      out[`milestones.${i}.year`] ??= 'Another milestone has this year';
  });
  if (t.measure !== 'emissions' && t.emissionScope && t.emissionScope !== 'all')
    out.emissionScope = 'Only an emissions target counts by scope';
  return out;
}

/** A target as a write must leave it: its fields and the rules between them. */
export const targetInputSchema = onFirstUse(() =>
  targetFields().superRefine((t, ctx) => {
    for (const [path, message] of Object.entries(targetFieldProblems(t))) {
      ctx.addIssue({
        code: 'custom',
        message,
        path: path.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)),
      });
    }
  }),
);
