import { createBrowserRouter } from 'react-router';
import { AccountDetailPage } from '../features/accounts/AccountDetailPage';
import { AccountsPage } from '../features/accounts/AccountsPage';
import { PricesPage } from '../features/accounting/PricesPage';
import { AcceleratorModelsPage } from '../features/admin/AcceleratorModelsPage';
import { ReadinessPage } from '../features/cluster/ReadinessPage';
import { AuditPage } from '../features/admin/AuditPage';
import { AccountJobsPage, AdminJobsPage } from '../features/adminJobs/AdminJobsPage';
import { UsersPage } from '../features/admin/UsersPage';
import { ApprovalsPage } from '../features/approvals/ApprovalsPage';
import { LoginPage } from '../features/auth/LoginPage';
import { NodeDetailPage } from '../features/cluster/NodeDetailPage';
import { NodesPage } from '../features/cluster/NodesPage';
import { OverviewPage } from '../features/cluster/OverviewPage';
import { FilesPage } from '../features/files/FilesPage';
import { DataPage } from '../features/assets/DataPage';
import { ImagesPage } from '../features/images/ImagesPage';
import { TensorboardsPage } from '../features/tensorboards/TensorboardsPage';
import { DevicePage } from '../features/device/DevicePage';
import { FreeGpusPage } from '../features/gpus/FreeGpusPage';
import { GpusPage } from '../features/gpus/GpusPage';
import { JobDetailPage } from '../features/jobs/JobDetailPage';
import { JobsPage } from '../features/jobs/JobsPage';
import { NewJobPage } from '../features/jobs/NewJobPage';
import { ProfilePage } from '../features/me/ProfilePage';
import { NotificationSettingsPage } from '../features/notifications/NotificationSettingsPage';
import { TemplatesPage } from '../features/templates/TemplatesPage';
import { AppShell } from './AppShell';
import { NotFoundPage } from './NotFoundPage';
import { RequireAuth, RequireRole } from './RequireAuth';
import { RouteError } from './RouteError';

export const router = createBrowserRouter([
  { path: '/login', element: <LoginPage />, errorElement: <RouteError /> },
  {
    path: '/',
    element: (
      <RequireAuth>
        <AppShell />
      </RequireAuth>
    ),
    errorElement: <RouteError />,
    children: [
      { index: true, element: <OverviewPage /> },
      { path: 'gpus', element: <GpusPage /> },
      { path: 'free-gpus', element: <FreeGpusPage /> },
      { path: 'jobs', element: <JobsPage /> },
      { path: 'jobs/new', element: <NewJobPage /> },
      { path: 'jobs/:id', element: <JobDetailPage /> },
      { path: 'templates', element: <TemplatesPage /> },
      { path: 'files', element: <FilesPage /> },
      { path: 'files/:space/*', element: <FilesPage /> },
      { path: 'data', element: <DataPage /> },
      { path: 'images', element: <ImagesPage /> },
      { path: 'tensorboards', element: <TensorboardsPage /> },
      { path: 'accounts', element: <AccountsPage /> },
      { path: 'accounts/:slug', element: <AccountDetailPage /> },
      { path: 'accounts/:slug/jobs', element: <AccountJobsPage /> },
      { path: 'approvals', element: <ApprovalsPage /> },
      { path: 'profile', element: <ProfilePage /> },
      { path: 'device', element: <DevicePage /> },
      { path: 'notifications', element: <NotificationSettingsPage /> },
      { path: 'prices', element: <PricesPage /> },
      {
        path: 'admin/nodes',
        element: (
          <RequireRole role="admin">
            <NodesPage />
          </RequireRole>
        ),
      },
      {
        path: 'admin/nodes/:name',
        element: (
          <RequireRole role="admin">
            <NodeDetailPage />
          </RequireRole>
        ),
      },
      {
        path: 'admin/jobs',
        element: (
          <RequireRole role="admin">
            <AdminJobsPage />
          </RequireRole>
        ),
      },
      {
        path: 'admin/users',
        element: (
          <RequireRole role="admin">
            <UsersPage />
          </RequireRole>
        ),
      },
      {
        path: 'admin/accelerators',
        element: (
          <RequireRole role="admin">
            <AcceleratorModelsPage />
          </RequireRole>
        ),
      },
      {
        path: 'admin/readiness',
        element: (
          <RequireRole role="admin">
            <ReadinessPage />
          </RequireRole>
        ),
      },
      {
        path: 'admin/audit',
        element: (
          <RequireRole role="admin">
            <AuditPage />
          </RequireRole>
        ),
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);
