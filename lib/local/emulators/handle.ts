/** What every local emulator's start function resolves to, once it answers requests. */
export interface EmulatorHandle {
  /** Base URL for AWS SDK clients, e.g. `http://127.0.0.1:4011`. */
  endpoint: string;
  port: number;
  /** Milliseconds from the start call until the service answered a real request. */
  startupMs: number;
  stop(): Promise<void>;
}
