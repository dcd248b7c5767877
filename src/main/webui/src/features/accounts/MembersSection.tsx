import { useState, type FormEvent } from 'react';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { putMember, removeMember } from '../../api/accounts';
import type { AccountRole, FileAccess, Limits, Member } from '../../api/types';
import { ConfirmButton } from '../../components/common/ConfirmButton';
import { FormError } from '../../components/common/Form';
import { DataTable, type Column } from '../../components/common/DataTable';
import { btnPrimary, btnSecondary, btnSmall, inputClass } from '../../components/common/ui';
import { isEmptyLimits } from './limitsForm';
import { LimitsDialog } from './LimitsDialog';
import { accountKeys, membersQuery } from './queries';
import { userListQuery } from '../admin/queries';

const ROLES: AccountRole[] = ['member', 'admin'];
const FILE_ACCESS: FileAccess[] = ['rw', 'ro'];
const selectClass = 'rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm';

/** Compact text of limits: "nvidia-a100-80gb 2 · jobs 3", or a placeholder when nothing is set. */
function LimitsSummary({ limits, empty }: { limits: Limits; empty: string }) {
  const { t } = useTranslation();
  if (isEmptyLimits(limits)) return <span className="text-slate-400">{empty}</span>;
  const parts = Object.entries(limits.resources ?? {}).map(([k, v]) => `${k} ${v}`);
  if (limits.maxRunningJobs != null) parts.push(t('limits.jobsShort', { count: limits.maxRunningJobs }));
  if (limits.maxInteractiveSessions != null) parts.push(t('limits.sessionsShort', { count: limits.maxInteractiveSessions }));
  return <span className="font-mono text-xs">{parts.join(' · ')}</span>;
}

