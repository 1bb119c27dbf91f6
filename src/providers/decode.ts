/** Reading providers' JSON answers: the helpers every adapter shares (an answer is `unknown` until read). */

/** A non-empty string, or null for anything else (absent, empty, another type). */
export const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
