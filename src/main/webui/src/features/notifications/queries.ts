import { queryOptions } from '@tanstack/react-query';
import { getMyNotificationPreferences } from '../../api/notifications';

/** Query-key factory for notification settings and webhooks. */
export const notifyKeys = {
  all: ['notify'] as const,
  preferences: () => [...notifyKeys.all, 'preferences'] as const,
};

export const myNotificationPreferencesQuery = () =>
  queryOptions({ queryKey: notifyKeys.preferences(), queryFn: ({ signal }) => getMyNotificationPreferences(signal) });
