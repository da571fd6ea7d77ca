import { describe, expect, it } from 'vitest';
import { answersHead, fallbackRoute, routeFunctions, routes } from '#routes';
import { workers } from '#workers';
import { deployedMethods } from './api-methods.ts';
import { everyAccessRoutes } from './route-fixtures.ts';
import {
  cdkJsonContext,
  propertiesOf,
  resourcesOfType,
  type Synthesized,
  synthesize,
} from './synthesize.ts';

const real = synthesize();
const extended = synthesize({ routes: everyAccessRoutes });
const stageName = String(cdkJsonContext.apiStageName);

function describeMethods(methods: ReturnType<typeof deployedMethods>): string {
  return methods.map((m) => `${m.httpMethod} ${m.path} -> ${m.functionId}`).join('\n');
}

describe('the REST API', () => {
  it('is edge-optimized and passes multipart/form-data bodies as binary', () => {
    real.all.hasResourceProperties('AWS::ApiGateway::RestApi', {
      EndpointConfiguration: { Types: ['EDGE'] },
      BinaryMediaTypes: ['multipart/form-data'],
    });
  });

  describe.each([
    ['the route table', real, routes],
    ['a table using every access kind and streaming', extended, everyAccessRoutes],
  ])('with %s', (_label, built, table) => {
    const methods = deployedMethods(built);

    it.each(table.map((route) => [route.method, route.path, route] as const))(
      '%s %s is a proxy integration with its own function',
      (_method, _path, route) => {
        const expectedFunction = built.logicalId(built.functionOf(route.name).lambda);
        const found = methods.filter((m) => m.path === route.path && m.httpMethod === route.method);
        expect(
          found,
          `expected one ${route.method} ${route.path}; API has:\n${describeMethods(methods)}`,
        ).toHaveLength(1);
        const method = found[0]!;
        expect(method.functionId, `${route.method} ${route.path} invokes the wrong function`).toBe(
          expectedFunction,
        );
        expect(method.integrationType, 'routes must use Lambda proxy integration').toBe(
          'AWS_PROXY',
        );
        if (route.streaming) {
          expect(method.responseTransferMode, `${route.name} streams: transfer mode`).toBe(
            'STREAM',
          );
          expect(
            method.uri,
            `${route.name} streams: must call response-streaming-invocations`,
          ).toContain('response-streaming-invocations');
          expect(
            method.timeoutMillis,
            `${route.name} streams: integration timeout follows the route`,
          ).toBe(route.timeoutSeconds * 1000);
        } else {
          expect(method.responseTransferMode ?? 'BUFFERED', `${route.name} is buffered`).toBe(
            'BUFFERED',
          );
          expect(method.uri).not.toContain('response-streaming-invocations');
        }
      },
    );

    it('sends ANY on every path, and on a root {proxy+}, to the fallback function', () => {
      const fallbackId = built.logicalId(built.functionOf(fallbackRoute.name).lambda);
      const paths = new Set(['/', '/{proxy+}', ...methods.map((m) => m.path)]);
      for (const path of paths) {
        const any = methods.filter((m) => m.path === path && m.httpMethod === 'ANY');
        expect(
          any.map((m) => m.functionId),
          `ANY ${path} should reach the fallback`,
        ).toEqual([fallbackId]);
      }
    });

    it('public GET routes answer HEAD through their own function, and no other route does', () => {
      const heads = methods.filter((m) => m.httpMethod === 'HEAD');
      const expected = table.filter(answersHead);
      expect(heads.map((m) => m.path).sort()).toEqual(expected.map((r) => r.path).sort());
      for (const route of expected) {
        const head = heads.find((m) => m.path === route.path);
        expect(head?.functionId, `HEAD ${route.path}`).toBe(
          built.logicalId(built.functionOf(route.name).lambda),
        );
      }
    });

    it('has no method beyond the route table and the fallback catch-alls', () => {
      const expected = new Set(
        table.flatMap((route) => [
          `${route.method} ${route.path}`,
          ...(answersHead(route) ? [`HEAD ${route.path}`] : []),
        ]),
      );
      const extra = methods.filter(
        (m) => m.httpMethod !== 'ANY' && !expected.has(`${m.httpMethod} ${m.path}`),
      );
      expect(describeMethods(extra), 'methods not in the route table').toBe('');
    });

    it('builds one function per route or group of routes, the fallback and one per worker, nothing else', () => {
      const functions = Object.keys(resourcesOfType(built.all, 'AWS::Lambda::Function'));
      expect(functions, `functions: ${functions.join(', ')}`).toHaveLength(
        routeFunctions(table).length + 1 + workers.length,
      );
    });

    it('each method may invoke its function on the stage, and nothing else may: one permission per method', () => {
      const permissions = [...built.templates].flatMap(([stack, template]) =>
        Object.values(resourcesOfType(template, 'AWS::Lambda::Permission')).map((permission) =>
          built.resolved(stack, propertiesOf(permission)),
        ),
      );
      const restApiId = built.logicalId(built.stack.api.restApi);
      for (const spec of routeFunctions(table)) {
        const fnId = built.logicalId(built.functionOf(spec.routes[0]!.name).lambda);
        const own = permissions.filter(
          (p) => JSON.stringify(p.FunctionName) === JSON.stringify({ 'Fn::GetAtt': [fnId, 'Arn'] }),
        );
        const expected = spec.routes.flatMap((route) =>
          (answersHead(route) ? [route.method, 'HEAD'] : [route.method]).map(
            (method) => `/${stageName}/${method}${route.path.replace(/\{[^}]*\}/g, '*')}`,
          ),
        );
        expect(
          own.map((p) => {
            expect(p.Principal).toBe('apigateway.amazonaws.com');
            const arn = JSON.stringify(p.SourceArn);
            expect(arn, `${spec.name}: the API's own ARN`).toContain(`{"Ref":"${restApiId}"}`);
            return /"(\/[^"]+)"\]\]\}$/.exec(arn)?.[1];
          }),
          spec.name,
        ).toEqual(expected);
      }
    });
  });

  it('streams the CSV export: InvokeWithResponseStream on its own function, 300 s', () => {
    const [method, ...others] = deployedMethods(real).filter(
      (m) => m.httpMethod === 'GET' && m.path === '/v1/forms/{id}/export.csv',
    );
    expect(others).toEqual([]);
    expect(method?.functionId).toBe(real.logicalId(real.functionOf('exportSubmissionsCsv').lambda));
    expect(method?.responseTransferMode).toBe('STREAM');
    // The 2021-11-15 Lambda API path of InvokeWithResponseStream.
    expect(method?.uri).toMatch(
      /:lambda:path\/2021-11-15\/functions\/".*"\/response-streaming-invocations"/,
    );
    expect(method?.timeoutMillis).toBe(300_000);
  });

  it('refuses a buffered route whose timeout exceeds API Gateway’s 29 s', () => {
    const slow = { ...routes[0]!, name: 'slowRoute', timeoutSeconds: 60 };
    expect(() => synthesize({ routes: [slow] })).toThrow(/slowRoute.*29 s/);
  });
});

