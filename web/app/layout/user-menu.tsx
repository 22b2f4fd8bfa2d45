import { UnstyledButton } from '@mantine/core';
import { canSeeCompanySettings, isApiOnly } from '../../../shared/access/route-access.ts';
import { APP_VERSION } from '../../../shared/constants.ts';
import {
  Dropdown,
  DropdownDivider,
  DropdownItem,
  DropdownLabel,
  DropdownTarget,
} from '../../components/dropdown.tsx';
import { ChevronDownIcon } from '../../components/icons.tsx';
import { useSession } from '../../lib/app-context.tsx';
import { useT } from '../../lib/i18n-context.tsx';
import type { Company } from '../../lib/session.ts';
import { useMyCompanies } from '../../lib/session-api.ts';
import { useSwitchCompany } from './switch-company.ts';

interface CompanyList {
  data: Company[];
}

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]?.toUpperCase())
    .join('');

/** Profile, Company Settings, the company switcher, the version and Log Out (01 §2.3). */
export function UserMenu() {
  const { me, company, access } = useSession();
  const switchTo = useSwitchCompany();
  const t = useT();
  // An API-only user's session reaches the profile only (01 §6): their company is chosen with their key.
  // Staff may look into any company (01 §6), so their switcher lists every one.
  const multiCompany = (me.companies.length > 1 || me.isAdmin) && !isApiOnly(access);
  const { data: companies } = useMyCompanies<CompanyList>(multiCompany);
  const name = me.name ?? me.email ?? 'Account';

  return (
    <Dropdown
      width={260}
      target={(toggle) => (
        <DropdownTarget>
          <UnstyledButton onClick={toggle} aria-label={t('menu.user')} className="vf-user-button">
            <span className="vf-avatar" aria-hidden>
              {initials(name)}
            </span>
            <span className="vf-hide-small">{name}</span>
            <ChevronDownIcon />
          </UnstyledButton>
        </DropdownTarget>
      )}
    >
      {me.email && <DropdownLabel>{me.email}</DropdownLabel>}
      <DropdownItem to="/profile">{t('menu.profile')}</DropdownItem>
      {canSeeCompanySettings(access) && (
        <DropdownItem to="/company/manage">{t('menu.companySettings')}</DropdownItem>
      )}
      {multiCompany && (
        <>
          <DropdownDivider />
          <DropdownLabel>{t('menu.switchCompany')}</DropdownLabel>
          {(companies?.data ?? []).map((c) => (
            <DropdownItem
              key={c._id}
              current={c._id === company._id}
              disabled={c._id === company._id}
              onClick={() => void switchTo(c._id)}
            >
              {c.name}
            </DropdownItem>
          ))}
        </>
      )}
      <DropdownDivider />
      <DropdownLabel>{t('menu.version', { version: APP_VERSION })}</DropdownLabel>
      <DropdownItem to="/logout" danger>
        {t('menu.logOut')}
      </DropdownItem>
    </Dropdown>
  );
}
