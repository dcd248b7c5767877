/** A notification channel: the console's bell, e-mail, or the user's webhooks. */
export type NotificationChannel = 'in-app' | 'email' | 'webhook';

/** One kind on one channel: on or off, and what it would be without the user's choice. */
export interface NotificationPreference {
  kind: string;
  channel: NotificationChannel;
  enabled: boolean;
  byDefault: boolean;
}

/** Every kind on every channel, the waiting threshold (minutes) and whether this server sends e-mail at all. */
export interface NotificationPreferences {
  kinds: string[];
  channels: NotificationChannel[];
  preferences: NotificationPreference[];
  waitingThresholdMinutes: number;
  mailEnabled: boolean;
}

export interface NotificationPreferenceChange {
  kind: string;
  channel: NotificationChannel;
  enabled: boolean;
}

/** A PUT: the listed (kind, channel) pairs and, when given, the waiting threshold in minutes. */
export interface NotificationPreferencesUpdate {
  preferences?: NotificationPreferenceChange[];
  waitingThresholdMinutes?: number;
}

/** How a webhook's body is shaped: Crater's own JSON, or a chat's incoming-webhook message. */
export type WebhookFormat = 'generic' | 'slack' | 'feishu' | 'dingtalk';

/** A webhook as its owner sees it: never its secret, its URL only up to the first path segment. */
export interface Webhook {
  id: string;
  name: string;
  url: string;
  format: WebhookFormat;
  kinds: string[];
  createdAt: string;
  lastState: WebhookDeliveryState | null;
  lastStatusCode: number | null;
  lastAttemptAt: string | null;
}

export interface WebhookCreate {
  name: string;
  url: string;
  format: WebhookFormat;
  kinds?: string[];
}

/** A webhook just made, with its signing secret: shown this once. */
export interface WebhookCreated {
  webhook: Webhook;
  secret: string;
}

export interface WebhookList {
  items: Webhook[];
  formats: WebhookFormat[];
  kinds: string[];
}

export type WebhookDeliveryState = 'pending' | 'sending' | 'sent' | 'failed';

/** One attempt: the receiver's HTTP status (null when none came), its duration in milliseconds, the error. */
export interface WebhookAttempt {
  attempt: number;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  at: string;
}

export interface WebhookDelivery {
  id: number;
  kind: string;
  message: string;
  state: WebhookDeliveryState;
  attempts: number;
  createdAt: string;
  sentAt: string | null;
  nextAttemptAt: string | null;
  lastError: string | null;
  tries: WebhookAttempt[];
}

export interface WebhookDeliveries {
  items: WebhookDelivery[];
}