describe('API Gateway’s own errors', () => {
  const responses = Object.values(
    resourcesOfType(real.all, 'AWS::ApiGateway::GatewayResponse'),
  ).map(propertiesOf);

  it.each(['DEFAULT_4XX', 'DEFAULT_5XX', 'THROTTLED', 'MISSING_AUTHENTICATION_TOKEN'])(
    '%s answers the JSON envelope {ok:false,error,message} with CORS and the request id',
    (type) => {
      const response = responses.find((r) => r.ResponseType === type);
      expect(response, `no gateway response for ${type}`).toBeDefined();
      expect(
        (response!.ResponseParameters as Record<string, string>)[
          'gatewayresponse.header.Access-Control-Allow-Origin'
        ],
        `${type} must carry Access-Control-Allow-Origin: *`,
      ).toBe("'*'");
      const template = (response!.ResponseTemplates as Record<string, string>)['application/json']!;
      // API Gateway substitutes messageString with an already-quoted string.
      const body = JSON.parse(
        template
          .replace('$context.error.messageString', '"sample"')
          .replace('$context.requestId', 'request-1'),
      );
      expect(body, `${type} body must be the service's error envelope`).toEqual({
        ok: false,
        error: expect.stringMatching(/^[a-z_]+$/),
        message: expect.any(String),
        // No header can carry it here (docs/api-basics.md#errors: x-request-id on every response).
        requestId: 'request-1',
      });
    },
  );

  it('an unroutable path is a 404 not_found, not a 403', () => {
    const response = responses.find((r) => r.ResponseType === 'MISSING_AUTHENTICATION_TOKEN');
    expect(response, 'no gateway response for MISSING_AUTHENTICATION_TOKEN').toBeDefined();
    expect(response!.StatusCode).toBe('404');
    expect((response!.ResponseTemplates as Record<string, string>)['application/json']).toContain(
      '"not_found"',
    );
  });
});

