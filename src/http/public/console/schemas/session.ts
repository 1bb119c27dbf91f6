/** Request schemas of set-up, sign-in, the session and the user's own second factor (../api.ts). */
import { Type } from '@sinclair/typebox';
import { consoleOperation as op, strict } from './common.js';
import * as A from './answers.js';

export const SetupInspectBody = Type.Object({ token: Type.String({ minLength: 1, maxLength: 100 }) }, strict);
export const SetupBody = Type.Object({ token: Type.String({ minLength: 1, maxLength: 100 }), password: Type.String({ maxLength: 1024 }) }, strict);
export const SignInBody = Type.Object({ email: Type.String({ maxLength: 254 }), password: Type.String({ maxLength: 1024 }) }, strict);
export const TotpBody = Type.Object({ challenge: Type.String({ maxLength: 100 }), code: Type.String({ maxLength: 64 }) }, strict);
export const CodeBody = Type.Object({ code: Type.String({ maxLength: 16 }) }, strict);
export const PasswordBody = Type.Object({ password: Type.String({ maxLength: 1024 }) }, strict);
export const ChangePasswordBody = Type.Object({ current_password: Type.String({ maxLength: 1024 }), new_password: Type.String({ maxLength: 1024 }) }, strict);
export const ResetRequestBody = Type.Object({ email: Type.String({ maxLength: 254 }) }, strict);

/** What a sign-in answers: the session, or (second factor on) a challenge for POST /session/totp. */
const SESSION_DATA =
  '`data`: `{user, organization: {id, name}, permissions, csrf_token, idle_timeout_seconds}`; or `{totp_required: true, challenge}` when the user has a second factor.';

/** The OpenAPI part of each route's schema (tag `console`). */
export const SESSION_OPS = {
  inspectSetup: op({ data: A.SetupTarget, operationId: 'consoleInspectSetup', summary: 'Check a set-up link', access: 'public', description: '`data`: whom the set-up link is for.' }),
  completeSetup: op({ data: A.SignInAnswer, operationId: 'consoleCompleteSetup', summary: 'Choose the first password with a set-up link, then sign in', access: 'public', description: SESSION_DATA }),
  signIn: op({ data: A.SignInAnswer, operationId: 'consoleSignIn', summary: 'Sign in with email and password', access: 'public', description: SESSION_DATA }),
  signInTotp: op({ data: A.SessionAnswer, operationId: 'consoleSignInSecondFactor', summary: 'Finish a sign-in with the second-factor code', access: 'public', description: SESSION_DATA }),
  get: op({ data: A.SessionAnswer, operationId: 'consoleGetSession', summary: 'The signed-in user and the session', access: 'read', description: '`data`: `{user, organization: {id, name}, permissions, csrf_token, idle_timeout_seconds}`.' }),
  signOut: op({ data: A.SignedOut, operationId: 'consoleSignOut', summary: 'Sign out (this session)', access: 'change', description: '`data`: `{signed_out: true}`; the cookie is cleared. Allowed to every role.' }),
  signOutEverywhere: op({ data: A.SessionsEnded, operationId: 'consoleSignOutEverywhere', summary: 'End every session of the signed-in user', access: 'change', description: '`data`: `{sessions_ended}`; the cookie is cleared.' }),
  beginTotp: op({ data: A.TotpBegin, operationId: 'consoleBeginTotp', summary: 'Start enrolling a second factor', access: 'change', description: '`data`: `{secret, otpauth_uri, qr_data_url}` for the authenticator app.' }),
  confirmTotp: op({ data: A.RecoveryCodes, operationId: 'consoleConfirmTotp', summary: 'Turn the second factor on with a first code', access: 'change', description: '`data`: `{recovery_codes}`, shown once.' }),
  changePassword: op({
    data: A.OtherSessionsEnded, operationId: 'consoleChangePassword',
    summary: 'Change your password (needs the current one)',
    access: 'change',
    description: '`data`: `{other_sessions_ended}`; this session stays. A wrong current password is 422 and counts as a sign-in attempt (429 once the account is locked); the new one follows the set-up rules (422).',
  }),
  resetOptions: op({ data: A.ResetOptions, operationId: 'consolePasswordResetOptions', summary: 'How a forgotten password is reset here', access: 'public', description: '`data`: `{by_mail}`: true when SMTP_URL is set (a link is mailed), false when an admin issues a set-up link.' }),
  requestReset: op({
    data: A.Message, operationId: 'consoleRequestPasswordReset',
    summary: 'Forgot password: mail a link to choose a new one',
    access: 'public',
    description: '`data`: `{message}`, the same for every email (known or not). 429 after 5 requests a minute from one address; 409 INVALID_STATE when links are not mailed here (ask an admin).',
  }),
  disableTotp: op({ data: A.TotpDisabled, operationId: 'consoleDisableTotp', summary: 'Turn the second factor off (needs the password)', access: 'change', description: '`data`: `{totp_enabled: false}`.' }),
};
