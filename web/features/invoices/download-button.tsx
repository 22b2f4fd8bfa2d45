import { Button } from '@mantine/core';

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