describe('the stage', () => {
  it('logs JSON access lines to its log group, execution logs at ERROR without data trace, throttled, detailed metrics on submit only', () => {
    const [stage] = Object.values(resourcesOfType(real.all, 'AWS::ApiGateway::Stage')).map(
      propertiesOf,
    );
    expect(stage?.StageName).toBe(stageName);
    const accessLog = stage?.AccessLogSetting as { DestinationArn: unknown; Format: string };
    expect(
      JSON.stringify(accessLog.DestinationArn),
      'access logs go to the API log group',
    ).toContain(real.logicalId(real.stack.stage.node.findChild('AccessLogs')));
    // As API Gateway fills it: `…messageString` quoted and escaped, every other value as is.
    const filled = (value: string) =>
      accessLog.Format.replaceAll('$context.error.messageString', JSON.stringify(value));
    expect(JSON.parse(filled('Missing Authentication Token'))).toMatchObject({
      requestId: '$context.requestId',
      status: '$context.status',
      errorMessage: 'Missing Authentication Token',
    });
    const hostile = 'say "hi" \\ {"x":1}\n';
    expect(JSON.parse(filled(hostile)).errorMessage, 'valid JSON whatever the message').toBe(
      hostile,
    );
    // Values API Gateway writes unescaped must never be able to hold a quote.
    expect(accessLog.Format).not.toContain('$context.identity.userAgent');
    expect(accessLog.Format).not.toContain('$context.integration.error');
    expect(accessLog.Format).not.toMatch(/"\$context\.error\.message"/);
    expect(stage?.MethodSettings, 'stage-wide method settings, then the submit route’s').toEqual([
      {
        DataTraceEnabled: false,
        HttpMethod: '*',
        LoggingLevel: 'ERROR',
        MetricsEnabled: false,
        ResourcePath: '/*',
        ThrottlingBurstLimit: Number(cdkJsonContext.apiThrottleBurst),
        ThrottlingRateLimit: Number(cdkJsonContext.apiThrottleRatePerSecond),
      },
      {
        DataTraceEnabled: false,
        HttpMethod: 'POST',
        MetricsEnabled: true,
        ResourcePath: '/~1s~1{key}',
        ThrottlingBurstLimit: Number(cdkJsonContext.submitThrottleBurst),
        ThrottlingRateLimit: Number(cdkJsonContext.submitThrottleRatePerSecond),
      },
    ]);
  });

  it('takes throttling from context, also as CLI strings', () => {
    const { all } = synthesize({
      context: { apiThrottleRatePerSecond: '7', apiThrottleBurst: '9' },
    });
    const [stage] = Object.values(resourcesOfType(all, 'AWS::ApiGateway::Stage')).map(propertiesOf);
    expect(stage?.MethodSettings).toMatchObject([
      { ResourcePath: '/*', ThrottlingRateLimit: 7, ThrottlingBurstLimit: 9 },
      { ResourcePath: '/~1s~1{key}' },
    ]);
  });

  it('is deployed anew whenever a method changes: the deployment’s logical id follows the route table', () => {
    const deploymentId = (built: Synthesized) =>
      Object.keys(resourcesOfType(built.all, 'AWS::ApiGateway::Deployment'));
    const [today] = deploymentId(real);
    expect(deploymentId(synthesize())).toEqual([today]);
    const moved = routes.map((route) =>
      route.name === 'getForm' ? { ...route, path: '/v1/forms/{id}/probe' } : route,
    );
    expect(deploymentId(synthesize({ routes: moved }))).not.toEqual([today]);
    const longer = routes.map((route) =>
      route.name === 'exportSubmissionsCsv' ? { ...route, timeoutSeconds: 240 } : route,
    );
    expect(deploymentId(synthesize({ routes: longer }))).not.toEqual([today]);
    // The stage follows the deployment it names.
    const [stage] = Object.values(resourcesOfType(real.all, 'AWS::ApiGateway::Stage'));
    expect(propertiesOf(stage!).DeploymentId).toEqual({ Ref: today });
  });

  it('attaches a WAF web ACL to the stage when webAclArn names one, and none by default', () => {
    real.all.resourceCountIs('AWS::WAFv2::WebACLAssociation', 0);
    const webAclArn =
      'arn:aws:wafv2:eu-west-1:123456789012:regional/webacl/forms/a1b2c3d4-5678-90ab-cdef-0123456789ab';
    const guarded = synthesize({ context: { webAclArn } });
    const [association] = Object.values(
      resourcesOfType(guarded.all, 'AWS::WAFv2::WebACLAssociation'),
    ).map(propertiesOf);
    expect(association?.WebACLArn).toBe(webAclArn);
    const [stageId] = Object.keys(resourcesOfType(guarded.all, 'AWS::ApiGateway::Stage'));
    expect(JSON.stringify(association?.ResourceArn)).toContain(`/stages/",{"Ref":"${stageId}"}`);
    expect(() =>
      synthesize({ context: { webAclArn: webAclArn.replace('regional', 'global') } }),
    ).toThrow(/webAclArn/);
  });

  it('sets the account’s CloudWatch role unless told not to', () => {
    real.all.resourceCountIs('AWS::ApiGateway::Account', 1);
    const { all } = synthesize({ context: { apiGatewayCloudWatchRole: false } });
    all.resourceCountIs('AWS::ApiGateway::Account', 0);
  });
});

