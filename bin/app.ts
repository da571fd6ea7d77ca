import { createFormServiceApp } from '#lib/form-service-app.ts';

// Run by the CDK CLI (cdk.json "app"); the App synthesizes itself on exit.
createFormServiceApp();
