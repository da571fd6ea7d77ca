import { S3Client } from '@aws-sdk/client-s3';
import { sdkLogger } from '#aws/sdk-logger.ts';
import { config } from '#config';

/**
 * The one S3 client of a container, created on first import; every module
 * of lambdas/aws/ that touches the uploads bucket shares it.
 * AWS_ENDPOINT_URL_S3 points it at the local emulator.
 */
export const s3 = new S3Client({ forcePathStyle: config.s3ForcePathStyle, logger: sdkLogger });
