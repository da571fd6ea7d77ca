import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { config } from '#config';
import { hashMatches, keyIdOf } from '#domain/api-keys.ts';
import { ServiceError, unauthorized } from '#domain/errors.ts';
import { retryAfterSeconds, windowAt } from '#domain/rate-limit.ts';
import { header } from '#http/request.ts';
import type { HttpResponse } from '#http/respond.ts';
import { addLogContext } from '#log';
import { getApiKey } from '#store/api-keys.ts';
import { admitRequest, managementKeyScope } from '#store/request-counts.ts';
import { getTeam, type Team } from '#store/teams.ts';

export interface Caller {
  keyId: string;
  userId: string;
  team: Team;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** Resolves `Authorization: Bearer <key>` to its team, or answers 401. */
export function apiKeyAuth(): MiddlewareObj<APIGatewayProxyEvent, HttpResponse> {
  return {
    before: async (request) => {
      const authorization = header(request.event, 'authorization');
      if (!authorization) throw unauthorized('Send an API key as Authorization: Bearer <key>');
      const apiKey = BEARER.exec(authorization)?.[1];
      const keyId = apiKey ? keyIdOf(apiKey) : undefined;
      if (!apiKey || !keyId) throw unauthorized('The Authorization header is not a valid API key');
      const record = await getApiKey(keyId);
      if (!record || !hashMatches(apiKey, record.hash)) throw unauthorized('Unknown API key');
      if (record.revokedAt) throw unauthorized('This API key has been revoked');
      const now = Date.now();
      const window = windowAt(now, 60);
      // The team read and the rate count are independent: one round trip for both.
      const [team, admitted] = await Promise.all([
        getTeam(record.teamId),
        admitRequest(managementKeyScope(keyId), window, config.managementRatePerMinute),
      ]);
      if (!admitted) {
        throw new ServiceError(
          429,
          'rate_limited',
          `This API key is limited to ${config.managementRatePerMinute} requests a minute`,
          { headers: { 'retry-after': String(retryAfterSeconds(window, now)) } },
        );
      }
      if (!team) throw unauthorized('The team of this API key no longer exists');
      addLogContext({ keyId, teamId: team.teamId });
      (request.context as unknown as { caller: Caller }).caller = {
        keyId,
        userId: record.userId,
        team,
      } satisfies Caller;
    },
  };
}
