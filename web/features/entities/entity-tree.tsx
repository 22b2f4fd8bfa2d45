import { ActionIcon, Anchor, Badge, Group, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import type { EntityNode } from '../../../shared/schemas/register.ts';
import { formatCount } from '../../lib/format.ts';

const assetsLabel = (n: number) => `${formatCount(n)} ${n === 1 ? 'asset' : 'assets'}`;

function TreeItem({ node, current, depth }: { node: EntityNode; current?: string; depth: number }) {
  const [open, setOpen] = useState(true);
  const hasChildren = node.children.length > 0;
  return (
    <li style={{ listStyle: 'none' }}>
      <Group gap="xs" wrap="nowrap" py={4} pl={depth * 24}>
        {hasChildren ? (
          <ActionIcon
            variant="subtle"
            size="sm"
            onClick={() => setOpen(!open)}
            aria-expanded={open}
            aria-label={`${open ? 'Collapse' : 'Expand'} ${node.legalName}`}
          >
            <Text size="xs">{open ? '▾' : '▸'}</Text>
          </ActionIcon>
        ) : (
          <span style={{ width: 22, display: 'inline-block' }} />
        )}
        <Anchor
          component={Link}
          to={`/entities/${node._id}/structure`}
          fw={node._id === current ? 700 : 500}
          aria-current={node._id === current ? 'page' : undefined}
        >
          {node.legalName}
        </Anchor>
        {node.companyNumber && (
          <Text size="xs" c="dimmed">
            {node.companyNumber}
          </Text>
        )}
        <Badge variant="light" size="sm" tt="none">
          {assetsLabel(node.assetsCount)}
        </Badge>
        {hasChildren && node.totalAssetsCount !== node.assetsCount && (
          <Text size="xs" c="dimmed">
            {assetsLabel(node.totalAssetsCount)} in the group
          </Text>
        )}
      </Group>
      {hasChildren && open && (
        <ul aria-label={`Subsidiaries of ${node.legalName}`} style={{ margin: 0, padding: 0 }}>
          {node.children.map((child) => (
            <TreeItem key={child._id} node={child} current={current} depth={depth + 1} />
          ))}
        </ul>
      )}
    </li>
  );
}

/** The company's entities as a tree, subsidiaries under their parents, each with its number of assets. */
export function EntityTree({ nodes, current }: { nodes: readonly EntityNode[]; current?: string }) {
  return (
    <ul aria-label="Entity structure" style={{ margin: 0, padding: 0 }}>
      {nodes.map((node) => (
        <TreeItem key={node._id} node={node} current={current} depth={0} />
      ))}
    </ul>
  );
}
