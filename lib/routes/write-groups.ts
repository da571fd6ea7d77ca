/** `npm run routes`: writes the group handler modules the route table names, and the client's route map. */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { CLIENT_ROUTES, clientRoutesModule, groupModules } from './route-groups.ts';

const lambdas = new URL('../../lambdas/', import.meta.url);
const modules = groupModules();
mkdirSync(new URL('http/groups/', lambdas), { recursive: true });
for (const file of readdirSync(new URL('http/groups/', lambdas))) {
  if (!modules.has(`http/groups/${file}`)) rmSync(new URL(`http/groups/${file}`, lambdas));
}
for (const [path, text] of modules) {
  writeFileSync(new URL(path, lambdas), text);
  console.log(`wrote lambdas/${path}`);
}
writeFileSync(new URL(CLIENT_ROUTES, lambdas), clientRoutesModule());
console.log(`wrote lambdas/${CLIENT_ROUTES}`);
