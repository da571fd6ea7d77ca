import {
  DeleteSuppressedDestinationCommand,
  NotFoundException,
  SESv2Client,
} from '@aws-sdk/client-sesv2';
import { sdkLogger } from '#aws/sdk-logger.ts';

// Created once per container; AWS_ENDPOINT_URL_SESV2 points it at the local emulator.
// On a route's path (29 s at most): two tries of 3 s each, so an SES that does not answer
// costs the owner seconds, not the gateway's timeout.
const ses = new SESv2Client({
  maxAttempts: 2,
  requestHandler: { requestTimeout: 3_000 },
  logger: sdkLogger,
});

/**
 * Takes `address` off the SES suppression list of the tenant `tenantName`
 * (docs/delivery.md#suppressed-addresses). SES keeps the address as it was
 * when it suppressed it and matches it exactly, case included, so `address`
 * must be that spelling. `absent` when SES had no such entry (nothing to lift
 * there); any other failure is thrown.
 */
export async function liftSesSuppression(
  address: string,
  tenantName: string,
): Promise<'lifted' | 'absent'> {
  try {
    await ses.send(
      new DeleteSuppressedDestinationCommand({ EmailAddress: address, TenantName: tenantName }),
    );
    return 'lifted';
  } catch (error) {
    if (error instanceof NotFoundException) return 'absent';
    throw error;
  }
}
