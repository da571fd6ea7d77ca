/**
 * SES tenants as the local SES emulator plays them (aws-ses-v2-local has
 * none): the calls the email worker makes to ready a team's tenant are
 * answered as SES answers them and recorded, so tests and a developer can
 * see each team's tenant, its associations and its reputation policy
 * (`GET /tenants` on the emulator). A SendEmail naming an unknown tenant is
 * refused as SES refuses it. Each tenant with tenant-scoped suppression keeps
 * the addresses the simulated events bounced or complained (case preserved,
 * as SES keeps them), and DeleteSuppressedDestination lifts one by its exact
 * spelling; the GetTenant, DeleteSuppressedDestination and SendEmail calls
 * are recorded (`GET /calls`, the newest 1,000). The whole account's sending can be paused, as SES or an
 * operator pauses an account (`POST /account/sending`), and an operation made
 * to fail as an SES that cannot be reached (`POST /faults`).
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
  /** The tenant's own suppression list, each address as SES's event gave it. */
  suppressed: { EmailAddress: string; Reason: 'BOUNCE' | 'COMPLAINT' }[];
}

/** A call the emulator recorded, for tests to see what was asked of SES. */
export interface RecordedCall {
  operation: 'GetTenant' | 'DeleteSuppressedDestination' | 'SendEmail';
  at: string;
  TenantName?: string;
  EmailAddress?: string;
  /** A refused SendEmail: the error SES answered. */
  refused?: string;
  /** An accepted SendEmail: what it was sent with, for tests of the tracking it carries. */
  MessageId?: string;
  ConfigurationSetName?: string;
  EmailTags?: { Name: string; Value: string }[];
  ToAddresses?: string[];
}

/** Calls kept for `GET /calls`: the newest, so a long `npm run dev` does not grow without end. */
const KEPT_CALLS = 1000;

/** The part of a simulated SES event (ses-simulator.ts) a tenant's suppression list learns from. */
interface SuppressingEvent {
  detail: Record<string, unknown>;
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

const SUPPRESSION_PATH = /^\/v2\/email\/suppression\/addresses\/([^/]+)$/;

export class LocalTenants {
  private readonly tenants = new Map<string, LocalTenant>();
  private readonly recorded: RecordedCall[] = [];
  private accountSending: 'ENABLED' | 'DISABLED' = 'ENABLED';
  /** Operations answered as an unreachable SES answers (503), until cleared. */
  /** Failing operations: for every tenant (true) or for one tenant, by name. */
  private readonly faults = new Map<string, true | string>();

  calls(): RecordedCall[] {
    return [...this.recorded];
  }

  /** Pauses or resumes every send of the account, whatever its tenant. */
  setAccountSending(status: 'ENABLED' | 'DISABLED'): void {
    this.accountSending = status;
  }

  /**
   * Makes `operation` fail (503) while `failing`: for every tenant, or for the tenant it names
   * (a test's fault then never reaches another test's team).
   */
  setFault(operation: string, failing: boolean | string): void {
    if (failing === false) this.faults.delete(operation);
    else this.faults.set(operation, failing);
  }

  private failing(operation: string, tenantName: string | undefined): boolean {
    const fault = this.faults.get(operation);
    return fault === true || (fault !== undefined && fault === tenantName);
  }

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
  refusesSend(name: string | undefined): SesAnswer | undefined {
    const refusal = this.refusal(name);
    if (refusal)
      this.record({ operation: 'SendEmail', TenantName: name, refused: refusal.errorType });
    return refusal;
  }

