import { queryOptions } from '@tanstack/react-query';
import { getMyNotificationPreferences, listWebhookDeliveries, listWebhooks, type WebhookScope } from '../../api/notifications';

const scopeKey = (scope: WebhookScope) => (scope.kind === 'me' ? 'me' : `account:${scope.slug}`);

/** Query-key factory for notification settings and webhooks. */
export const notifyKeys = {
  all: ['notify'] as const,
  preferences: () => [...notifyKeys.all, 'preferences'] as const,
  webhooks: (scope: WebhookScope) => [...notifyKeys.all, 'webhooks', scopeKey(scope)] as const,
  deliveries: (scope: WebhookScope, id: string) => [...notifyKeys.webhooks(scope), id, 'deliveries'] as const,
};

export const myNotificationPreferencesQuery = () =>
  queryOptions({ queryKey: notifyKeys.preferences(), queryFn: ({ signal }) => getMyNotificationPreferences(signal) });

export const webhooksQuery = (scope: WebhookScope) =>
  queryOptions({ queryKey: notifyKeys.webhooks(scope), queryFn: ({ signal }) => listWebhooks(scope, signal) });

/** A webhook's delivery log; refreshed every few seconds while a delivery is still pending. */
export const webhookDeliveriesQuery = (scope: WebhookScope, id: string) =>
  queryOptions({
    queryKey: notifyKeys.deliveries(scope, id),
    queryFn: ({ signal }) => listWebhookDeliveries(scope, id, signal),
    refetchInterval: (q) => (q.state.data?.items.some((d) => d.state === 'pending' || d.state === 'sending') ? 3000 : false),
  });
