import {
  AlreadyExistsException,
  CreateTenantCommand,
  CreateTenantResourceAssociationCommand,
  GetTenantCommand,
  SESv2Client,
  UpdateReputationEntityPolicyCommand,
} from '@aws-sdk/client-sesv2';
import { sdkLogger } from '#aws/sdk-logger.ts';
import { reputationPolicyArn } from '#domain/email-tenants.ts';

// Created once per container; AWS_ENDPOINT_URL_SESV2 points it at the local emulator.
const ses = new SESv2Client({ logger: sdkLogger });

/**
 * Makes the team's SES tenant ready to send: the tenant (its suppression
 * list scoped to it, for bounces and complaints), the sending identity and
 * the configuration set associated with it, and SES's standard reputation
 * policy on it. Every step is idempotent: a tenant or an association that
 * exists already is left as it is, so a retry after a partial failure
 * finishes the work.
 */
export async function ensureTenant(
  tenantName: string,
  resources: { identityArn: string; configurationSetArn?: string },
): Promise<void> {
  let tenantArn: string | undefined;
  try {
    const created = await ses.send(
      new CreateTenantCommand({
        TenantName: tenantName,
        SuppressionAttributes: {
          SuppressedReasons: ['BOUNCE', 'COMPLAINT'],
          SuppressionScope: 'TENANT',
        },
      }),
    );
    tenantArn = created.TenantArn;
  } catch (error) {
    if (!(error instanceof AlreadyExistsException)) throw error;
  }
  tenantArn ??= (await ses.send(new GetTenantCommand({ TenantName: tenantName }))).Tenant
    ?.TenantArn;
  if (!tenantArn) throw new Error(`SES tenant ${tenantName} has no ARN`);
  const arns = [resources.identityArn, resources.configurationSetArn].filter(
    (arn): arn is string => arn !== undefined,
  );
  for (const resourceArn of arns) {
    try {
      await ses.send(
        new CreateTenantResourceAssociationCommand({
          TenantName: tenantName,
          ResourceArn: resourceArn,
        }),
      );
    } catch (error) {
      if (!(error instanceof AlreadyExistsException)) throw error;
    }
  }
  const [, partition, , region] = tenantArn.split(':');
  await ses.send(
    new UpdateReputationEntityPolicyCommand({
      ReputationEntityType: 'RESOURCE',
      ReputationEntityReference: tenantArn,
      ReputationEntityPolicy: reputationPolicyArn(partition ?? 'aws', region ?? ''),
    }),
  );
}

/** The tenant's `SendingStatus` as SES's GetTenant says it (`ENABLED`, `REINSTATED`, `DISABLED`). */
export async function tenantSendingStatus(tenantName: string): Promise<string | undefined> {
  const { Tenant } = await ses.send(new GetTenantCommand({ TenantName: tenantName }));
  return Tenant?.SendingStatus;
}
