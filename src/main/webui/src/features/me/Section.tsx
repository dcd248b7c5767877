import type { ReactNode } from 'react';
import { card } from '../../components/common/ui';

/** One titled card of the profile page. */
export function Section({ title, children, testId, id }: { title: string; children: ReactNode; testId?: string; id?: string }) {
  return (
    <section id={id} data-testid={testId} className={`${card} flex flex-col gap-4`}>
      <h2 className="text-lg font-semibold text-slate-800">{title}</h2>
      {children}
    </section>
  );
}
