import {
  Button,
  FileInput,
  Group,
  NativeSelect,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { showToast } from '../../components/toast-store.ts';
import { formatDate } from '../../lib/format.ts';
import { downloadFrom } from '../../lib/upload.ts';
import {
  type AssetView,
  type DocumentView,
  fileSize,
  useAssetDocumentLink,
  useAssetDocuments,
  useDeleteAssetDocument,
  useDocumentCategories,
  useUpdateAssetDocument,
  useUploadAssetDocument,
} from './api.ts';
import { AssetFrame, useMayChangeSite } from './asset-frame.tsx';
import { CertificateSearch } from './certificate-search.tsx';
import { FormAlert, UploadProgress, useFormFailure } from './ui.tsx';

function UploadForm({ asset, categories }: { asset: AssetView; categories: string[] }) {
  const uploadDocument = useUploadAssetDocument(asset._id);
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState('');
  const [category, setCategory] = useState('');
  const [percent, setPercent] = useState<number>();
  const form = useFormFailure();

  async function upload(event: FormEvent) {
    event.preventDefault();
    if (!file) {
      form.setFailure({ fields: { file: 'Choose a file' } });
      return;
    }
    const kept = await form.run(() =>
      uploadDocument(file, { name: name.trim() || file.name, ...(category ? { category } : {}) }, setPercent),
    );
    if (!kept) return;
    showToast(`${kept.name} was uploaded`, 'success');
    setFile(null);
    setName('');
  }

  return (
    <Paper withBorder p="md" component="form" onSubmit={upload} aria-label="Upload a document">
      <Stack>
        <Title order={4}>Upload a document</Title>
        <FormAlert failure={form.failure} />
        <Group align="end" wrap="wrap">
          <FileInput
            label="File"
            placeholder="Choose a file"
            value={file}
            onChange={setFile}
            error={form.fields.file ?? form.fields.fileName}
            clearable
            w={260}
          />
          <TextInput
            label="Name"
            placeholder="The file's name"
            value={name}
            error={form.fields.name}
            onChange={(e) => setName(e.currentTarget.value)}
          />
          <NativeSelect
            label="Category"
            value={category}
            error={form.fields.category}
            onChange={(e) => setCategory(e.currentTarget.value)}
            data={[{ value: '', label: 'No category' }, ...categories]}
          />
          <Button type="submit" loading={form.busy}>
            Upload
          </Button>
        </Group>
        <UploadProgress percent={percent} label="Document upload" />
      </Stack>
    </Paper>
  );
}

function DocumentRow({
  asset,
  doc,
  categories,
}: {
  asset: AssetView;
  doc: DocumentView;
  categories: string[];
}) {
  const documentLink = useAssetDocumentLink(asset._id);
  const updateDocument = useUpdateAssetDocument(asset._id);
  const deleteDocument = useDeleteAssetDocument(asset._id);
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(doc.name);
  const [category, setCategory] = useState(doc.category ?? '');
  const form = useFormFailure();
  const mayChange = useMayChangeSite(asset);

  async function download() {
    const link = await form.run(() => documentLink(doc._id));
    if (link) downloadFrom(link.downloadUrl);
  }
  async function save() {
    if (await form.run(() => updateDocument(doc._id, { name, ...(category ? { category } : {}) }))) {
      setEditing(false);
    }
  }
  async function remove() {
    if (!window.confirm(`Delete ${doc.name}?`)) return;
    await form.run(() => deleteDocument(doc._id));
  }

  return (
    <Table.Tr>
      <Table.Td>
        {editing ? (
          <TextInput
            size="xs"
            aria-label="Name"
            value={name}
            error={form.fields.name}
            onChange={(e) => setName(e.currentTarget.value)}
          />
        ) : (
          doc.name
        )}
        {form.failure.message && (
          <Text size="xs" c="red" role="alert">
            {form.failure.message}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        {editing ? (
          <NativeSelect
            size="xs"
            aria-label="Category"
            value={category}
            error={form.fields.category}
            onChange={(e) => setCategory(e.currentTarget.value)}
            data={[{ value: '', label: 'No category' }, ...categories]}
          />
        ) : (
          doc.category
        )}
      </Table.Td>
      <Table.Td>{doc.fileName}</Table.Td>
      <Table.Td>{fileSize(doc.size)}</Table.Td>
      <Table.Td>{formatDate(doc.createdAt)}</Table.Td>
      <Table.Td>
        <Group gap={4} wrap="nowrap">
          {editing ? (
            <Button size="compact-xs" onClick={save} loading={form.busy}>
              Save
            </Button>
          ) : (
            <>
              <Button
                size="compact-xs"
                variant="light"
                onClick={download}
                aria-label={`Download ${doc.name}`}
              >
                Download
              </Button>
              {mayChange && (
                <Button size="compact-xs" variant="subtle" onClick={() => setEditing(true)}>
                  Edit
                </Button>
              )}
            </>
          )}
          {mayChange && (
            <Button size="compact-xs" variant="subtle" color="red" onClick={remove}>
              Delete
            </Button>
          )}
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

/** /assets/{id}/documents: the site's documents (upload with progress, download) and its EPC certificates. */
export function AssetDocumentsPage() {
  return <AssetFrame tab="documents">{(asset) => <AssetDocuments asset={asset} />}</AssetFrame>;
}

/** Readers see the documents and may download them; uploading and editing are for writers. */
export function AssetDocuments({ asset }: { asset: AssetView }) {
  const categories = useDocumentCategories();
  const mayChange = useMayChangeSite(asset);
  return (
    <Stack>
      {mayChange && <UploadForm asset={asset} categories={categories} />}
      <DocumentList asset={asset} categories={categories} />
      <CertificateSearch asset={asset} />
    </Stack>
  );
}

function DocumentList({ asset, categories }: { asset: AssetView; categories: string[] }) {
  const { data, error, isLoading } = useAssetDocuments(asset._id);
  if (isLoading) return <LoadingPanel />;
  if (error) return <ErrorPanel error={error} />;
  if (!data || data.total === 0) return <EmptyPanel>No documents yet.</EmptyPanel>;
  return (
    <Paper withBorder>
      <Table aria-label="Documents">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Category</Table.Th>
            <Table.Th>File</Table.Th>
            <Table.Th>Size</Table.Th>
            <Table.Th>Added</Table.Th>
            <Table.Th aria-label="Actions" />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {data.data.map((doc) => (
            <DocumentRow key={doc._id} asset={asset} doc={doc} categories={categories} />
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}
