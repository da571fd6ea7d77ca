/**
 * `npm run openapi`: writes the OpenAPI 3.1 document built from the route
 * table and the handlers' zod schemas to `openapi.json` at the repository
 * root. `test/unit/openapi.test.ts` fails when the committed file is stale.
 */
import { writeFileSync } from 'node:fs';
import { openApiJson } from '../../lambdas/http/docs/openapi-document.ts';

const target = new URL('../../openapi.json', import.meta.url);
writeFileSync(target, openApiJson());
console.log(`wrote ${target.pathname}`);
