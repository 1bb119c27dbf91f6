/** Money and time as an Indian merchant reads them. */
import { timeZone, zoneName } from './timezone.js';

const rupees = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', minimumFractionDigits: 2 });

/** Paise → "₹1,23,45,678.90" (Indian digit grouping). */
export function formatPaise(paise: number): string {
  return rupees.format(paise / 100);
}

/** In the chosen time zone (India's unless changed), named ("7 Dec 2026, 6:52:06 pm IST"); the UTC time goes in the title. */
export function localTime(iso: string, zone = timeZone()): { text: string; utc: string } {
  const d = new Date(iso);
  return {
    text: `${d.toLocaleString('en-IN', { dateStyle: 'medium', timeStyle: 'medium', timeZone: zone })} ${zoneName(zone, d)}`,
    utc: `${d.toISOString().replace('T', ' ').replace(/\.\d+Z$/, '')} UTC`,
  };
}

/** An enum name as words: "PENDING_REVIEW" → "Pending review". */
export function words(status: string): string {
  const s = status.toLowerCase().replace(/_/g, ' ');
  return s.charAt(0).toUpperCase() + s.slice(1);
}
