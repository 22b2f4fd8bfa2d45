import {
  Anchor,
  Badge,
  Button,
  Group,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { Link, useNavigate, useParams } from 'react-router';
import { FormPanel } from '../../components/form-panel.tsx';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { clearedFields } from '../../lib/cleared-fields.ts';
import { formatDate, formatNumber } from '../../lib/format.ts';
import { useFormValues } from '../../lib/use-form-values.ts';
import {
  type AssetView,
  type ProjectView,
  useAddProject,
  useDeleteProject,
  useProject,
  useProjects,
  useUpdateProject,
} from './api.ts';
import { AssetFrame, READ_ONLY_SITE, useMayChangeSite } from './asset-frame.tsx';
import { useFormFailure } from './ui.tsx';

export const PROJECT_STATUSES = [
  { value: 'planned', label: 'Planned' },
  { value: 'in-progress', label: 'In progress' },
  { value: 'completed', label: 'Completed' },
  { value: 'cancelled', label: 'Cancelled' },
];
const statusLabel = (s: string) => PROJECT_STATUSES.find((p) => p.value === s)?.label ?? s;
export const projectsPath = (assetId: string) => `/assets/${assetId}/projects`;

export function ProjectStatus({ status }: { status: string }) {
  const colour = status === 'completed' ? 'green' : status === 'cancelled' ? 'gray' : 'blue';
  return (
    <Badge variant="light" color={colour}>
      {statusLabel(status)}
    </Badge>
  );
}

function ProjectList({ asset }: { asset: AssetView }) {
  const { data, error, isLoading } = useProjects(asset._id);
  if (isLoading) return <LoadingPanel />;
  if (error) return <ErrorPanel error={error} />;
  if (!data || data.total === 0) return <EmptyPanel>No projects for this site yet.</EmptyPanel>;
  return (
    <Paper withBorder>
      <Table aria-label="Projects">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Project</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Start</Table.Th>
            <Table.Th>End</Table.Th>
            <Table.Th ta="right">Cost (£)</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {data.data.map((p) => (
            <Table.Tr key={p._id}>
              <Table.Td>
                <Anchor component={Link} to={`${projectsPath(asset._id)}/${p._id}`}>
                  {p.name}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <ProjectStatus status={p.status} />
              </Table.Td>
              <Table.Td>{formatDate(p.startDate)}</Table.Td>
              <Table.Td>{formatDate(p.endDate)}</Table.Td>
              <Table.Td ta="right">{formatNumber(p.cost)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

/** /assets/{id}/projects */
export function AssetProjectsPage() {
  return <AssetFrame tab="projects">{(asset) => <Projects asset={asset} />}</AssetFrame>;
}

function Projects({ asset }: { asset: AssetView }) {
  const mayChange = useMayChangeSite(asset);
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={3}>Projects</Title>
        {mayChange && (
          <Button component={Link} to={`${projectsPath(asset._id)}/create`}>
            New project
          </Button>
        )}
      </Group>
      <ProjectList asset={asset} />
    </Stack>
  );
}

/** The project form of the create and edit pages. */
function ProjectForm({ asset, project }: { asset: AssetView; project?: ProjectView }) {
  const navigate = useNavigate();
  const addProject = useAddProject();
  const updateProject = useUpdateProject();
  const deleteProject = useDeleteProject();
  const form = useFormFailure();
  const mayChange = useMayChangeSite(asset);
  const { values: v, field } = useFormValues(
    {
      name: project?.name ?? '',
      description: project?.description ?? '',
      status: project?.status ?? 'planned',
      startDate: project?.startDate ?? '',
      endDate: project?.endDate ?? '',
      cost: project?.cost === undefined ? '' : String(project.cost),
    },
    form.fields,
  );

  async function save() {
    const body = {
      name: v.name,
      status: v.status,
      ...(v.description.trim() ? { description: v.description } : {}),
      ...(v.startDate ? { startDate: v.startDate } : {}),
      ...(v.endDate ? { endDate: v.endDate } : {}),
      ...(v.cost.trim() ? { cost: Number(v.cost) } : {}),
    };
    const saved = await form.run(() =>
      project
        ? updateProject(project._id, { ...clearedFields(v, project), ...body })
        : addProject({ ...body, assetId: asset._id }),
    );
    if (!saved) return;
    navigate(`${projectsPath(asset._id)}/${saved._id}`);
  }

  async function remove() {
    if (!project || !window.confirm(`Delete ${project.name}?`)) return;
    if (await form.run(() => deleteProject(project._id))) {
      navigate(projectsPath(asset._id));
    }
  }

  if (!mayChange) return <EmptyPanel>{READ_ONLY_SITE}</EmptyPanel>;
  return (
    <FormPanel
      title={project ? `Edit ${project.name}` : 'New project'}
      order={3}
      maw={720}
      failure={form.failure}
      onSubmit={save}
    >
      <TextInput label="Name" required {...field('name')} />
      <Textarea label="Description" {...field('description')} />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <NativeSelect label="Status" {...field('status')} data={PROJECT_STATUSES} />
        <TextInput label="Cost (£)" inputMode="decimal" {...field('cost')} />
        <TextInput label="Start" type="date" {...field('startDate')} />
        <TextInput label="End" type="date" {...field('endDate')} />
      </SimpleGrid>
      <Group>
        <Button type="submit" loading={form.busy}>
          Save
        </Button>
        {project && (
          <Button color="red" variant="subtle" onClick={remove}>
            Delete project
          </Button>
        )}
      </Group>
    </FormPanel>
  );
}

/** /assets/{id}/projects/create */
export function AssetProjectCreatePage() {
  return <AssetFrame tab="projects">{(asset) => <ProjectForm asset={asset} />}</AssetFrame>;
}

function EditProject({ asset }: { asset: AssetView }) {
  const { projectId } = useParams();
  const { data, error, isLoading } = useProject(projectId);
  if (isLoading) return <LoadingPanel />;
  if (error || !data) return <ErrorPanel error={error ?? new Error('No such project')} />;
  return <ProjectForm asset={asset} project={data} />;
}

/** /assets/{id}/projects/{projectId}/edit */
export function AssetProjectEditPage() {
  return <AssetFrame tab="projects">{(asset) => <EditProject asset={asset} />}</AssetFrame>;
}
