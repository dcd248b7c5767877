/** A credential's kind: what the secret is for. */
export type CredentialKind = 'huggingface' | 'modelscope' | 'wandb' | 'registry' | 'generic';

/** A stored credential as its owner sees it: never the value. */
export interface Credential {
  name: string;
  kind: CredentialKind;
  host?: string | null;
  username?: string | null;
  description?: string | null;
  createdAt: string;
  updatedAt: string;
  lastUsedAt?: string | null;
}

export interface CreateCredential {
  name: string;
  kind: CredentialKind;
  host?: string;
  username?: string;
  description?: string;
  value: string;
}

export interface ReplaceCredential {
  value: string;
  description?: string;
  /** Registry credentials only: a new host or username (unchanged when absent). */
  host?: string;
  username?: string;
}

/** An environment value of a job spec: plain text, or a reference to one of the submitter's credentials. */
export type EnvValue = string | { credential: string };
