/**
 * `npm run admin -- <command>`: teams and API keys. Talks to the local stack
 * (found through .local/dev.json) by default, or to a deployed table with
 * `--table NAME` and the usual AWS credentials and region.
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
The API key is shown once: only its SHA-256 is stored.`;

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
        submissions: { type: 'string' },
        table: { type: 'string' },
        'state-dir': { type: 'string', default: '.local' },
        help: { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    process.exit(2);
  }
})();

function need(name: 'name' | 'email' | 'plan' | 'team' | 'key' | 'submissions'): string {
  const value = values[name]?.trim();
  if (!value) usage(`--${name} is required`);
  return value;
}

function plan(): 'free' | 'pro' {
  const value = need('plan');
  if (value !== 'free' && value !== 'pro') usage('--plan must be free or pro');
  return value;
}

async function connect(): Promise<void> {
  if (values.table) {
    process.env.TABLE_NAME = values.table;
    return;
  }
  const stateFile = join(resolve(values['state-dir']), 'dev.json');
  let info: { tableName: string; region: string; endpoints: { dynamodb: string } };
  try {
    info = JSON.parse(await readFile(stateFile, 'utf8'));
  } catch {
    throw new Error(
      `no local stack found (${stateFile} is missing): run npm run dev, or pass --table NAME for a deployed stack`,
    );
  }
  Object.assign(process.env, {
    TABLE_NAME: info.tableName,
    AWS_REGION: info.region,
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_DYNAMODB: info.endpoints.dynamodb,
  });
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

async function run(): Promise<unknown> {
  const [group, action] = positionals;
  if (values.help) return USAGE;
  const command = `${group ?? ''} ${action ?? ''}`.trim();
  const known = [
    'team create',
    'team plan',
    'team allowance',
    'team list',
    'key create',
    'key revoke',
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
  }[command]!();
  await connect();
  const accounts = await import('../lib/admin/accounts.ts');
  const teams = await import('../lambdas/store/teams.ts');
  const keys = await import('../lambdas/store/api-keys.ts');
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
    default: {
      const { keyId } = input as { keyId: string };
      if (!(await keys.revokeApiKey(keyId))) throw new Error(`no key ${keyId}`);
      return { keyId, revoked: true };
    }
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
