import { Divider, Popover, Text, UnstyledButton } from '@mantine/core';
import { createContext, type ReactNode, useCallback, useContext, useState } from 'react';
import { Link } from 'react-router';

/**
 * A small dropdown on Mantine's Popover. Mantine's Menu would bring its search input and more into the
 * first load; these menus only need links and buttons, with focus kept inside while open.
 */
const CloseContext = createContext<() => void>(() => undefined);

export const DropdownTarget = Popover.Target;

export function Dropdown({
  target,
  width,
  children,
}: {
  /** Renders the trigger; it must put a `DropdownTarget` around the element that toggles. */
  target: (toggle: () => void, opened: boolean) => ReactNode;
  width: number;
  children: ReactNode;
}) {
  const [opened, setOpened] = useState(false);
  const close = useCallback(() => setOpened(false), []);
  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      width={width}
      position="bottom-end"
      shadow="md"
      trapFocus
      returnFocus
    >
      {target(() => setOpened((o) => !o), opened)}
      <Popover.Dropdown p={4}>
        <CloseContext value={close}>{children}</CloseContext>
      </Popover.Dropdown>
    </Popover>
  );
}

export function DropdownItem({
  to,
  onClick,
  disabled,
  danger,
  children,
  current,
}: {
  to?: string;
  onClick?: () => void;
  disabled?: boolean;
  danger?: boolean;
  current?: boolean;
  children: ReactNode;
}) {
  const close = useContext(CloseContext);
  const handle = () => {
    close();
    onClick?.();
  };
  const props = {
    className: 'vf-menu-item',
    'data-danger': danger || undefined,
    'aria-current': current || undefined,
    onClick: handle,
  };
  if (to && !disabled) {
    return (
      <UnstyledButton component={Link} to={to} {...props}>
        {children}
      </UnstyledButton>
    );
  }
  return (
    <UnstyledButton {...props} disabled={disabled}>
      {children}
    </UnstyledButton>
  );
}

export function DropdownLabel({ children }: { children: ReactNode }) {
  return (
    <Text size="xs" c="dimmed" fw={500} px="sm" py={6} truncate>
      {children}
    </Text>
  );
}

export function DropdownDivider() {
  return <Divider my={4} />;
}
