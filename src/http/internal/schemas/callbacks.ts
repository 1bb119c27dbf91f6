/** Request schemas of the admin callback-destination and delivery routes (../admin-callbacks.ts). */
import { Type } from '@sinclair/typebox';

export const OrgParams = Type.Object({ org: Type.String({ maxLength: 64 }) });
export const DestinationParams = Type.Object({ org: Type.String({ maxLength: 64 }), kind: Type.String({ maxLength: 16 }) });
// The URL's rules (HTTPS, length, public address) are checked by the service, for one clear message.
export const DestinationBody = Type.Object({ url: Type.String({ maxLength: 4096 }) }, { additionalProperties: false });
export const EventParams = Type.Object({ event_id: Type.String({ maxLength: 64 }) });
/** The provider callback intake (../provider-callbacks.ts): only the path; the body stays the raw text. */
export const ProviderParams = Type.Object({ provider: Type.String({ maxLength: 200 }) });
