import {
  Button,
  Checkbox,
  FileButton,
  Group,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { formatDate, formatNumber } from '../../lib/format.ts';
import { downloadFrom } from '../../lib/upload.ts';
import type { AssetView, ProjectView } from './api.ts';
import {
  useAddTask,
  useDeleteProjectDocument,
  useDeleteTask,
  useProject,
  useProjectDocumentLink,
  useUpdateTask,
  useUploadProjectDocument,
} from './api.ts';
import { AssetFrame, useMayChangeSite } from './asset-frame.tsx';
import { ProjectStatus, projectsPath } from './asset-projects-page.tsx';
import { FormAlert, UploadProgress, useFormFailure } from './ui.tsx';

function Tasks({ project, mayChange }: { project: ProjectView; mayChange: boolean }) {
  const addTask = useAddTask(project._id);
  const updateTask = useUpdateTask(project._id);
  const deleteTask = useDeleteTask(project._id);
  const [title, setTitle] = useState('');
  const [dueDate, setDueDate] = useState('');
  const form = useFormFailure();
  const act = async (action: () => Promise<unknown>) => Boolean(await form.run(action));
  const add = async (event: FormEvent) => {
    event.preventDefault();
    if (await act(() => addTask({ title, ...(dueDate ? { dueDate } : {}) }))) {
      setTitle('');
      setDueDate('');
    }
  };
  return (
    <Paper withBorder p="md">
      <Stack>
        <Title order={4}>Tasks</Title>
        <FormAlert failure={form.failure} />
        {(project.tasks ?? []).length === 0 && <Text c="dimmed">No tasks yet.</Text>}
        {(project.tasks ?? []).map((task) => (
          <Group key={task.taskId} justify="space-between">
            <Checkbox
              label={`${task.title}${task.dueDate ? ` (due ${formatDate(task.dueDate)})` : ''}`}
              checked={task.done}
              disabled={!mayChange}
              onChange={(e) => act(() => updateTask(task.taskId, { done: e.currentTarget.checked }))}
            />
            {mayChange && (
              <Button
                size="compact-xs"
                variant="subtle"
                color="red"
                onClick={() => act(() => deleteTask(task.taskId))}
              >
                Delete
              </Button>
            )}
          </Group>
        ))}
        {mayChange && (
          <Group component="form" onSubmit={add} align="end">
            <TextInput
              label="New task"
              value={title}
              error={form.fields.title}
              onChange={(e) => setTitle(e.currentTarget.value)}
            />
            <TextInput
              label="Due"
              type="date"
              value={dueDate}
              error={form.fields.dueDate}
              onChange={(e) => setDueDate(e.currentTarget.value)}
            />
            <Button type="submit" variant="light" loading={form.busy}>
              Add task
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

function Documents({ project, mayChange }: { project: ProjectView; mayChange: boolean }) {
  const uploadDocument = useUploadProjectDocument(project._id);
  const documentLink = useProjectDocumentLink(project._id);
  const deleteDocument = useDeleteProjectDocument(project._id);
  const [percent, setPercent] = useState<number>();
  const form = useFormFailure();

  async function upload(file: File | null) {
    if (!file) return;
    await form.run(() => uploadDocument(file, setPercent));
  }
  async function download(documentId: string) {
    const link = await form.run(() => documentLink(documentId));
    if (link) downloadFrom(link.downloadUrl);
  }

  return (
    <Paper withBorder p="md">
      <Stack>
        <Group justify="space-between">
          <Title order={4}>Documents</Title>
          {mayChange && (
            <FileButton onChange={upload}>
              {(props) => (
                <Button {...props} size="xs" variant="light" loading={form.busy}>
                  Upload a document
                </Button>
              )}
            </FileButton>
          )}
        </Group>
        <FormAlert failure={form.failure} />
        <UploadProgress percent={percent} label="Project document upload" />
        {(project.documents ?? []).length === 0 && <Text c="dimmed">No documents yet.</Text>}
        <Table>
          <Table.Tbody>
            {(project.documents ?? []).map((doc) => (
              <Table.Tr key={doc.documentId}>
                <Table.Td>{doc.name}</Table.Td>
                <Table.Td>{formatDate(doc.createdAt)}</Table.Td>
                <Table.Td>
                  <Group gap={4}>
                    <Button size="compact-xs" variant="light" onClick={() => download(doc.documentId)}>
                      Download
                    </Button>
                    {mayChange && (
                      <Button
                        size="compact-xs"
                        variant="subtle"
                        color="red"
                        onClick={() => form.run(() => deleteDocument(doc.documentId))}
                      >
                        Delete
                      </Button>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
    </Paper>
  );
}

function Project({ asset }: { asset: AssetView }) {
  const { projectId } = useParams();
  const { data, error, isLoading } = useProject(projectId);
  const mayChange = useMayChangeSite(asset);
  if (isLoading) return <LoadingPanel />;
  if (error || !data) return <ErrorPanel error={error ?? new Error('No such project')} />;
  return (
    <Stack>
      <Group justify="space-between">
        <Group gap="sm">
          <Title order={3}>{data.name}</Title>
          <ProjectStatus status={data.status} />
        </Group>
        <Group gap="xs">
          <Button component={Link} to={projectsPath(asset._id)} variant="subtle">
            All projects
          </Button>
          {mayChange && (
            <Button component={Link} to={`${projectsPath(asset._id)}/${data._id}/edit`} variant="light">
              Edit
            </Button>
          )}
        </Group>
      </Group>
      {data.description && <Text>{data.description}</Text>}
      <Text size="sm" c="dimmed">
        {[
          data.startDate && `From ${formatDate(data.startDate)}`,
          data.endDate && `to ${formatDate(data.endDate)}`,
          data.cost !== undefined && `cost £${formatNumber(data.cost)}`,
        ]
          .filter(Boolean)
          .join(' ')}
      </Text>
      <Tasks project={data} mayChange={mayChange} />
      <Documents project={data} mayChange={mayChange} />
    </Stack>
  );
}

/** /assets/{id}/projects/{projectId}: a project with its tasks and documents. */
export function AssetProjectPage() {
  return <AssetFrame tab="projects">{(asset) => <Project asset={asset} />}</AssetFrame>;
}
