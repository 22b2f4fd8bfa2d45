import {
  Anchor,
  Badge,
  Button,
  Grid,
  Group,
  MultiSelect,
  NativeSelect,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import type { MessageStatus } from '../../../shared/schemas/collaboration.ts';
import { DISCUSSION_MESSAGES } from '../../../shared/schemas/discussion-messages.ts';
import { Breadcrumbs } from '../../components/breadcrumbs.tsx';
import { FormAlert } from '../../components/form-alert.tsx';
import { FormPanel } from '../../components/form-panel.tsx';
import { UploadField, useFormSubmit } from '../../components/form-parts.tsx';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { useSession } from '../../lib/app-context.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useMayChange } from '../../lib/may-change.ts';
import { downloadFrom } from '../../lib/upload.ts';
import {
  type MessageMember,
  type MessageView,
  type ReplyView,
  useAssign,
  useAttachmentLink,
  useAttachToThread,
  useDeleteReply,
  useEditReply,
  useMembers,
  useReply,
  useSite,
  useSiteAccounts,
  useStartThread,
  useThread,
  useThreadAttachmentLink,
  useThreads,
  useUpdateThread,
  useUploadAttachment,
} from './api.ts';

const discussionPath = (assetId: string, messageId?: string) =>
  `/assets/${assetId}/discussion${messageId ? `/${messageId}` : ''}`;

const nameOf = (members: readonly MessageMember[], sub: string | undefined, fallback?: string) =>
  members.find((m) => m.userSub === sub)?.name ?? fallback ?? sub ?? '';

function StatusBadge({ status }: { status: MessageStatus }) {
  return (
    <Badge color={status === 'resolved' ? 'green' : 'blue'}>
      {status === 'resolved' ? 'Resolved' : 'Open'}
    </Badge>
  );
}

/** Pick members to mention; each picked name is written into the text as @name as well. */
function MentionPicker({
  members,
  value,
  onChange,
  error,
}: {
  members: readonly MessageMember[];
  value: string[];
  onChange: (subs: string[]) => void;
  error?: string;
}) {
  return (
    <MultiSelect
      label="Mention"
      description="Only people who may read this site can be mentioned"
      placeholder={value.length ? undefined : 'Pick people to notify'}
      data={members.map((m) => ({ value: m.userSub, label: m.name }))}
      value={value}
      onChange={onChange}
      error={error}
      searchable
      clearable
    />
  );
}

const withMentions = (body: string, subs: readonly string[], members: readonly MessageMember[]) => {
  const missing = subs.map((s) => `@${nameOf(members, s)}`).filter((tag) => !body.includes(tag));
  return missing.length ? `${body}${body ? ' ' : ''}${missing.join(' ')}` : body;
};

function ThreadList({ assetId, selected }: { assetId: string; selected?: string }) {
  const [status, setStatus] = useState<MessageStatus | 'all'>('open');
  const threads = useThreads(assetId, status);
  const mayWrite = useMayChange();
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={4}>Discussions</Title>
        {mayWrite && (
          <Button component={Link} to={discussionPath(assetId)} size="xs">
            Start a discussion
          </Button>
        )}
      </Group>
      <SegmentedControl
        size="xs"
        value={status}
        onChange={(v) => setStatus(v as MessageStatus | 'all')}
        data={[
          { value: 'open', label: 'Open' },
          { value: 'resolved', label: 'Resolved' },
          { value: 'all', label: 'All' },
        ]}
        aria-label="Show discussions"
      />
      {threads.isLoading && <LoadingPanel />}
      {threads.error && <ErrorPanel error={threads.error} />}
      {threads.data && threads.data.data.length === 0 && <EmptyPanel>No discussions here yet.</EmptyPanel>}
      <Stack gap={4} component="nav" aria-label="Discussions of this site">
        {threads.data?.data.map((t) => (
          <UnstyledButton
            key={t._id}
            component={Link}
            to={discussionPath(assetId, t._id)}
            aria-current={t._id === selected ? 'page' : undefined}
          >
            <Paper withBorder p="xs" bg={t._id === selected ? 'var(--mantine-color-blue-light)' : undefined}>
              <Group justify="space-between" wrap="nowrap">
                <Text fw={500} size="sm" lineClamp={1}>
                  {t.subject}
                </Text>
                <StatusBadge status={t.status} />
              </Group>
              <Text size="xs" c="dimmed">
                {[
                  t.category,
                  `${t.replyCount} ${t.replyCount === 1 ? 'reply' : 'replies'}`,
                  formatDateTime(t.createdAt),
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </Text>
            </Paper>
          </UnstyledButton>
        ))}
      </Stack>
    </Stack>
  );
}

function NewThread({ assetId, members }: { assetId: string; members: MessageMember[] }) {
  const { company } = useSession();
  const [params] = useSearchParams();
  const invoiceId = params.get('invoiceId') ?? undefined;
  const accounts = useSiteAccounts(assetId);
  const start = useStartThread();
  const navigate = useNavigate();
  const form = useFormSubmit(DISCUSSION_MESSAGES.submitProblem);
  const [subject, setSubject] = useState(invoiceId ? 'Bill failed validation' : '');
  const [category, setCategory] = useState('');
  const [accountIds, setAccountIds] = useState<string[]>([]);
  const [body, setBody] = useState('');
  const [mentions, setMentions] = useState<string[]>([]);
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const upload = useUploadAttachment();
  const attach = useAttachToThread();
  const categories = company.settings?.messageCategories ?? [];
  const submit = () =>
    form.submit(async () => {
      const made = await start({
        subject,
        body: withMentions(body, mentions, members),
        ...(category ? { category } : {}),
        assetId,
        accountIds,
        mentions,
        ...(invoiceId ? { invoiceId } : {}),
      });
      // An upload names its thread, so the file follows the thread's creation.
      if (file) await attach(made._id, [await upload(made._id, file, setProgress)]);
      navigate(discussionPath(assetId, made._id));
    });
  return (
    <FormPanel title="Start a discussion" label="Start a discussion" failure={form.failure} onSubmit={submit}>
      {invoiceId && (
        <Text size="sm" c="dimmed">
          About a bill: its failed checks will be quoted at the top of the discussion.
        </Text>
      )}
      <TextInput
        label="Title"
        required
        value={subject}
        onChange={(e) => setSubject(e.currentTarget.value)}
        error={form.fields.subject}
      />
      <NativeSelect
        label="Category"
        value={category}
        onChange={(e) => setCategory(e.currentTarget.value)}
        error={form.fields.category}
        data={[{ value: '', label: 'None' }, ...categories]}
      />
      <MultiSelect
        label="Meters"
        placeholder={accountIds.length ? undefined : 'Optional'}
        data={(accounts.data?.data ?? []).map((a) => ({
          value: a._id,
          label: [a.name, a.meterPointNumber].filter(Boolean).join(' · ') || a._id,
        }))}
        value={accountIds}
        onChange={setAccountIds}
        error={form.fields.accountIds}
        searchable
        clearable
      />
      <Textarea
        label="Message"
        autosize
        minRows={4}
        value={body}
        onChange={(e) => setBody(e.currentTarget.value)}
        error={form.fields.body}
      />
      <MentionPicker
        members={members}
        value={mentions}
        onChange={setMentions}
        error={form.fields.mentions ?? form.fields.invoiceId}
      />
      <UploadField
        id={`thread-attachment-${assetId}`}
        label="Attachment (PDF or picture)"
        accept="application/pdf,image/png,image/jpeg,image/tiff"
        progress={progress}
        error={form.fields.attachments ?? form.fields.size}
        onChange={(f) => {
          setFile(f);
          setProgress(null);
        }}
      />
      <Group justify="flex-end">
        <Button type="submit" loading={form.busy}>
          Start discussion
        </Button>
      </Group>
    </FormPanel>
  );
}

function Reply({
  thread,
  reply,
  members,
}: {
  thread: MessageView;
  reply: ReplyView;
  members: MessageMember[];
}) {
  const { me } = useSession();
  const edit = useEditReply();
  const remove = useDeleteReply();
  const link = useAttachmentLink();
  const form = useFormSubmit(DISCUSSION_MESSAGES.replyProblem);
  const [editing, setEditing] = useState<string | null>(null);
  const own = reply.authorSub === me.sub;
  return (
    <Paper
      withBorder
      p="sm"
      component="article"
      aria-label={`Reply by ${nameOf(members, reply.authorSub, reply.authorName)}`}
    >
      <Stack gap={6}>
        <Group justify="space-between">
          <Text size="sm" fw={500}>
            {nameOf(members, reply.authorSub, reply.authorName)}
          </Text>
          <Text size="xs" c="dimmed">
            {formatDateTime(reply.createdAt)}
            {reply.editedAt ? ' (edited)' : ''}
          </Text>
        </Group>
        <FormAlert failure={form.failure} />
        {editing === null ? (
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {reply.body}
          </Text>
        ) : (
          <Textarea
            aria-label="Edit reply"
            autosize
            value={editing}
            onChange={(e) => setEditing(e.currentTarget.value)}
            error={form.fields.body}
          />
        )}
        {reply.attachments.length > 0 && (
          <Group gap="xs">
            {reply.attachments.map((a) => (
              <Button
                key={a.attachmentId}
                size="compact-xs"
                variant="light"
                onClick={() =>
                  form.submit(async () =>
                    downloadFrom((await link(thread._id, reply.replyId, a.attachmentId)).downloadUrl),
                  )
                }
              >
                {a.fileName}
              </Button>
            ))}
          </Group>
        )}
        {own && (
          <Group gap="xs" justify="flex-end">
            {editing === null ? (
              <>
                <Button size="compact-xs" variant="subtle" onClick={() => setEditing(reply.body)}>
                  Edit
                </Button>
                <Button
                  size="compact-xs"
                  variant="subtle"
                  color="red"
                  onClick={() => form.submit(async () => void (await remove(thread._id, reply.replyId)))}
                >
                  Delete
                </Button>
              </>
            ) : (
              <>
                <Button size="compact-xs" variant="default" onClick={() => setEditing(null)}>
                  Cancel
                </Button>
                <Button
                  size="compact-xs"
                  loading={form.busy}
                  onClick={() =>
                    form.submit(async () => {
                      await edit(thread._id, reply.replyId, editing);
                      setEditing(null);
                    })
                  }
                >
                  Save
                </Button>
              </>
            )}
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

function ReplyForm({ thread, members }: { thread: MessageView; members: MessageMember[] }) {
  const reply = useReply();
  const upload = useUploadAttachment();
  const form = useFormSubmit(DISCUSSION_MESSAGES.replyProblem);
  const [body, setBody] = useState('');
  const [mentions, setMentions] = useState<string[]>([]);
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [inputKey, setInputKey] = useState(0);
  const submit = () =>
    form.submit(async () => {
      const attachments = file ? [await upload(thread._id, file, setProgress)] : [];
      await reply(thread._id, { body: withMentions(body, mentions, members), mentions, attachments });
      setBody('');
      setMentions([]);
      setFile(null);
      setProgress(null);
      setInputKey((k) => k + 1);
    });
  return (
    <FormPanel title="Reply" label="Reply" failure={form.failure} onSubmit={submit}>
      <Textarea
        aria-label="Your reply"
        autosize
        minRows={3}
        value={body}
        onChange={(e) => setBody(e.currentTarget.value)}
        error={form.fields.body}
      />
      <MentionPicker members={members} value={mentions} onChange={setMentions} error={form.fields.mentions} />
      <UploadField
        key={inputKey}
        id={`attachment-${thread._id}`}
        label="Attachment (PDF or picture)"
        accept="application/pdf,image/png,image/jpeg,image/tiff"
        progress={progress}
        error={form.fields.attachments ?? form.fields.size}
        onChange={(f) => {
          setFile(f);
          setProgress(null);
        }}
      />
      <Group justify="flex-end">
        <Button type="submit" loading={form.busy}>
          Send reply
        </Button>
      </Group>
    </FormPanel>
  );
}

function Thread({ id, members }: { id: string; members: MessageMember[] }) {
  const thread = useThread(id);
  const update = useUpdateThread();
  const assign = useAssign();
  const threadLink = useThreadAttachmentLink();
  const form = useFormSubmit(DISCUSSION_MESSAGES.assignProblem);
  const mayWrite = useMayChange();
  if (thread.isLoading) return <LoadingPanel />;
  if (thread.error || !thread.data)
    return <ErrorPanel error={thread.error ?? new Error('Discussion not found')} />;
  const t = thread.data;
  const resolved = t.status === 'resolved';
  return (
    <Stack gap="md">
      <Paper withBorder p="md">
        <Stack gap="xs">
          <Group justify="space-between" align="flex-start">
            <Stack gap={2}>
              <Title order={3}>{t.subject}</Title>
              <Text size="xs" c="dimmed">
                {[
                  t.category,
                  `Started by ${nameOf(members, t.authorSub, t.authorName)}`,
                  formatDateTime(t.createdAt),
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </Text>
            </Stack>
            <StatusBadge status={t.status} />
          </Group>
          {t.body && (
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
              {t.body}
            </Text>
          )}
          {t.attachments.length > 0 && (
            <Group gap="xs" aria-label="Files of the discussion">
              {t.attachments.map((a) => (
                <Button
                  key={a.attachmentId}
                  size="compact-xs"
                  variant="light"
                  onClick={() =>
                    form.submit(async () =>
                      downloadFrom((await threadLink(t._id, a.attachmentId)).downloadUrl),
                    )
                  }
                >
                  {a.fileName}
                </Button>
              ))}
            </Group>
          )}
          {t.accountIds.length > 0 && (
            <Group gap="xs">
              <Text size="xs" c="dimmed">
                Meters:
              </Text>
              {t.accountIds.map((a) => (
                <Anchor key={a} component={Link} to={`/accounts/${a}`} size="xs">
                  {a}
                </Anchor>
              ))}
            </Group>
          )}
          <FormAlert failure={form.failure} />
          <Group align="flex-end">
            <NativeSelect
              label="Assigned to"
              disabled={!mayWrite}
              value={t.assignedUserSub ?? ''}
              error={form.fields.userSub}
              onChange={(e) => {
                const sub = e.currentTarget.value;
                void form.submit(async () => void (await assign(t._id, sub || null)));
              }}
              data={[
                { value: '', label: 'Nobody' },
                ...members.map((m) => ({ value: m.userSub, label: m.name })),
              ]}
            />
            {mayWrite && (
              <Button
                variant={resolved ? 'default' : 'filled'}
                color={resolved ? undefined : 'green'}
                onClick={() =>
                  form.submit(
                    async () => void (await update(t._id, { status: resolved ? 'open' : 'resolved' })),
                  )
                }
              >
                {resolved ? 'Reopen' : 'Mark resolved'}
              </Button>
            )}
          </Group>
        </Stack>
      </Paper>
      <Stack gap="xs" aria-label="Replies">
        {t.replies.length === 0 && (
          <Text size="sm" c="dimmed">
            No replies yet.
          </Text>
        )}
        {t.replies.map((r) => (
          <Reply key={r.replyId} thread={t} reply={r} members={members} />
        ))}
      </Stack>
      {mayWrite && <ReplyForm thread={t} members={members} />}
    </Stack>
  );
}

/** /assets/:id/discussion/:messageId?: the site's threads beside the one open, or a new one. */
export function DiscussionPage() {
  const { id, messageId } = useParams();
  const site = useSite(id);
  const members = useMembers(id);
  const mayWrite = useMayChange();
  if (!id) return null;
  if (site.isLoading) return <LoadingPanel />;
  if (site.error || !site.data) return <ErrorPanel error={site.error ?? new Error('Site not found')} />;
  const people = members.data?.data ?? [];
  return (
    <Stack gap="md">
      <Breadcrumbs
        items={[
          { label: 'Sites', to: '/assets' },
          { label: site.data.siteName, to: `/assets/${id}/overview` },
          { label: 'Discussion' },
        ]}
      />
      <Title order={2}>Discussion · {site.data.siteName}</Title>
      <Grid>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <ThreadList assetId={id} selected={messageId} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8 }}>
          {messageId ? (
            <Thread key={messageId} id={messageId} members={people} />
          ) : mayWrite ? (
            <NewThread assetId={id} members={people} />
          ) : (
            <EmptyPanel>Open a discussion to read it.</EmptyPanel>
          )}
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

// The router loads a page module and renders its `Component`.
export { DiscussionPage as Component };
