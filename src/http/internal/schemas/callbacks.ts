/** Request schemas of the admin callback-destination and delivery routes (../admin-callbacks.ts). */
import { Type } from '@sinclair/typebox';

export const OrgParams = Type.Object({ org: Type.String({ maxLength: 64 }) });
export const DestinationParams = Type.Object({ org: Type.String({ maxLength: 64 }), kind: Type.String({ maxLength: 16 }) });
// The URL's rules (HTTPS, length, public address) are checked by the service, for one clear message.
export const DestinationBody = Type.Object(
  {
    url: Type.String({ maxLength: 4096 }),
    events: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 20 })),
    // tijori-v1 or standard-webhooks (contract §11); checked by the service, for one clear message.
    scheme: Type.Optional(Type.String({ maxLength: 32 })),
  },
  { additionalProperties: false },
);
export const EventParams = Type.Object({ event_id: Type.String({ maxLength: 64 }) });
/** The provider callback intake (../provider-callbacks.ts): only the path; the body stays the raw text. */
export const ProviderParams = Type.Object({ provider: Type.String({ maxLength: 200 }) });

const ISO_TIME = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,6})?)?(Z|[+-]\\d{2}:\\d{2})$';
export const EventListQuery = Type.Object(
  {
    type: Type.Optional(Type.String({ maxLength: 64 })),
    from: Type.Optional(Type.String({ maxLength: 40, pattern: ISO_TIME })),
    to: Type.Optional(Type.String({ maxLength: 40, pattern: ISO_TIME })),
    delivery: Type.Optional(Type.String({ maxLength: 16 })),
    cursor: Type.Optional(Type.String({ maxLength: 64 })),
    limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$' })),
  },
  { additionalProperties: false },
);
export const ReplayFailedBody = Type.Object(
  { from: Type.String({ maxLength: 40, pattern: ISO_TIME }), to: Type.String({ maxLength: 40, pattern: ISO_TIME }) },
  { additionalProperties: false },
);

