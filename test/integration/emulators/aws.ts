/** What the SDK clients in these tests use: emulators check neither region nor keys. */
export const REGION = 'us-east-1';
export const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };
