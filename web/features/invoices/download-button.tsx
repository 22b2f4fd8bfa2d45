import { Button } from '@mantine/core';
import type { ApiClient } from '../../lib/api-client.ts';
import { downloadFrom } from '../../lib/upload.ts';
import type { FileLink } from './api.ts';

/** Asks the API for a short-lived link to a stored file and hands it to the browser to save. */
export async function downloadFile(api: ApiClient, path: string): Promise<void> {
  downloadFrom((await api.get<FileLink>(path)).url);
}

/** A row's Download button, named after the file it fetches. */
export function DownloadButton({
  name,
  disabled,
  onClick,
}: {
  name: string;
  disabled: boolean;
  onClick: () => unknown;
}) {
  return (
    <Button
      size="compact-xs"
      variant="light"
      disabled={disabled}
      onClick={onClick}
      aria-label={`Download ${name}`}
    >
      Download
    </Button>
  );
}
