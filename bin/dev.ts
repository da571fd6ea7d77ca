/**
 * `npm run dev`: the whole service on 127.0.0.1 with no AWS account and no
 * Docker: DynamoDB Local, the SQS/S3, SES, Scheduler and Google emulators, the local
 * gateway serving lambdas/routes.ts, and the pollers that feed the event
 * handlers. Prints the base URL and development keys and writes them to
 * .local/dev.json.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  DEFAULT_PORTS,
  type LocalPorts,
  type LocalStack,
  RANDOM_PORTS,
  startLocalStack,
} from '#lib/local/stack.ts';

const USAGE = `usage: npm run dev -- [options]
  --in-memory            keep no data between runs (default: persisted under --state-dir)
  --state-dir DIR        where dev.json, the database and pid files live (default .local)
  --port N               local gateway (default ${DEFAULT_PORTS.gateway})
  --dynamodb-port N      DynamoDB Local (default ${DEFAULT_PORTS.dynamodb})
  --sqs-port N           SQS and S3 emulator (default ${DEFAULT_PORTS.sqsS3})
  --ses-port N           SES v2 emulator and mail inbox (default ${DEFAULT_PORTS.ses})
  --scheduler-port N     EventBridge Scheduler emulator (default ${DEFAULT_PORTS.scheduler})
  --turnstile-port N     Turnstile siteverify stand-in (default ${DEFAULT_PORTS.turnstile})
  --chat-port N          Slack and Discord webhook receivers and their page (default ${DEFAULT_PORTS.chat})
  --google-port N        Google token endpoint and Sheets API emulator (default ${DEFAULT_PORTS.google})
  --random-ports         pick free ports for everything (tests use this)
  --log-level LEVEL      debug | info | warn | error (default info)`;

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

function portOf(value: string | undefined, fallback: number, flag: string): number {
  if (value === undefined) return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) fail(`${flag} must be a port number`);
  return port;
}

let args: ReturnType<typeof parse>;
function parse() {
  return parseArgs({
    options: {
      'in-memory': { type: 'boolean', default: false },
      'state-dir': { type: 'string', default: '.local' },
      port: { type: 'string' },
      'dynamodb-port': { type: 'string' },
      'sqs-port': { type: 'string' },
      'ses-port': { type: 'string' },
      'scheduler-port': { type: 'string' },
      'turnstile-port': { type: 'string' },
      'chat-port': { type: 'string' },
      'google-port': { type: 'string' },
      'random-ports': { type: 'boolean', default: false },
      'log-level': { type: 'string', default: 'info' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  }).values;
}
try {
  args = parse();
} catch (error) {
  fail((error as Error).message);
}
if (args.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
if (!['debug', 'info', 'warn', 'error'].includes(args['log-level']))
  fail('--log-level must be debug, info, warn or error');

const base = args['random-ports'] ? RANDOM_PORTS : DEFAULT_PORTS;
const ports: LocalPorts = {
  gateway: portOf(args.port, base.gateway, '--port'),
  dynamodb: portOf(args['dynamodb-port'], base.dynamodb, '--dynamodb-port'),
  sqsS3: portOf(args['sqs-port'], base.sqsS3, '--sqs-port'),
  ses: portOf(args['ses-port'], base.ses, '--ses-port'),
  scheduler: portOf(args['scheduler-port'], base.scheduler, '--scheduler-port'),
  turnstile: portOf(args['turnstile-port'], base.turnstile, '--turnstile-port'),
  chat: portOf(args['chat-port'], base.chat, '--chat-port'),
  google: portOf(args['google-port'], base.google, '--google-port'),
};

let stack: LocalStack | undefined;
let stopping = false;
/**
 * The clean stop (stack.ts): the gateway stops accepting and lets requests in flight finish,
 * then the pollers and emulators stop, and DynamoDB Local last, through its JVM's shutdown
 * path, so every acknowledged write is on disk. A second signal quits at once; even then the
 * JVM sees its stdin close and commits what it holds before it exits.
 */
async function shutdown(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    if (stack) process.stdout.write('Stopping (Ctrl-C again quits at once)\n');
    await stack?.stop();
  }
  process.exit(code);
}
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));
process.on('uncaughtException', (error) => {
  process.stderr.write(`fatal: ${error.stack ?? error.message}\n`);
  void shutdown(1);
});

try {
  stack = await startLocalStack({
    stateDir: resolve(args['state-dir']),
    inMemory: args['in-memory'],
    ports,
    logLevel: args['log-level'],
  });
} catch (error) {
  process.stderr.write(`could not start the local stack: ${(error as Error).message}\n`);
  process.exit(1);
}

const { info } = stack;
process.stdout.write(
  [
    '',
    `Form service running locally (ready in ${(info.readyMs / 1000).toFixed(1)} s${info.inMemory ? ', in memory' : ''})`,
    `  Base URL      ${info.baseUrl}`,
    `  Pro API key   ${info.apiKeys.pro}`,
    `  Free API key  ${info.apiKeys.free}`,
    `  Mail inbox    ${info.mailUrl}`,
    `  Slack hook    ${info.chat.slackUrl}`,
    `  Discord hook  ${info.chat.discordUrl}`,
    `  Chat page     ${info.chat.pageUrl}`,
    `  DynamoDB      ${info.endpoints.dynamodb}   SQS/S3 ${info.endpoints.sqs}   Scheduler ${info.endpoints.scheduler}`,
    info.google
      ? `  Google Sheets ${info.google.pageUrl}   share with ${info.google.serviceAccount}; sample spreadsheet ${info.google.spreadsheetId}`
      : '  Google Sheets GOOGLE_* from the environment (the local emulator is not used)',
    `  Written to    ${resolve(args['state-dir'], 'dev.json')}`,
    '',
    `Try: curl -X POST ${info.baseUrl}/v1/forms -H "Authorization: Bearer ${info.apiKeys.pro}" -H 'content-type: application/json' -d '{"name":"Contact"}'`,
    `Sign in as pro@dev.local (or free@dev.local): curl -X POST ${info.baseUrl}/v1/auth/sign-in -H 'content-type: application/json' -d '{"email":"pro@dev.local"}'; the link and code arrive in the mail inbox.`,
    'Ctrl-C stops everything.',
    '',
    // The test harness waits for this exact line.
    `READY ${JSON.stringify({ stateFile: resolve(args['state-dir'], 'dev.json') })}`,
    '',
  ].join('\n'),
);
