/**
 * `npm run admin -- <command>`: teams, API keys, dead-letter queues and stream replays. Talks
 * to the local stack (found through .local/dev.json) by default, or to a
 * deployed stack with `--table NAME` and the usual AWS credentials and region.
 * `deploy check` reads the account and Region a deploy would go to, before it.
 */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const USAGE = `usage: npm run admin -- <command> [options] [--table NAME | --state-dir DIR]
  team create --name NAME --email EMAIL --plan free|pro   prints { teamId, userId, apiKey }
  team plan --team TEAM_ID --plan free|pro
  team allowance --team TEAM_ID --submissions N|default   monthly allowance of this team
  team list
  key create --team TEAM_ID [--name NAME]                 prints { keyId, apiKey }
  key revoke --key KEY_ID
  summary rebuild --form FORM_ID                          recount a form's summary from its submissions
  privacy reindex --team TEAM_ID                          index the email addresses of a team's older submissions
  dlq list [--queue-prefix PREFIX]                        each DLQ: depth, oldest message's age
  dlq show --queue Q [--limit N]                          peek at messages (bodies decoded), nothing consumed
  dlq redrive --queue Q [--limit N] [--match FIELD=VALUE] move messages back to the source queue
  dlq purge --queue Q --yes                               delete every message of the DLQ
  deploy check [--region R] [-c KEY=VALUE ...] [--json]   before cdk deploy: read-only AWS calls with your
                                                          credentials; what would fail, and what to do
  stream replay --from ISO --to ISO [--form FORM_ID] [--dry-run]
                                                          redo the stream's work for the submissions
                                                          received in [from, to) (webhooks, chats,
                                                          Sheets, emails, spam purge): what was done
                                                          is not done twice; the summary is not replayed
The API key is shown once: only its SHA-256 is stored.
privacy reindex and summary rebuild hash with KEYED_HASH_SECRET (locally: the state directory's when unset).
Q is a queue's logical name (webhooks, emails). On a deployed stack (--table) name
the DLQ with --queue-url URL instead (redrive finds its source queue, or takes
--source-url URL), and list with --queue-prefix STACK_NAME.
deploy check reads settings as cdk deploy does (cdk.json, cdk.context.json, ~/.cdk.json,
-c); the Region is --region, else AWS_REGION or the profile's. Exit 1 when a finding blocks.
stream replay on a deployed stack takes --queue-url with the stack's ReplayQueueUrl output.`;

class UsageError extends Error {}

function usage(message: string): never {
  throw new UsageError(message);
}

const { values, positionals } = (() => {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        name: { type: 'string' },
        email: { type: 'string' },
        plan: { type: 'string' },
        team: { type: 'string' },
        key: { type: 'string' },
        form: { type: 'string' },
        submissions: { type: 'string' },
        queue: { type: 'string' },
        'queue-url': { type: 'string' },
        'source-url': { type: 'string' },
        'queue-prefix': { type: 'string' },
        limit: { type: 'string' },
        from: { type: 'string' },
        to: { type: 'string' },
        'dry-run': { type: 'boolean', default: false },
        match: { type: 'string' },
        yes: { type: 'boolean', default: false },
        table: { type: 'string' },
        'state-dir': { type: 'string', default: '.local' },
        region: { type: 'string' },
        context: { type: 'string', short: 'c', multiple: true },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    process.exit(2);
  }
})();

function need(name: 'name' | 'email' | 'plan' | 'team' | 'key' | 'form' | 'submissions'): string {
  const value = values[name]?.trim();
  if (!value) usage(`--${name} is required`);
  return value;
}

function plan(): 'free' | 'pro' {
  const value = need('plan');
  if (value !== 'free' && value !== 'pro') usage('--plan must be free or pro');
  return value;
}

interface LocalState {
  tableName: string;
  region: string;
  endpoints: { dynamodb: string; sqs: string };
  queues: Record<string, { url: string; deadLetterUrl: string }>;
}

async function localState(): Promise<LocalState> {
  const stateFile = join(resolve(values['state-dir']), 'dev.json');
  try {
    return JSON.parse(await readFile(stateFile, 'utf8'));
  } catch {
    throw new Error(
      `no local stack found (${stateFile} is missing): run npm run dev, or pass --table NAME for a deployed stack`,
    );
  }
}