export function MembersSection({
  slug,
  canManage,
  resources,
  suggestUsers = false,
}: {
  slug: string;
  canManage: boolean;
  resources: { key: string; label: string }[];
  /** Suggest usernames as they are typed: platform admins only, who may list users (docs/governance.md). */
  suggestUsers?: boolean;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const members = useQuery(membersQuery(slug));
  const [username, setUsername] = useState('');
  const users = useInfiniteQuery({ ...userListQuery(username.trim()), enabled: suggestUsers && canManage });
  const already = new Set((members.data?.items ?? []).map((m) => m.username));
  const suggestions = (users.data?.pages ?? []).flatMap((p) => p.items.map((u) => u.username)).filter((u) => !already.has(u));
  const [role, setRole] = useState<AccountRole>('member');
  const [fileAccess, setFileAccess] = useState<FileAccess>('rw');
  // undefined = closed, null = account default, string = that member
  const [limitsFor, setLimitsFor] = useState<string | null | undefined>(undefined);

  const invalidate = () => {
    void queryClient.invalidateQueries({ queryKey: accountKeys.detail(slug) });
    void queryClient.invalidateQueries({ queryKey: accountKeys.lists() });
  };
  const add = useMutation({
    mutationFn: (v: { username: string; role: AccountRole; fileAccess: FileAccess }) =>
      putMember(slug, v.username, { role: v.role, fileAccess: v.fileAccess }),
    onSuccess: () => {
      setUsername('');
      setRole('member');
      setFileAccess('rw');
    },
    onSettled: invalidate,
  });
  const change = useMutation({
    mutationFn: (m: Pick<Member, 'username' | 'role' | 'fileAccess'>) =>
      putMember(slug, m.username, { role: m.role, fileAccess: m.fileAccess }),
    onSettled: invalidate,
  });
  const remove = useMutation({ mutationFn: (u: string) => removeMember(slug, u), onSettled: invalidate });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const u = username.trim();
    if (u === '') return;
    add.mutate({ username: u, role, fileAccess });
  };

  const columns: Column<Member>[] = [
    {
      id: 'member',
      header: t('members.member'),
      cell: (m) => (
        <>
          <span className="block font-medium text-slate-800">{m.displayName || m.username}</span>
          <span className="block font-mono text-xs text-slate-500">{m.username}</span>
        </>
      ),
    },
    {
      id: 'role',
      header: t('members.role'),
      cell: (m) => (
        <>
          {canManage ? (
            <select
              data-testid="member-role"
              aria-label={t('members.roleOf', { username: m.username })}
              className={selectClass}
              value={m.role}
              disabled={change.isPending}
              onChange={(e) => change.mutate({ username: m.username, role: e.target.value as AccountRole, fileAccess: m.fileAccess })}
            >
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {t(`members.roles.${r}`)}
                </option>
              ))}
            </select>
          ) : (
            <span data-testid="member-role">{t(`members.roles.${m.role}`)}</span>
          )}
          {m.grantedBy !== 'manual' && (
            <span data-testid="member-granted-by" className="mt-0.5 block text-xs text-slate-500">
              {t(m.grantedBy.startsWith('oidc:') ? 'members.fromProvider' : 'members.fromDirectory', { source: m.grantedBy })}
            </span>
          )}
        </>
      ),
    },
    {
      id: 'fileAccess',
      header: t('members.fileAccess'),
      cell: (m) => (
        <>
          {canManage ? (
            <select
              aria-label={t('members.fileAccessOf', { username: m.username })}
              className={selectClass}
              value={m.fileAccess}
              disabled={change.isPending}
              onChange={(e) => change.mutate({ username: m.username, role: m.role, fileAccess: e.target.value as FileAccess })}
            >
              {FILE_ACCESS.map((f) => (
                <option key={f} value={f}>
                  {t(`members.fileAccessValues.${f}`)}
                </option>
              ))}
            </select>
          ) : (
            t(`members.fileAccessValues.${m.fileAccess}`)
          )}
        </>
      ),
    },
    {
      id: 'limits',
      header: t('members.effectiveLimits'),
      testId: 'member-effective-limits',
      cell: (m) => (
        <>
          <LimitsSummary limits={m.effectiveLimits} empty={t('limits.unlimited')} />
          {!isEmptyLimits(m.limits) && (
            <span className="ml-2 rounded bg-indigo-50 px-1.5 py-0.5 text-xs text-indigo-700">{t('limits.override')}</span>
          )}
        </>
      ),
    },
    {
      id: 'actions',
      className: 'whitespace-nowrap text-right',
      cell: (m) => (
        <>
          <span className="inline-flex gap-1">
            <button type="button" data-testid={`member-limits-${m.username}`} className={btnSmall} onClick={() => setLimitsFor(m.username)}>
              {t('limits.button')}
            </button>
            {canManage && (
              <ConfirmButton testId={`member-remove-${m.username}`} disabled={remove.isPending} onConfirm={() => remove.mutate(m.username)}>
                {t('common.remove')}
              </ConfirmButton>
            )}
          </span>
        </>
      ),
    },
  ];
  return (
    <section aria-labelledby="members-heading" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="members-heading" className="text-lg font-semibold text-slate-800">
          {t('members.title')}
        </h2>
        <button type="button" data-testid="default-limits-open" className={btnSecondary} onClick={() => setLimitsFor(null)}>
          {t('limits.defaultButton')}
        </button>
      </div>
      {canManage && (
        <form onSubmit={submit} className="flex flex-wrap items-end gap-2" aria-label={t('members.add')}>
          <label className="min-w-48 flex-1">
            <span className="mb-1 block text-sm font-medium text-slate-700">{t('members.username')}</span>
            <input
              data-testid="member-add-username"
              className={inputClass}
              value={username}
              autoComplete="off"
              list={suggestUsers ? 'member-add-username-options' : undefined}
              onChange={(e) => setUsername(e.target.value)}
            />
            {suggestUsers && (
              <datalist id="member-add-username-options" data-testid="member-add-username-options">
                {suggestions.map((u) => (
                  <option key={u} value={u} />
                ))}
              </datalist>
            )}
          </label>
          <label>
            <span className="mb-1 block text-sm font-medium text-slate-700">{t('members.role')}</span>
            <select
              data-testid="member-add-role"
              className={selectClass}
              value={role}
              onChange={(e) => setRole(e.target.value as AccountRole)}
            >
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {t(`members.roles.${r}`)}
                </option>
              ))}
            </select>
          </label>
          <label>
            <span className="mb-1 block text-sm font-medium text-slate-700">{t('members.fileAccess')}</span>
            <select
              data-testid="member-add-file-access"
              className={selectClass}
              value={fileAccess}
              onChange={(e) => setFileAccess(e.target.value as FileAccess)}
            >
              {FILE_ACCESS.map((f) => (
                <option key={f} value={f}>
                  {t(`members.fileAccessValues.${f}`)}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" data-testid="member-add-submit" className={btnPrimary} disabled={add.isPending || username.trim() === ''}>
            {t('members.add')}
          </button>
        </form>
      )}
      {add.isError && <FormError error={add.error} />}
      {change.isError && <FormError error={change.error} />}
      {remove.isError && <FormError error={remove.error} />}
      <DataTable
        query={members}
        rows={members.data?.items ?? []}
        columns={columns}
        rowKey={(m) => m.username}
        rowProps={(m) => ({ 'data-testid': 'member-row', 'data-username': m.username })}
        empty={{ title: t('members.empty') }}
        errorTitle={t('members.loadError')}
        testId="member-table"
      />
      {limitsFor !== undefined && (
        <LimitsDialog slug={slug} username={limitsFor} resources={resources} canEdit={canManage} onClose={() => setLimitsFor(undefined)} />
      )}
    </section>
  );
}
