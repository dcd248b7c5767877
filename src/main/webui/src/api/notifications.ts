import { requestJson, requestVoid } from './client';
import type {
  NotificationPreferences,
  NotificationPreferencesUpdate,
  WebhookCreate,
  WebhookCreated,
  WebhookDeliveries,
  WebhookDelivery,
  WebhookList,
} from './types';

export function getMyNotificationPreferences(signal?: AbortSignal): Promise<NotificationPreferences> {
  return requestJson<NotificationPreferences>('/me/notification-preferences', { signal });
}

export function putMyNotificationPreferences(body: NotificationPreferencesUpdate): Promise<NotificationPreferences> {
  return requestJson<NotificationPreferences>('/me/notification-preferences', { method: 'PUT', body });
}

/** Whose webhooks: the signed-in user's own, or an account's (its admins). */
export type WebhookScope = { kind: 'me' } | { kind: 'account'; slug: string };

export function webhooksPath(scope: WebhookScope): string {
  return scope.kind === 'me' ? '/me/webhooks' : `/accounts/${encodeURIComponent(scope.slug)}/webhooks`;
}

export function listWebhooks(scope: WebhookScope, signal?: AbortSignal): Promise<WebhookList> {
  return requestJson<WebhookList>(webhooksPath(scope), { signal });
}

export function createWebhook(scope: WebhookScope, body: WebhookCreate): Promise<WebhookCreated> {
  return requestJson<WebhookCreated>(webhooksPath(scope), { method: 'POST', body });
}

export function deleteWebhook(scope: WebhookScope, id: string): Promise<void> {
  return requestVoid(`${webhooksPath(scope)}/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function testWebhook(scope: WebhookScope, id: string): Promise<WebhookDelivery> {
  return requestJson<WebhookDelivery>(`${webhooksPath(scope)}/${encodeURIComponent(id)}/test`, { method: 'POST' });
}

export function listWebhookDeliveries(scope: WebhookScope, id: string, signal?: AbortSignal): Promise<WebhookDeliveries> {
  return requestJson<WebhookDeliveries>(`${webhooksPath(scope)}/${encodeURIComponent(id)}/deliveries`, { signal });
}