async function connect(): Promise<void> {
  if (values.table) {
    process.env.TABLE_NAME = values.table;
    return;
  }
  const info = await localState();
  Object.assign(process.env, {
    TABLE_NAME: info.tableName,
    AWS_REGION: info.region,
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_DYNAMODB: info.endpoints.dynamodb,
  });
}

/**
 * The deployment's keyed-hash secret (docs/deploying.md#the-keyed-hash-secret):
 * `KEYED_HASH_SECRET` when set (a deployed stack's: read it from its Secrets
 * Manager secret), else the local stack's, kept in its state directory.
 */
async function keyedHashSecret(): Promise<string> {
  const given = process.env.KEYED_HASH_SECRET?.trim();
  if (given) return given;
  if (values.table) throw new Error('set KEYED_HASH_SECRET to the stack’s keyed-hash secret');
  const file = join(resolve(values['state-dir']), 'keyed-hash-secret');
  const kept = (await readFile(file, 'utf8').catch(() => '')).trim();
  if (!kept) throw new Error(`no keyed-hash secret in ${file}: set KEYED_HASH_SECRET`);
  return kept;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

async function run(): Promise<unknown> {
  const [group, action] = positionals;
  if (values.help) return USAGE;
  if (group === 'dlq') return runDlq(action, positionals.length);
  if (group === 'deploy') return runDeployCheck(action, positionals.length);
  if (group === 'stream') return runStream(action, positionals.length);
  const command = `${group ?? ''} ${action ?? ''}`.trim();
  const known = [
    'team create',
    'team plan',
    'team allowance',
    'team list',
    'key create',
    'key revoke',
    'summary rebuild',
    'privacy reindex',
  ];
  if (!known.includes(command) || positionals.length > 2)
    usage(`unknown command: ${positionals.join(' ') || '(none)'}`);
  // Validate every argument before touching the table.
  const input = {
    'team create': () => {
      const email = need('email');
      if (!EMAIL.test(email)) usage('--email must be an email address');
      return { name: need('name'), ownerEmail: email, plan: plan() };
    },
    'team plan': () => ({ teamId: need('team'), plan: plan() }),
    'team allowance': () => {
      const raw = need('submissions');
      const allowance = raw === 'default' ? null : Number(raw);
      if (allowance !== null && (!Number.isInteger(allowance) || allowance < 0))
        usage('--submissions must be a whole number or "default"');
      return { teamId: need('team'), allowance };
    },
    'team list': () => ({}),
    'key create': () => ({ teamId: need('team'), name: values.name?.trim() || 'default' }),
    'key revoke': () => ({ keyId: need('key') }),
    'summary rebuild': () => ({ formId: need('form') }),
    'privacy reindex': () => ({ teamId: need('team') }),
  }[command]!();
  await connect();
  const accounts = await import('#lib/admin/accounts.ts');
  const teams = await import('#store/teams.ts');
  const keys = await import('#store/api-key-listings.ts');
  switch (command) {
    case 'team create': {
      const { team, apiKey } = await accounts.createTeamWithKey(
        input as Parameters<typeof accounts.createTeamWithKey>[0],
      );
      return { teamId: team.teamId, userId: team.ownerUserId, apiKey };
    }
    case 'team plan': {
      const { teamId, plan } = input as { teamId: string; plan: 'free' | 'pro' };
      if (!(await teams.setTeamPlan(teamId, plan))) throw new Error(`no team ${teamId}`);
      return { teamId, plan };
    }
    case 'team allowance': {
      const { teamId, allowance } = input as { teamId: string; allowance: number | null };
      if (!(await teams.setTeamAllowance(teamId, allowance))) throw new Error(`no team ${teamId}`);
      return { teamId, monthlyAllowance: allowance ?? 'plan default' };
    }
    case 'team list':
      return { teams: await teams.listTeams() };
    case 'key create': {
      const { teamId, name } = input as { teamId: string; name: string };
      const created = await accounts.createKey(teamId, name);
      if (!created) throw new Error(`no team ${teamId}`);
      return created;
    }
    case 'summary rebuild': {
      const { formId } = input as { formId: string };
      const { rebuildSummary } = await import('#lib/admin/summary.ts');
      const rebuilt = await rebuildSummary(formId, await keyedHashSecret());
      if (!rebuilt) throw new Error(`no form ${formId}`);
      return rebuilt;
    }
    case 'privacy reindex': {
      const { teamId } = input as { teamId: string };
      const { reindexTeam } = await import('#lib/admin/privacy.ts');
      const done = await reindexTeam(teamId, await keyedHashSecret());
      if (!done) throw new Error(`no team ${teamId}`);
      return done;
    }
    default: {
      const { keyId } = input as { keyId: string };
      if (!(await keys.revokeApiKey(keyId))) throw new Error(`no key ${keyId}`);
      return { keyId, revoked: true };
    }
  }
}

const DLQ_ACTIONS = ['list', 'show', 'redrive', 'purge'] as const;

function limit(fallback: number): number {
  if (values.limit === undefined) return fallback;
  const value = Number(values.limit);
  if (!Number.isInteger(value) || value < 1 || value > 10_000)
    usage('--limit must be a whole number from 1 to 10000');
  return value;
}

async function runDlq(action: string | undefined, words: number): Promise<unknown> {
  const known = DLQ_ACTIONS as readonly string[];
  if (!action || !known.includes(action) || words > 2)
    usage(`unknown command: ${positionals.join(' ')}`);
  // Validate every argument before touching a queue.
  const deployed = values.table !== undefined;
  const named = values.queue?.trim();
  const byUrl = values['queue-url']?.trim();
  if (action !== 'list') {
    if (!named && !byUrl) usage('--queue (or --queue-url) is required');
    if (named && byUrl) usage('pass --queue or --queue-url, not both');
    if (deployed && !byUrl) usage('on a deployed stack (--table) name the DLQ with --queue-url');
  }
  if (action === 'list' && deployed && !values['queue-prefix']?.trim())
    usage('on a deployed stack (--table) dlq list needs --queue-prefix (the stack name)');
  const count = limit(action === 'show' ? 10 : 10_000);
  let match: { field: string; value: string } | null = null;
  if (values.match !== undefined) {
    if (action !== 'redrive') usage('--match is for dlq redrive');
    const at = values.match.indexOf('=');
    if (at < 1) usage('--match must be FIELD=VALUE');
    match = { field: values.match.slice(0, at), value: values.match.slice(at + 1) };
  }
  if (action === 'purge' && !values.yes) usage('dlq purge deletes every message: add --yes');

  const { SQSClient } = await import('@aws-sdk/client-sqs');
  const dlqs = await import('#lib/admin/dlq.ts');
  let sqs: InstanceType<typeof SQSClient>;
  let local: LocalState | null = null;
  if (deployed) {
    sqs = new SQSClient({});
  } else {
    local = await localState();
    sqs = new SQSClient({
      region: local.region,
      endpoint: local.endpoints.sqs,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
  }
  const pick = async (): Promise<import('#lib/admin/dlq.ts').DeadLetterQueue> => {
    if (byUrl) {
      const known = local && Object.values(local.queues).find((q) => q.deadLetterUrl === byUrl);
      const sourceUrl = values['source-url']?.trim() || (known ? known.url : null);
      return { name: dlqs.queueNameOf(byUrl), url: byUrl, sourceUrl };
    }
    const queue = local!.queues[named!];
    if (!queue)
      usage(`--queue must be one of ${Object.keys(local!.queues).join(', ')}, not ${named}`);
    return { name: named!, url: queue.deadLetterUrl, sourceUrl: queue.url };
  };
  try {
    switch (action) {
      case 'list': {
        const prefix = values['queue-prefix']?.trim();
        // Locally the state file names the queues; a prefix finds them by their redrive policies.
        const all = prefix
          ? await dlqs.discover(sqs, prefix)
          : Object.entries(local!.queues).map(([name, queue]) => ({
              name,
              url: queue.deadLetterUrl,
              sourceUrl: queue.url,
            }));
        const queues = [];
        for (const dlq of all) queues.push(await dlqs.summarize(sqs, dlq));
        return { queues };
      }
      case 'show': {
        const dlq = await pick();
        return { queue: dlq.name, messages: await dlqs.show(sqs, dlq.url, count) };
      }
      case 'redrive': {
        const dlq = await pick();
        const sourceUrl = dlq.sourceUrl ?? (await dlqs.sourceOf(sqs, dlq.url));
        const redriven = await dlqs.redrive(sqs, { ...dlq, sourceUrl }, { limit: count, match });
        return { queue: dlq.name, redriven, to: sourceUrl };
      }
      default: {
        const dlq = await pick();
        const before = await dlqs.summarize(sqs, dlq);
        await dlqs.purge(sqs, dlq.url);
        return { queue: dlq.name, purged: before.depth };
      }
    }
  } finally {
    sqs.destroy();
  }
}

const REGION = /^[a-z]{2}(-[a-z]+)+-\d{1,2}$/;

/** `deploy check`: its report as text (or JSON), exit status 1 when a finding blocks. */
async function runDeployCheck(action: string | undefined, words: number): Promise<string> {
  if (action !== 'check' || words > 2) usage(`unknown command: ${positionals.join(' ')}`);
  // Validate every argument before any AWS call.
  const { parseAssignments, readContextLayers } = await import(
    '#lib/admin/deploy-check/context-files.ts'
  );
  const assignments = values.context ?? [];
  try {
    parseAssignments(assignments);
  } catch (error) {
    usage((error as Error).message);
  }
  if (values.region !== undefined && !REGION.test(values.region))
    usage(`--region must be a Region code such as eu-west-1, not ${values.region}`);
  const { homedir } = await import('node:os');
  const { mergeContext } = await import('#lib/admin/deploy-check/settings.ts');
  const context = mergeContext(await readContextLayers(process.cwd(), homedir(), assignments));
  const { awsReads, resolveCredentials, resolveRegion } = await import(
    '#lib/admin/deploy-check/aws-reads.ts'
  );
  const region = values.region ?? (await resolveRegion());
  if (!region)
    usage('no Region: pass --region or set AWS_REGION (the Region cdk deploy would use)');
  try {
    await resolveCredentials(region);
  } catch (error) {
    throw new Error(
      `no AWS credentials (the SDK's default chain: environment, profile, SSO): ${(error as Error).message}`,
    );
  }
  const { runDeployCheck: check } = await import('#lib/admin/deploy-check/check.ts');
  const { exitCodeOf, formatFindings, summarize } = await import(
    '#lib/admin/deploy-check/findings.ts'
  );
  const reads = awsReads(region);
  try {
    const { settings, findings } = await check(context, reads);
    process.exitCode = exitCodeOf(findings);
    return values.json
      ? JSON.stringify(
          { stackName: settings.stackName, region, findings, summary: summarize(findings) },
          null,
          2,
        )
      : formatFindings(
          findings,
          `Deploy check: stack ${settings.stackName} in ${region} (read-only calls with your credentials)`,
        ).trimEnd();
  } finally {
    reads.close();
  }
}

/**
 * `stream replay` (docs/operations.md#replaying-the-stream): reads the table
 * (the local stack's, or --table's) and sends the range's submissions to the
 * replay queue (the local stack's, or --queue-url's).
 */
async function runStream(action: string | undefined, words: number): Promise<unknown> {
  if (action !== 'replay' || words > 2) usage(`unknown command: ${positionals.join(' ')}`);
  // Validate every argument before touching the table or a queue.
  const { replayRange } = await import('#domain/stream-replay.ts');
  const { isUuid } = await import('#domain/ids.ts');
  if (!values.from || !values.to) usage('--from and --to are required (ISO times)');
  let range: { from: string; to: string };
  try {
    range = replayRange(values.from, values.to, new Date());
  } catch (error) {
    usage((error as Error).message);
  }
  const formId = values.form?.trim();
  if (formId !== undefined && !isUuid(formId)) usage('--form must be a form id');
  const deployed = values.table !== undefined;
  const byUrl = values['queue-url']?.trim();
  if (deployed && !byUrl) {
    usage('on a deployed stack (--table) pass --queue-url: the stack output ReplayQueueUrl');
  }
  await connect();
  const { SQSClient } = await import('@aws-sdk/client-sqs');
  let sqs: InstanceType<typeof SQSClient>;
  let url: string;
  if (deployed) {
    sqs = new SQSClient({});
    url = byUrl!;
  } else {
    const local = await localState();
    sqs = new SQSClient({
      region: local.region,
      endpoint: local.endpoints.sqs,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    url = byUrl || local.queues.replays!.url;
  }
  try {
    const { replayStream } = await import('#lib/admin/replay.ts');
    return await replayStream({ ...range, formId, dryRun: values['dry-run'] }, { sqs, url });
  } finally {
    sqs.destroy();
  }
}

try {
  const result = await run();
  process.stdout.write(
    typeof result === 'string' ? `${result}\n` : `${JSON.stringify(result, null, 2)}\n`,
  );
} catch (error) {
  if (error instanceof UsageError) {
    process.stderr.write(`${error.message}\n${USAGE}\n`);
    process.exit(2);
  }
  process.stderr.write(`admin: ${(error as Error).message}\n`);
  process.exit(1);
}