  private refusal(name: string | undefined): SesAnswer | undefined {
    if (this.accountSending === 'DISABLED') {
      return error(400, 'SendingPausedException', 'Sending is paused for this account');
    }
    if (name === undefined) return undefined;
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

  /**
   * What SES adds to a tenant's own list after its email's events: the
   * recipients of a permanent bounce or a complaint, spelled as the event
   * spells them, when the tenant was made with tenant-scoped suppression.
   */
  noteEvents(name: string, events: readonly SuppressingEvent[]): void {
    const tenant = this.tenants.get(name);
    const attributes = tenant?.SuppressionAttributes as
      | { SuppressionScope?: string; SuppressedReasons?: string[] }
      | undefined;
    if (!tenant || attributes?.SuppressionScope !== 'TENANT') return;
    for (const { detail } of events) {
      const bounce = detail.bounce as
        | { bounceType?: string; bouncedRecipients?: { emailAddress: string }[] }
        | undefined;
      const complaint = detail.complaint as
        | { complainedRecipients?: { emailAddress: string }[] }
        | undefined;
      const [reason, recipients] =
        detail.eventType === 'Bounce' && bounce?.bounceType === 'Permanent'
          ? (['BOUNCE', bounce.bouncedRecipients ?? []] as const)
          : detail.eventType === 'Complaint'
            ? (['COMPLAINT', complaint?.complainedRecipients ?? []] as const)
            : [undefined, []];
      if (!reason || !attributes.SuppressedReasons?.includes(reason)) continue;
      for (const { emailAddress } of recipients) {
        if (!tenant.suppressed.some((entry) => entry.EmailAddress === emailAddress)) {
          tenant.suppressed.push({ EmailAddress: emailAddress, Reason: reason });
        }
      }
    }
  }

  /** The answer to a tenant call, or undefined when the request is not one. */
  answer(
    method: string,
    path: string,
    body: Record<string, unknown>,
    query = new URLSearchParams(),
  ): SesAnswer | undefined {
    const suppression = SUPPRESSION_PATH.exec(path);
    if (method === 'DELETE' && suppression) {
      return this.lift(decodeURIComponent(suppression[1]!), query.get('TenantName') ?? undefined);
    }
    if (method === 'POST' && path === '/v2/email/tenants') return this.create(body);
    if (method === 'POST' && path === '/v2/email/tenants/get') {
      this.record({ operation: 'GetTenant', TenantName: String(body.TenantName) });
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

  /** A SendEmail SES accepted, with the configuration set and tags it carried. */
  noteAccepted(messageId: string, request: Record<string, unknown>): void {
    const destination = request.Destination as { ToAddresses?: string[] } | undefined;
    this.record({
      operation: 'SendEmail',
      MessageId: messageId,
      TenantName: typeof request.TenantName === 'string' ? request.TenantName : undefined,
      ConfigurationSetName:
        typeof request.ConfigurationSetName === 'string' ? request.ConfigurationSetName : undefined,
      EmailTags: request.EmailTags as RecordedCall['EmailTags'],
      ToAddresses: destination?.ToAddresses,
    });
  }

  private record(call: Omit<RecordedCall, 'at'>): void {
    this.recorded.push({ ...call, at: new Date().toISOString() });
    if (this.recorded.length > KEPT_CALLS) this.recorded.shift();
  }

  /** DeleteSuppressedDestination: the exact spelling only, as SES matches it. */
  private lift(address: string, tenantName: string | undefined): SesAnswer {
    this.record({
      operation: 'DeleteSuppressedDestination',
      TenantName: tenantName,
      EmailAddress: address,
    });
    if (this.failing('DeleteSuppressedDestination', tenantName)) {
      return error(503, 'ServiceUnavailable', 'The emulator plays an SES that cannot be reached');
    }
    const tenant = tenantName === undefined ? undefined : this.tenants.get(tenantName);
    if (!tenant) return error(404, 'NotFoundException', 'No such suppression list');
    const at = tenant.suppressed.findIndex((entry) => entry.EmailAddress === address);
    if (at < 0) return error(404, 'NotFoundException', `${address} is not on the list`);
    tenant.suppressed.splice(at, 1);
    return { status: 200, body: {} };
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
      suppressed: [],
    };
    this.tenants.set(name, tenant);
    return { status: 200, body: this.view(tenant) };
  }

  private view(tenant: LocalTenant) {
    const {
      resources: _resources,
      reputationPolicy: _policy,
      sent: _sent,
      suppressed: _suppressed,
      ...shown
    } = tenant;
    return { ...shown, CreatedTimestamp: Date.parse(tenant.CreatedTimestamp) / 1000 };
  }
}
