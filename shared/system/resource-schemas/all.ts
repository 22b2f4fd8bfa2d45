/** Registers the schemas of every declared resource: for the seed, tests and scripts, which serve them all. */
import './accounts.ts';
import './asset-groups.ts';
import './assets.ts';
import './automation.ts';
import './collaboration.ts';
import './companies.ts';
import './entities.ts';
import './insights.ts';
import './invoice-validation.ts';
import './invoices.ts';
import './session.ts';
import './targets.ts';
import './templates.ts';
import './util.ts';
