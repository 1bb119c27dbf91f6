/** Request schemas of the admin console-user routes (../admin-users.ts). */
import { Type } from '@sinclair/typebox';

export const UserBody = Type.Object(
  {
    org: Type.String({ maxLength: 64 }),
    email: Type.String({ maxLength: 254 }),
    role: Type.String({ maxLength: 20 }),
  },
  { additionalProperties: false },
);
export const OrgParams = Type.Object({ org: Type.String({ maxLength: 64 }) });
