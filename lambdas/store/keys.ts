/** Every key of the single table is built here and nowhere else. */

export const teamKey = (teamId: string) => ({ pk: `TEAM#${teamId}`, sk: 'TEAM' });
export const apiKeyKey = (keyId: string) => ({ pk: `APIKEY#${keyId}`, sk: 'APIKEY' });
export const formKey = (formId: string) => ({ pk: `FORM#${formId}`, sk: 'FORM' });
/** A form's webhook lives in the form's partition, so deleting the form's items removes it. */
export const webhookKey = (formId: string) => ({ pk: `FORM#${formId}`, sk: 'WEBHOOK' });
/** Public form keys are case-insensitive: the mapping is stored lower case. */
export const formKeyMappingKey = (key: string) => ({
  pk: `FKEY#${key.toLowerCase()}`,
  sk: 'FKEY',
});

/** One counter per scope and window; the `RATE#` prefix is what the IAM grant allows. */
export const rateWindowKey = (scope: string, windowStart: number) => ({
  pk: `RATE#${scope}#${windowStart}`,
  sk: 'RATE',
});

/** byParent index partitions. */
export const ALL_TEAMS = 'TEAMS';
export const teamFormsParent = (teamId: string) => `TEAM#${teamId}#FORMS`;

/** Attributes that are table plumbing, never part of a domain object. */
export const PLUMBING = ['pk', 'sk', 'entity', 'parentPk', 'expiresAt'] as const;

export function stripPlumbing<T>(item: Record<string, unknown>): T {
  const copy: Record<string, unknown> = { ...item };
  for (const name of PLUMBING) delete copy[name];
  return copy as T;
}
