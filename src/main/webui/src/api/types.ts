/** Wire types of the Crater REST API (v1), one module per feature under ./types; imported from here. */

export type * from './types/auth';
export type * from './types/cluster';
export type * from './types/common';
export type * from './types/accounts';
export type * from './types/me';
export type * from './types/credentials';
export type * from './types/acceleratorModels';
export type * from './types/users';
export type * from './types/directory';
export type * from './types/approvals';
export type * from './types/audit';
export type * from './types/jobs';
export type * from './types/templates';
export type * from './types/waits';
export type * from './types/connect';
export type * from './types/utilisation';
export type * from './types/accounting';
export type * from './types/gpuMetrics';
export type * from './types/files';
export type * from './types/assets';
export type * from './types/downloads';
export type * from './types/images';
export type * from './types/imageBuilds';
export type * from './types/tensorboards';
export type * from './types/notifications';
export type * from './types/freeAccelerators';
