import * as z from 'zod/mini';
import { inEnglish } from './validation-issues.ts';
import { IP_STORAGE } from './visitor-ip.ts';

/** `PATCH /v1/team`: the team's own settings, any subset (docs/people.md#team-settings). */
export const updateTeamInput = inEnglish(
  z.strictObject({
    ipStorage: z.optional(z.enum(IP_STORAGE)),
  }),
);
export type UpdateTeamInput = z.infer<typeof updateTeamInput>;
