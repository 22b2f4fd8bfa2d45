import { Anchor, Badge, Group, Paper, Table } from '@mantine/core';
import type { ReactNode } from 'react';
import { UTILITY_TYPE_OPTIONS } from '../../../shared/data/utility-types.ts';
import { formatDate } from '../../lib/format.ts';
import { SUPPLIER_TYPE_LABELS, type Supplier } from './api.ts';
import { SupplierLayout } from './supplier-layout.tsx';

const utilityName = (u: string) => UTILITY_TYPE_OPTIONS.data.find((o) => o.value === u)?.name ?? u;

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Table.Tr>
      <Table.Th w={200}>{label}</Table.Th>
      <Table.Td>{children}</Table.Td>
    </Table.Tr>
  );
}

function Overview({ supplier }: { supplier: Supplier }) {
  return (
    <Paper withBorder p="md" maw={720}>
      <Table>
        <Table.Tbody>
          <Row label="Kind">{SUPPLIER_TYPE_LABELS[supplier.type]}</Row>
          <Row label="Utilities">
            {supplier.utilityTypes.length === 0 ? (
              '—'
            ) : (
              <Group gap={4}>
                {supplier.utilityTypes.map((u) => (
                  <Badge key={u} variant="light" tt="none">
                    {utilityName(u)}
                  </Badge>
                ))}
              </Group>
            )}
          </Row>
          <Row label="VAT number">{supplier.vatNumber || '—'}</Row>
          <Row label="Website">{supplier.website || '—'}</Row>
          <Row label="Customer portal">
            {supplier.portal ? (
              <Anchor href={supplier.portal} target="_blank" rel="noreferrer">
                {supplier.portal}
              </Anchor>
            ) : (
              '—'
            )}
          </Row>
          <Row label="Invoice collection">{supplier.scraperEnabled ? 'On' : 'Off'}</Row>
          <Row label="Logo">{supplier.logoUrl ? 'Uploaded' : 'None'}</Row>
          <Row label="Added">{formatDate(supplier.createdAt) || '—'}</Row>
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

/** /suppliers/{id}/overview */
export function SupplierOverviewPage() {
  return <SupplierLayout tab="overview">{(supplier) => <Overview supplier={supplier} />}</SupplierLayout>;
}
