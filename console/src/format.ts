/** Money and time as an Indian merchant reads them. */

const rupees = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', minimumFractionDigits: 2 });

/** Paise → "₹1,23,45,678.90" (Indian digit grouping). */
export function formatPaise(paise: number): string {
  return rupees.format(paise / 100);
}

/** In the viewer's time zone; the UTC time goes in the title (shown on hover). */
export function localTime(iso: string): { text: string; utc: string } {
  const d = new Date(iso);
  return {
    text: d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' }),
    utc: `${d.toISOString().replace('T', ' ').replace(/\.\d+Z$/, '')} UTC`,
  };
}
