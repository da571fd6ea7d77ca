/**
 * `node bin/bundle-function.ts <entry> <outdir>`: bundles one Lambda handler
 * as lib/bundling.ts says (code splitting included), over what
 * NodejsFunction wrote there. Run by the stack's bundling hook.
 */
import { bundleFunction } from '#lib/bundling.ts';

const [entry, outdir] = process.argv.slice(2);
if (!entry || !outdir) {
  process.stderr.write('usage: node bin/bundle-function.ts <entry> <outdir>\n');
  process.exit(2);
}
await bundleFunction(entry, outdir, { sourceMap: true });
