/** Shared Tailwind class sets so forms and buttons look the same on every page. */

export const btnPrimary =
  'inline-flex items-center justify-center gap-1.5 rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white shadow-sm hover:bg-indigo-500 disabled:cursor-not-allowed disabled:opacity-60';
export const btnSecondary =
  'inline-flex items-center justify-center gap-1.5 rounded-md bg-white px-3 py-1.5 text-sm font-medium text-slate-700 ring-1 ring-slate-300 hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-60';
export const btnDanger =
  'inline-flex items-center justify-center gap-1.5 rounded-md bg-white px-3 py-1.5 text-sm font-medium text-rose-700 ring-1 ring-rose-300 hover:bg-rose-50 disabled:cursor-not-allowed disabled:opacity-60';
export const btnSmall =
  'inline-flex items-center justify-center rounded px-2 py-1 text-xs font-medium text-slate-700 ring-1 ring-slate-300 hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-60';
export const inputClass =
  'w-full rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm outline-none focus:border-indigo-500 focus:ring-2 focus:ring-indigo-200 disabled:bg-slate-100';
export const inputInvalid = 'border-rose-400 focus:border-rose-500 focus:ring-rose-200';
export const labelText = 'mb-1 block text-sm font-medium text-slate-700';
export const card = 'rounded-xl border border-slate-200 bg-white p-5 shadow-sm';
export const tableWrap = 'overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm';
export const th = 'px-4 py-2.5 text-left text-xs font-medium text-slate-500';
export const td = 'px-4 py-2.5 text-sm text-slate-700';
