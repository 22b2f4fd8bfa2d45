import { Badge, Group, Text } from '@mantine/core';
import type { StatusLook } from './validation-state.ts';
import { lookOfCheck, lookOfValidation } from './validation-state.ts';

const stroke = {
  viewBox: '0 0 24 24',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 2.5,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
} as const;

/** The status icons of the validation lists; decorative, the label beside or around them names the status. */
export function StatusGlyph({ icon, size = 14 }: { icon: StatusLook['icon']; size?: number }) {
  return (
    <svg {...stroke} width={size} height={size} aria-hidden="true">
      {icon === 'check' && <path d="m5 12 5 5 9-10" />}
      {icon === 'cross' && <path d="M6 6l12 12M18 6 6 18" />}
      {icon === 'alert' && <path d="M12 4 2.5 20h19zM12 10v4M12 17.5v.01" />}
      {icon === 'bang' && (
        <>
          <circle cx="12" cy="12" r="9" />
          <path d="M12 7v6M12 16.5v.01" />
        </>
      )}
      {icon === 'clock' && (
        <>
          <circle cx="12" cy="12" r="9" />
          <path d="M12 7v5l3 2" />
        </>
      )}
      {icon === 'dash' && <path d="M6 12h12" />}
    </svg>
  );
}

function LookIcon({ look }: { look: StatusLook }) {
  return (
    <span
      style={{
        display: 'inline-flex',
        alignItems: 'center',
        justifyContent: 'center',
        width: 22,
        height: 22,
        borderRadius: '50%',
        color: `var(--mantine-color-${look.colour}-filled)`,
        background: `var(--mantine-color-${look.colour}-light)`,
      }}
    >
      <StatusGlyph icon={look.icon} />
    </span>
  );
}

/** A validation status: its icon and colour, and its name for those who do not read colours. */
export function ValidationStatusBadge({ status }: { status: string }) {
  const look = lookOfValidation(status);
  return (
    <Badge
      color={look.colour}
      variant="light"
      leftSection={<StatusGlyph icon={look.icon} size={12} />}
      aria-label={`Validation: ${look.label}`}
      data-validation={status}
    >
      {look.label}
    </Badge>
  );
}

export function CheckStatusIcon({ status }: { status: string }) {
  const look = lookOfCheck(status);
  return (
    <Group gap={6} wrap="nowrap">
      <LookIcon look={look} />
      <Text size="sm" c={look.colour === 'gray' ? 'dimmed' : `${look.colour}.8`} fw={500}>
        {look.label}
      </Text>
    </Group>
  );
}

const UPLOAD_LOOK: Record<string, { label: string; colour: string }> = {
  uploading: { label: 'Uploading', colour: 'blue' },
  uploaded: { label: 'Uploaded', colour: 'blue' },
  queued: { label: 'Queued', colour: 'gray' },
  pending: { label: 'Pending', colour: 'gray' },
  processing: { label: 'Processing', colour: 'cyan' },
  captured: { label: 'Captured', colour: 'green' },
  error: { label: 'Error', colour: 'red' },
  manual: { label: 'Manual', colour: 'orange' },
  completed: { label: 'Completed', colour: 'teal' },
};

/** An invoice's capture status (uploading … captured, error, manual, completed). */
export function InvoiceStatusBadge({ status }: { status: string }) {
  const look = UPLOAD_LOOK[status] ?? { label: status, colour: 'gray' };
  return (
    <Badge color={look.colour} variant="light" data-status={status}>
      {look.label}
    </Badge>
  );
}
