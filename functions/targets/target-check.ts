import type { Caller } from '../../shared/access/caller.ts';
import { EMPTY_GRANTS } from '../../shared/access/caller.ts';
import { getCompany } from '../company/index.ts';
import { listAllCompanies } from '../core/access/membership-repository.ts';
import type { Logger } from '../core/lib/logger.ts';
import { evaluate, recordStatus, scopeFiguresFor } from './target-progress.ts';
import { listTargets } from './target-repository.ts';
import { scopeNames } from './target-scopes.ts';

const COMPANY_PAGE = 100;

/** The check reads a company's figures whole, as a company user would: it tells only the scope's readers. */
const systemCaller = (companyId: string): Caller => ({
  kind: 'user',
  sub: 'system:targets-check',
  companyId,
  isAdmin: false,
  permissions: ['company_user'],
  grants: EMPTY_GRANTS,
  roles: [],
});

export interface TargetsCheck {
  companies: number;
  targets: number;
  offTrackTold: number;
}

/** Judges every live target of every company, recording each status and telling readers of a new off track. */
export async function checkAllTargets(log: Logger): Promise<TargetsCheck> {
  const run: TargetsCheck = { companies: 0, targets: 0, offTrackTold: 0 };
  for (let skip = 0; ; skip += COMPANY_PAGE) {
    const page = await listAllCompanies(COMPANY_PAGE, skip);
    for (const company of page.data) {
      const targets = (await listTargets(company._id)).filter((t) => t.deleted !== true);
      if (targets.length === 0) continue;
      run.companies++;
      const caller = systemCaller(company._id);
      const hideCosts = (await getCompany(company._id))?.settings?.hideCostData === true;
      const names = await scopeNames(company._id, targets);
      const figures = scopeFiguresFor(caller, targets);
      for (const t of targets) {
        run.targets++;
        const e = await evaluate(t, figures, hideCosts);
        if (await recordStatus(t, e, names.get(t._id), log)) run.offTrackTold++;
      }
    }
    if (skip + COMPANY_PAGE >= page.total || page.data.length === 0) break;
  }
  log.info('targets checked', { ...run });
  return run;
}
