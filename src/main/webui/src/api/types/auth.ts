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
