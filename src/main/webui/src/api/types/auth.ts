/** Wire types of the Crater REST API (v1): signing in. */

export type Role = 'admin' | 'user';

export interface User {
  id: string;
  username: string;
  displayName: string;
  role: Role;
}

export interface LoginRequest {
  username: string;
  password: string;
}

export interface SessionResponse {
  accessToken: string;
  /** Lifetime of the access token in seconds. */
  expiresIn: number;
  /** For clients without cookies (the CLI); the console keeps it only as the HttpOnly cookie. */
  refreshToken: string;
  user: User;
}

/** An OpenID Connect provider one can sign in with: a button on the sign-in page. */
export interface SignInProvider {
  /** Short name, in `/api/v1/auth/oidc/<name>/start`. */
  name: string;
  displayName: string;
}

export interface SignInProviderList {
  items: SignInProvider[];
}

/** A device sign-in waiting for the signed-in person's decision (RFC 8628); never carries its device code. */
export interface DeviceAuthorization {
  /** As the person reads it: `BCDF-GHJK`. */
  userCode: string;
  /** What the client calls itself, e.g. "crater CLI on ada-laptop": its own words, not checked. */
  clientName: string;
  /** The address the request came from. */
  clientAddress: string;
  createdAt: string;
  expiresAt: string;
}
