import hbs from 'hbs';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

/** R$ 1.234,56 from centavos. */
export function formatBrl(centavos: number): string {
  const negative = centavos < 0;
  const absolute = Math.abs(centavos);
  const reais = Math.floor(absolute / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${negative ? '-' : ''}R$ ${reais},${String(absolute % 100).padStart(2, '0')}`;
}

/** 21/11/2026 14:03 UTC from an ISO timestamp. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const [date, time] = iso.split('T');
  const [year, month, day] = date.split('-');
  return `${day}/${month}/${year} ${time.slice(0, 5)} UTC`;
}

/** Handlebars helpers and partials shared by every page. */
export function registerViewHelpers(viewsDir: string): void {
  hbs.registerHelper('brl', (value: unknown) => (typeof value === 'number' ? formatBrl(value) : '—'));
  hbs.registerHelper('datetime', (value: unknown) => formatDateTime(typeof value === 'string' ? value : null));
  hbs.registerHelper('eq', (left: unknown, right: unknown) => left === right);
  hbs.registerHelper('multiply', (left: unknown, right: unknown) => Number(left) * Number(right));
  hbs.registerHelper('includes', (list: unknown, value: unknown) => Array.isArray(list) && list.includes(value));
  // Read now, not in the background as hbs.registerPartials does: the first page must find them.
  const partials = join(viewsDir, 'partials');
  for (const file of readdirSync(partials).filter((name) => name.endsWith('.hbs'))) {
    hbs.registerPartial(basename(file, '.hbs'), readFileSync(join(partials, file), 'utf8'));
  }
}
