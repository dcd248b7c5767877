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
