/** Wire types of the Crater REST API (v1): Current user (/me). */

import type { AccountKind, AccountRole, FileAccess } from './accounts';
import type { Role } from './auth';

export interface MyAccount {
  slug: string;
  name: string;
  kind: AccountKind;
  role: AccountRole;
  fileAccess: FileAccess;
  expiresAt: string | null;
}

export interface Me {
  id: string;
  username: string;
  slug: string;
  uid: number;
  displayName: string;
  email: string | null;
  role: Role;
  defaultAccount: string;
  accounts: MyAccount[];
}

export interface ProfileUpdate {
  displayName?: string;
  email?: string;
}

export interface PasswordChange {
  currentPassword: string;
  newPassword: string;
}

export interface AccessToken {
  id: string;
  name: string;
  prefix: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  createdAt: string;
}

export interface CreatedAccessToken {
  id: string;
  name: string;
  prefix: string;
  expiresAt: string | null;
  createdAt: string;
  /** The secret; the server shows it only in this answer. */
  token: string;
}

export interface SshKey {
  id: string;
  name: string;
  type: string;
  fingerprint: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export interface Notification {
  id: string;
  /** The code the console renders it by (see reasonCodes.json), with `args`. */
  kind: string;
  /** The English text, shown when `args` is missing (notifications written before they had arguments). */
  message: string;
  args?: Record<string, string | number> | null;
  link: string | null;
  createdAt: string;
  readAt: string | null;
  /** The e-mail copy: none (not mailed), pending/sending, sent, failed (given up). */
  mail?: 'none' | 'pending' | 'sending' | 'sent' | 'failed';
}
