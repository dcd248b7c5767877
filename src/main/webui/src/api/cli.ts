import { requestJson } from './client';

/** The command-line client as this server hands it out (GET /api/v1/cli, public). */
export interface ClientInfo {
  /** False when the server was started without the client's jar (built by `mvn package`). */
  available: boolean;
  version: string;
  /** The jar's size in bytes; null when not available. */
  sizeBytes: number | null;
  /** The jar's SHA-256, lower-case hex; null when not available. */
  sha256: string | null;
  /** The one line that installs it, e.g. `curl -fsSL https://host/cli/install.sh | sh`; null when not available. */
  install: string | null;
  /** The line that signs in to this server, e.g. `crater login https://host`. */
  login: string;
}

/** Where the jar itself is downloaded from (beside install.sh, outside /api/v1). */
export const CLIENT_JAR_PATH = '/cli/crater.jar';

export function getClientInfo(signal?: AbortSignal): Promise<ClientInfo> {
  return requestJson<ClientInfo>('/cli', { signal });
}
