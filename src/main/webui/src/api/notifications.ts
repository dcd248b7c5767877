import { requestJson } from './client';
import type { NotificationPreferences, NotificationPreferencesUpdate } from './types';

export function getMyNotificationPreferences(signal?: AbortSignal): Promise<NotificationPreferences> {
  return requestJson<NotificationPreferences>('/me/notification-preferences', { signal });
}

export function putMyNotificationPreferences(body: NotificationPreferencesUpdate): Promise<NotificationPreferences> {
  return requestJson<NotificationPreferences>('/me/notification-preferences', { method: 'PUT', body });
}