describe('BASE_URL and outputs', () => {
  const restApiId = real.logicalId(real.stack.api.restApi);
  const derived = {
    'Fn::Join': [
      '',
      [
        'https://',
        { Ref: restApiId },
        '.execute-api.',
        { Ref: 'AWS::Region' },
        '.',
        { Ref: 'AWS::URLSuffix' },
        `/${stageName}`,
      ],
    ],
  };

  it('every function gets BASE_URL built from the API id and the literal stage name', () => {
    for (const fn of real.stack.allFunctions()) {
      const variables = real.resolved(
        fn.lambda,
        (
          real.templateOf(fn.lambda).toJSON().Resources[real.logicalId(fn.lambda)].Properties
            .Environment as { Variables: Record<string, unknown> }
        ).Variables,
      );
      expect(variables.BASE_URL, 'BASE_URL must not reference the stage resource (cycle)').toEqual(
        derived,
      );
    }
  });

  it('a baseUrl context value replaces the derived URL', () => {
    const custom = synthesize({ context: { baseUrl: 'https://forms.example.com/' } });
    for (const fn of Object.values(resourcesOfType(custom.all, 'AWS::Lambda::Function'))) {
      const variables = (propertiesOf(fn).Environment as { Variables: Record<string, unknown> })
        .Variables;
      expect(variables.BASE_URL, 'trailing slash trimmed, value used as is').toBe(
        'https://forms.example.com',
      );
    }
    custom.template.hasOutput('BaseUrl', { Value: 'https://forms.example.com' });
  });

  it('outputs AlarmTopicArn, ApiUrl, BaseUrl, ReplayQueueUrl, TableName and UploadsBucket, and no others', () => {
    const outputs = real.template.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(Object.keys(outputs).sort()).toEqual([
      'AlarmTopicArn',
      'ApiUrl',
      'BaseUrl',
      'ReplayQueueUrl',
      'TableName',
      'UploadsBucket',
    ]);
    expect(real.resolved(real.stack, outputs.BaseUrl?.Value)).toEqual(derived);
    expect(outputs.ReplayQueueUrl?.Value).toEqual({
      Ref: real.logicalId(real.stack.queues.get('replays').queue),
    });
    expect(real.resolved(real.stack, outputs.AlarmTopicArn?.Value)).toEqual({
      Ref: real.logicalId(real.stack.observability.topic),
    });
    expect(outputs.TableName?.Value).toEqual({ Ref: real.logicalId(real.stack.storage.table) });
    expect(outputs.UploadsBucket?.Value).toEqual({
      Ref: real.logicalId(real.stack.storage.uploads),
    });
  });
});
