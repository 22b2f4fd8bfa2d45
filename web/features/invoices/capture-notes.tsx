import { Alert, Button, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { canUseRoute } from '../../../shared/access/route-access.ts';
import { routeByPath } from '../../app/routes.ts';
import { useSession } from '../../lib/app-context.tsx';
import type { InvoiceView } from './api.ts';

type Matched = NonNullable<NonNullable<InvoiceView['results']>['supplierMatch']>;

/** How the bill was matched to the supplier, as a reviewer reads it: the strongest evidence first. */
function matchedBy(match: Matched): string {
  switch (match.how) {
    case 'vatNumber':
      return `its VAT number ${match.evidence ?? ''}`;
    case 'website':
      return `its web address on ${match.evidence ?? ''}`;
    case 'email':
      return `its e-mail address on ${match.evidence ?? ''}`;
    case 'exact':
      return 'the same name';
    case 'normalised':
      return 'the same name, set aside case, punctuation and legal form';
    default:
      return 'a close name: check it is the same supplier';
  }
}

/** The create page, filled in with what the bill printed. */
function createLink(match: Matched): string {
  const params = new URLSearchParams();
  if (match.read) params.set('name', match.read);
  if (match.vatNumber) params.set('vatNumber', match.vatNumber);
  if (match.website) params.set('website', match.website);
  return `/suppliers/create?${params.toString()}`;
}

/**
 * What reading a bill without a template found to check: the supplier it names against the suppliers
 * list (with an offer to create the supplier when none matches, to those who may), amounts in another
 * currency than pounds, and totals that do not add up.
 */
export function CaptureNotes({ invoice }: { invoice: InvoiceView }) {
  const { access } = useSession();
  const match = invoice.results?.supplierMatch;
  const problems = invoice.results?.totalsCheck?.problems ?? [];
  const currency = typeof invoice.values.currency === 'string' ? invoice.values.currency.toUpperCase() : '';
  const foreign = currency !== '' && currency !== 'GBP';
  if (!match && problems.length === 0 && !foreign) return null;
  const createRoute = routeByPath('/suppliers/create');
  const mayCreate = createRoute !== undefined && canUseRoute(createRoute.permission, access);
  return (
    <Stack gap="xs" data-testid="capture-notes">
      {match && match.how !== 'none' && (
        <Alert color={match.how === 'fuzzy' ? 'yellow' : 'blue'} title="Supplier" data-match={match.how}>
          <Text size="sm">
            {match.read ? `The bill names “${match.read}”, matched` : 'The bill is matched'} to {match.name}{' '}
            on the suppliers list by {matchedBy(match)}.
          </Text>
        </Alert>
      )}
      {match?.how === 'none' && (
        <Alert color="yellow" title="Supplier not on the list" data-match="none">
          <Stack gap="xs">
            <Text size="sm">
              {match.read ? `The bill names “${match.read}”` : 'The bill names no supplier'}
              {match.vatNumber ? `, prints VAT number ${match.vatNumber}` : ''}
              {match.website ? `, and ${match.website}` : ''}; no supplier on the list matches it.
            </Text>
            {mayCreate ? (
              <Button component={Link} to={createLink(match)} size="xs" variant="light" w="fit-content">
                {match.read ? `Create supplier “${match.read}”` : 'Create supplier'}
              </Button>
            ) : (
              <Text size="sm" c="dimmed">
                Ask an administrator to add it to the suppliers list.
              </Text>
            )}
          </Stack>
        </Alert>
      )}
      {foreign && (
        <Alert color="orange" title={`Amounts in ${currency}`} data-testid="currency-note">
          <Text size="sm">
            The bill is in {currency}, not pounds. Its amounts are kept in {currency} and are not checked
            against sterling contracts, tax and levies: review it before confirming.
          </Text>
        </Alert>
      )}
      {problems.length > 0 && (
        <Alert color="orange" title="Totals that do not add up" data-testid="totals-problems">
          <Stack gap={2}>
            {problems.map((p) => (
              <Text key={p} size="sm">
                {p}
              </Text>
            ))}
            <Text size="xs" c="dimmed">
              Check the net, tax and total against the document before confirming.
            </Text>
          </Stack>
        </Alert>
      )}
    </Stack>
  );
}
