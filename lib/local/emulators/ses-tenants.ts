/**
 * SES tenants as the local SES emulator plays them (aws-ses-v2-local has
 * none): the calls the email worker makes to ready a team's tenant are
 * answered as SES answers them and recorded, so tests and a developer can
 * see each team's tenant, its associations and its reputation policy
 * (`GET /tenants` on the emulator). A SendEmail naming an unknown tenant is
 * refused as SES refuses it.
 */
export interface LocalTenant {
  TenantName: string;
  TenantId: string;
  TenantArn: string;
  CreatedTimestamp: string;
  SendingStatus: 'ENABLED' | 'DISABLED' | 'REINSTATED';
  SuppressionAttributes?: unknown;
  resources: string[];
  reputationPolicy?: string;
  /** Emails sent naming the tenant. */
  sent: number;
}

export interface SesAnswer {
  status: number;
  body: unknown;
  errorType?: string;
}

const ACCOUNT = '000000000000';
const REGION = 'us-east-1';

const error = (status: number, type: string, message: string): SesAnswer => ({
  status,
  errorType: type,
  body: { __type: type, message },
});

export class LocalTenants {
  private readonly tenants = new Map<string, LocalTenant>();

  list(): LocalTenant[] {
    return [...this.tenants.values()];
  }

  has(name: string): boolean {
    return this.tenants.has(name);
  }

  /**
   * SES's answer to a SendEmail naming `name`, when it refuses it: an unknown
   * tenant, or one whose sending is paused (SES pauses a tenant for its
   * reputation; a test pauses it with `POST /tenants/{name}/sending`).
   */
  refusesSend(name: string): SesAnswer | undefined {
    const tenant = this.tenants.get(name);
    if (!tenant) return error(404, 'NotFoundException', `Tenant ${name} does not exist`);
    if (tenant.SendingStatus === 'DISABLED') {
      return error(400, 'SendingPausedException', `Sending is paused for tenant ${name}`);
    }
    return undefined;
  }

  /** Pauses or resumes a tenant's sending; false when there is no such tenant. */
  setSending(name: string, status: 'ENABLED' | 'DISABLED'): boolean {
    const tenant = this.tenants.get(name);
    if (!tenant) return false;
    tenant.SendingStatus = status;
    return true;
  }

  noteSend(name: string): void {
    const tenant = this.tenants.get(name);
    if (tenant) tenant.sent += 1;
  }

  /** The answer to a tenant call, or undefined when the request is not one. */
  answer(method: string, path: string, body: Record<string, unknown>): SesAnswer | undefined {
    if (method === 'POST' && path === '/v2/email/tenants') return this.create(body);
    if (method === 'POST' && path === '/v2/email/tenants/get') {
      const tenant = this.tenants.get(String(body.TenantName));
      return tenant
        ? { status: 200, body: { Tenant: this.view(tenant) } }
        : error(404, 'NotFoundException', `Tenant ${String(body.TenantName)} does not exist`);
    }
    if (method === 'POST' && path === '/v2/email/tenants/resources') {
      const tenant = this.tenants.get(String(body.TenantName));
      if (!tenant) return error(404, 'NotFoundException', 'Tenant does not exist');
      const arn = String(body.ResourceArn);
      if (tenant.resources.includes(arn)) {
        return error(400, 'AlreadyExistsException', 'The resource is already associated');
      }
      tenant.resources.push(arn);
      return { status: 200, body: {} };
    }
    const policy = /^\/v2\/email\/reputation\/entities\/RESOURCE\/([^/]+)\/policy$/.exec(path);
    if (method === 'PUT' && policy) {
      const reference = decodeURIComponent(policy[1]!);
      const tenant = this.list().find((each) => each.TenantArn === reference);
      if (!tenant) return error(404, 'NotFoundException', 'No such reputation entity');
      tenant.reputationPolicy = String(body.ReputationEntityPolicy);
      return { status: 200, body: {} };
    }
    return undefined;
  }

  private create(body: Record<string, unknown>): SesAnswer {
    const name = String(body.TenantName ?? '');
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(name)) {
      return error(400, 'BadRequestException', 'TenantName: up to 64 letters, digits, - and _');
    }
    if (this.tenants.has(name))
      return error(400, 'AlreadyExistsException', `Tenant ${name} exists`);
    const id = crypto.randomUUID().replaceAll('-', '').slice(0, 20);
    const tenant: LocalTenant = {
      TenantName: name,
      TenantId: id,
      TenantArn: `arn:aws:ses:${REGION}:${ACCOUNT}:tenant/${name}/${id}`,
      CreatedTimestamp: new Date().toISOString(),
      SendingStatus: 'ENABLED',
      SuppressionAttributes: body.SuppressionAttributes,
      resources: [],
      sent: 0,
    };
    this.tenants.set(name, tenant);
    return { status: 200, body: this.view(tenant) };
  }

  private view(tenant: LocalTenant) {
    const { resources: _resources, reputationPolicy: _policy, sent: _sent, ...shown } = tenant;
    return { ...shown, CreatedTimestamp: Date.parse(tenant.CreatedTimestamp) / 1000 };
  }
}
