/**
 * What a function may touch, declared by each entry of routes.ts and
 * workers.ts. The kinds are the keys of the stack's grant table
 * (lib/constructs/access.ts), so a new kind is one entry there, and a kind
 * the stack cannot grant does not type-check here. A type only: no CDK code
 * reaches a bundle.
 */
export type { Access } from '#lib/constructs/access.ts';
