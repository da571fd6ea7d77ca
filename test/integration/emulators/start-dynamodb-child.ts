// Run as a separate Node process by dynamodb.test.ts, which SIGKILLs it to prove the JVM
// does not outlive its parent. Prints the handle as one JSON line, then waits to be killed.
import { startDynamoDbLocal } from '#lib/local/emulators/dynamodb.ts';

const stateDir = process.argv[2];
if (stateDir === undefined) throw new Error('usage: start-dynamodb-child.ts <stateDir>');
const handle = await startDynamoDbLocal({ port: 0, stateDir });
process.stdout.write(`${JSON.stringify({ pid: handle.pid, port: handle.port })}\n`);
