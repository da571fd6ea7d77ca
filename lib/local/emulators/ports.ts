import { createServer } from 'node:net';

/** The only address local emulators listen on: nothing is reachable from the network. */
export const LOOPBACK = '127.0.0.1';

/**
 * A port that was free a moment ago. Another process can still take it before the caller binds
 * it, so prefer listening on port 0 directly where the server allows it.
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, LOOPBACK, resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') {
    throw new Error('could not determine a free port');
  }
  return address.port;
}

/**
 * Fails early, with advice, when `port` is taken; otherwise a service would die later with a
 * bare EADDRINUSE (or, for DynamoDB Local, print an error and keep running without a socket).
 * `flag` names the command-line option that picks another port, e.g. `--dynamodb-port`.
 */
export async function assertPortFree(port: number, label: string, flag?: string): Promise<void> {
  if (port === 0) return;
  const server = createServer();
  const problem = await new Promise<NodeJS.ErrnoException | undefined>((resolve) => {
    server.once('error', (error: NodeJS.ErrnoException) => resolve(error));
    server.listen(port, LOOPBACK, () => resolve(undefined));
  });
  if (problem === undefined) {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return;
  }
  if (problem.code === 'EADDRINUSE') {
    const advice = flag
      ? `stop the other process or choose another port with ${flag}`
      : 'stop the other process or choose another port';
    throw new Error(`port ${port} (${label}) is already in use: ${advice}`);
  }
  throw new Error(`port ${port} (${label}) cannot be used: ${problem.message}`);
}
