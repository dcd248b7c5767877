/** Wire types of the Crater REST API (v1): Users (platform admin). */

import type { AccountRole } from './accounts';
import type { Role } from './auth';

export interface ManagedUser {
  id: string;
  username: string;
  slug: string;
  uid: number;
  displayName: string;
  email: string | null;
  role: Role;
  disabled: boolean;
  createdAt: string;
  defaultAccount: string;
  /** The primary group a directory gave the user (null for local users). */
  gid: number | null;
}

export interface UserCreate {
  username: string;
  displayName: string;
  email?: string;
  password?: string;
  role?: Role;
  /** Team accounts joined in the same transaction, with the role in each. */
  accounts?: { account: string; role: AccountRole }[];
}

export interface UserCreated {
  user: ManagedUser;
  /** Present only when the server generated the password; shown once. */
  password?: string;
}

export interface UserUpdate {
  displayName?: string;
  email?: string;
  role?: Role;
  disabled?: boolean;
}

export interface ImportCreated {
  line: number;
  username: string;
  password: string | null;
}

export interface ImportRefused {
  line: number;
  username: string | null;
  reason: string;
}

export interface ImportReport {
  created: ImportCreated[];
  refused: ImportRefused[];
}
