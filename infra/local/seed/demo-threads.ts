import { MESSAGE_OPERATIONS } from '../../../functions/collaboration/message-service.ts';
import type { Caller } from '../../../shared/access/caller.ts';
import type { PlannedCompany } from './plan-company.ts';
import { callOperation } from './service-calls.ts';

/** A discussion of the demo: a question on a site, the replies it had, and whether it was settled. */
interface ThreadPlan {
  /** Which of the company's sites, by its place in the plan (sites differ between the two companies). */
  site: number;
  subject: string;
  category: string;
  body: string;
  replies: { by: 'owner' | 'colleague'; body: string }[];
  resolved: boolean;
}

const DEMO_THREADS: readonly ThreadPlan[] = [
  {
    site: 0,
    subject: 'October gas bill based on an estimated reading',
    category: 'Billing query',
    body:
      'The October gas bill uses an estimated closing reading of 48,210 m³. Our own reading on 31 October ' +
      'was 47,655 m³, so we have been charged for about 555 m³ we have not used. Can someone send the ' +
      'supplier the actual reading and ask for a re-bill?',
    replies: [
      {
        by: 'colleague',
        body: 'Sent the photo of the meter to the supplier this morning, reference CS-118204. They say 5–7 working days.',
      },
      { by: 'owner', body: 'Re-bill received with the actual reading. Closing this.' },
    ],
    resolved: true,
  },
  {
    site: 1,
    subject: 'Plant room access for the electricity meter exchange',
    category: 'Site access',
    body:
      'The distribution network operator wants to swap the main electricity meter for a smart meter. ' +
      'They need the plant room key and about two hours with the supply off. Which mornings suit the tenants?',
    replies: [
      {
        by: 'colleague',
        body: 'Tuesday or Thursday before 9:00 works for facilities. Reception holds the key; I will leave a note.',
      },
    ],
    resolved: false,
  },
  {
    site: 2,
    subject: 'Water consumption up 40% on last year',
    category: 'Meter reading',
    body:
      'Water use this quarter is about 40% above the same quarter last year with no change in occupancy. ' +
      'Could be a leak after the meter. Can we get the night-time readings checked?',
    replies: [],
    resolved: false,
  },
];

const NORTHWIND_THREADS: readonly ThreadPlan[] = [
  {
    site: 0,
    subject: 'Standing charge changed mid-contract',
    category: 'Billing query',
    body:
      'The standing charge went from 52.4p to 61.9p a day on the latest bill, but the contract fixes it until ' +
      'next March. Raising it with the supplier.',
    replies: [],
    resolved: false,
  },
];

/**
 * A few discussions on the demo companies' sites, started and answered through the API's own calls, so
 * they carry the activity log, search entries and notices a real thread would.
 */
export async function seedDemoThreads(
  company: PlannedCompany,
  people: { owner: Caller; colleague: Caller },
  which: 'demo' | 'northwind',
): Promise<number> {
  const plans = which === 'demo' ? DEMO_THREADS : NORTHWIND_THREADS;
  let made = 0;
  for (const plan of plans) {
    const site = company.assets[plan.site];
    if (!site) continue;
    const thread = await callOperation<{ _id: string }>(MESSAGE_OPERATIONS, 'messages.create', people.owner, {
      body: { subject: plan.subject, category: plan.category, body: plan.body, assetId: site.item._id },
    });
    for (const reply of plan.replies) {
      await callOperation(MESSAGE_OPERATIONS, 'messages.replies.create', people[reply.by], {
        params: { id: thread._id },
        body: { body: reply.body },
      });
    }
    if (plan.resolved) {
      await callOperation(MESSAGE_OPERATIONS, 'messages.update', people.owner, {
        params: { id: thread._id },
        body: { status: 'resolved' },
      });
    }
    made++;
  }
  return made;
}
