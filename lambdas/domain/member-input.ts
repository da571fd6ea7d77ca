import * as z from 'zod/mini';
import { boundedText } from './bounded-text.ts';
import { MAX_EMAIL_LENGTH, ROLES } from './members.ts';
import { CODE_PATTERN, TOKEN_PATTERN } from './sign-in.ts';
import { inEnglish } from './validation-issues.ts';

/** Request bodies of the team and sign-in routes (apart, so workers bundle no zod). */

const emailField = z.pipe(
  z.string().check(z.trim(), z.maxLength(MAX_EMAIL_LENGTH), z.toLowerCase()),
  z.email('Must be an email address'),
);

/** `POST /v1/team/members`. */
export const inviteMemberInput = inEnglish(
  z.strictObject({
    email: emailField,
    name: z._default(boundedText(0, 200), ''),
    role: z._default(z.enum(ROLES), 'member'),
  }),
);
export type InviteMemberInput = z.infer<typeof inviteMemberInput>;

/** `PATCH /v1/team/members/{userId}`. */
export const updateMemberInput = inEnglish(
  z.strictObject({
    role: z.optional(z.enum(ROLES)),
    name: z.optional(boundedText(0, 200)),
  }),
);

/** `POST /v1/auth/sign-in`. */
export const signInInput = inEnglish(z.strictObject({ email: emailField }));

/** `POST /v1/auth/verify`: the link's token, or the address and its code; optionally which team. */
export const verifyInput = inEnglish(
  z.union([
    z.strictObject({
      token: z.string().check(z.regex(TOKEN_PATTERN, 'Must be the token of a sign-in link')),
      teamId: z.optional(z.uuid('Must be a team id')),
    }),
    z.strictObject({
      email: emailField,
      code: z.string().check(z.trim(), z.regex(CODE_PATTERN, 'Must be the 6-digit code')),
      teamId: z.optional(z.uuid('Must be a team id')),
    }),
  ]),
);

/** `POST /v1/team/api-keys`. */
export const createApiKeyInput = inEnglish(
  z.strictObject({ name: z._default(boundedText(1, 100), 'default') }),
);

/** `POST /v1/auth/session/team`. */
export const switchTeamInput = inEnglish(z.strictObject({ teamId: z.uuid('Must be a team id') }));
