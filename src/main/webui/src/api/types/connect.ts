/** Wire types of the Crater REST API (v1): Reaching into a running job: terminal and SSH. */

import type { JobState } from './jobs';

/** One running pod's ways in. */
export interface ConnectPod {
  pod: string;
  /** Path of the terminal WebSocket, same origin (e.g. /api/v1/jobs/j1/terminal?pod=worker-1). */
  terminal: string;
  /** The SSH login name (user+job[+pod]). */
  login: string;
  /** The exact ssh command. */
  command: string;
  /** A ~/.ssh/config entry whose Host line is the alias (for VS Code Remote-SSH). */
  sshConfig: string;
}

/** GET /jobs/{id}/connect. */
export interface JobConnect {
  job: string;
  state: JobState;
  /** Whether the caller may open a terminal or SSH session now (the owner, while it runs). */
  reachable: boolean;
  /** Whether Crater's SSH gateway listens. */
  sshEnabled: boolean;
  sshHost: string;
  sshPort: number;
  pods: ConnectPod[];
}
