/** Stylesheets imported for esbuild to bundle (lib/app/build-app.ts). */
declare module '*.css' {}
