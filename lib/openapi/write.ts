/**
 * `npm run openapi`: writes the OpenAPI 3.1 document built from the route
 * table and the routes' contracts to `openapi.json` at the repository root,
 * which the docs route serves. `test/unit/openapi.test.ts` fails when the
 * committed file is stale.
 */
import { writeFileSync } from 'node:fs';
import { openApiJson } from './document.ts';

const target = new URL('../../openapi.json', import.meta.url);
writeFileSync(target, await openApiJson());
console.log(`wrote ${target.pathname}`);
