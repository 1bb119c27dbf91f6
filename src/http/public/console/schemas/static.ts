/** The console app's page and asset paths (../static.ts): the rest of the path after /console/. */
import { Type } from '@sinclair/typebox';

export const WildcardParams = Type.Object({ '*': Type.String() });
