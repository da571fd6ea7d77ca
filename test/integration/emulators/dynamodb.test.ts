import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import {
  CreateTableCommand,
  DynamoDBClient,
  GetItemCommand,
  ListTablesCommand,
  PutItemCommand,
} from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DynamoDbLocalHandle, startDynamoDbLocal } from '#lib/local/emulators/dynamodb.ts';
import { isRunning, waitUntilGone } from '#lib/local/emulators/processes.ts';
import { LOCAL_CREDENTIALS, REGION } from './aws.ts';
import { canConnect, expectLoopbackOnly } from './loopback.ts';

const CHILD_SCRIPT = fileURLToPath(new URL('./start-dynamodb-child.ts', import.meta.url));

function clientFor(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({ endpoint, region: REGION, credentials: LOCAL_CREDENTIALS });
}

async function pidFileOf(stateDir: string): Promise<string | undefined> {
  return readFile(join(stateDir, 'dynamodb-local.pid'), 'utf8').then(
    (text) => text.trim(),
    () => undefined,
  );
}

async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'emulator-dynamodb-'));
}

describe('DynamoDB Local while running', () => {
  let stateDir: string;
  let dynamodb: DynamoDbLocalHandle;
  let client: DynamoDBClient;

  beforeAll(async () => {
    stateDir = await tempDir();
    // Our own pid in the pid file: certainly running, certainly not a DynamoDB launcher.
    await writeFile(join(stateDir, 'dynamodb-local.pid'), `${process.pid}\n`);
    dynamodb = await startDynamoDbLocal({ port: 0, stateDir });
    client = clientFor(dynamodb.endpoint);
    console.info(`DynamoDB Local ready in ${dynamodb.startupMs} ms`);
  });

  afterAll(async () => {
    client?.destroy();
    await dynamodb?.stop();
    await rm(stateDir, { recursive: true, force: true });
  });

  it('creates a table and returns the item it stored', async () => {
    await client.send(
      new CreateTableCommand({
        TableName: 'things',
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      }),
    );
    await client.send(
      new PutItemCommand({ TableName: 'things', Item: { pk: { S: 'a' }, colour: { S: 'teal' } } }),
    );

    const { Item } = await client.send(
      new GetItemCommand({ TableName: 'things', Key: { pk: { S: 'a' } }, ConsistentRead: true }),
    );

    expect(Item).toEqual({ pk: { S: 'a' }, colour: { S: 'teal' } });
  });

  it('accepts connections on 127.0.0.1 only', async () => {
    await expectLoopbackOnly(dynamodb.port);
  });

  it('records the JVM pid in the state folder, leaving the unrelated process its pid file named alone', async () => {
    expect(await pidFileOf(stateDir)).toBe(String(dynamodb.pid));
    expect(await isRunning(dynamodb.pid)).toBe(true);
    expect(await isRunning(process.pid)).toBe(true);
  });

  // Last: the JVM the tests above share (each start costs seconds of the suite).
  it('stop() ends the JVM, frees the port and removes the pid file', async () => {
    await dynamodb.stop();

    expect(await isRunning(dynamodb.pid)).toBe(false);
    expect(await canConnect('127.0.0.1', dynamodb.port)).toBe(false);
    expect(await pidFileOf(stateDir)).toBeUndefined();
  });
});

describe('DynamoDB Local lifecycle', () => {
  it('keeps tables in dataDir across restarts', async () => {
    const stateDir = await tempDir();
    const dataDir = join(stateDir, 'data');
    const first = await startDynamoDbLocal({ port: 0, stateDir, dataDir });
    const firstClient = clientFor(first.endpoint);
    await firstClient.send(
      new CreateTableCommand({
        TableName: 'kept',
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      }),
    );
    firstClient.destroy();
    await first.stop();

    const second = await startDynamoDbLocal({ port: 0, stateDir, dataDir });
    const secondClient = clientFor(second.endpoint);
    try {
      const { TableNames } = await secondClient.send(new ListTablesCommand({}));
      expect(TableNames).toEqual(['kept']);
    } finally {
      secondClient.destroy();
      await second.stop();
      await rm(stateDir, { recursive: true, force: true });
    }
  });

  it('the JVM exits when its Node parent is SIGKILLed, the next start replaces the stale pid file, and a start ends a still-running JVM named in the pid file', async () => {
    const stateDir = await tempDir();
    const parent = spawn(process.execPath, [CHILD_SCRIPT, stateDir], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [line] = (await once(createInterface({ input: parent.stdout }), 'line')) as [string];
    const { pid } = JSON.parse(line) as { pid: number };
    expect(await isRunning(pid)).toBe(true);

    const parentExit = once(parent, 'exit');
    parent.kill('SIGKILL');
    await parentExit;

    expect(await waitUntilGone(pid, 5_000)).toBe(true);
    expect(await pidFileOf(stateDir)).toBe(String(pid));

    const next = await startDynamoDbLocal({ port: 0, stateDir });
    let third: DynamoDbLocalHandle | undefined;
    try {
      expect(await pidFileOf(stateDir)).toBe(String(next.pid));
      expect(next.pid).not.toBe(pid);

      // `next` now stands in for a JVM whose owner lost track of it: same state folder, never
      // stopped. The start after it ends it first.
      third = await startDynamoDbLocal({ port: 0, stateDir });
      expect(await isRunning(next.pid)).toBe(false);
      const client = clientFor(third.endpoint);
      await expect(client.send(new ListTablesCommand({}))).resolves.toBeDefined();
      client.destroy();
    } finally {
      await third?.stop();
      await next.stop();
      await rm(stateDir, { recursive: true, force: true });
    }
  });

  it('says Java is required when it cannot start java', async () => {
    const stateDir = await tempDir();
    const javaHome = process.env.JAVA_HOME;
    process.env.JAVA_HOME = join(stateDir, 'no-jdk-here');
    try {
      await expect(startDynamoDbLocal({ port: 0, stateDir })).rejects.toThrow(
        'DynamoDB Local could not start: Java 17 or newer is required (install a JDK or set JAVA_HOME)',
      );
      expect(await pidFileOf(stateDir)).toBeUndefined();
    } finally {
      if (javaHome === undefined) delete process.env.JAVA_HOME;
      else process.env.JAVA_HOME = javaHome;
      await rm(stateDir, { recursive: true, force: true });
    }
  });

  it('refuses a port that is already taken, naming the flag to change it', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    const stateDir = await tempDir();
    try {
      await expect(startDynamoDbLocal({ port, stateDir })).rejects.toThrow(
        `port ${port} (DynamoDB Local) is already in use: stop the other process or choose another port with --dynamodb-port`,
      );
    } finally {
      blocker.close();
      await rm(stateDir, { recursive: true, force: true });
    }
  });
});
