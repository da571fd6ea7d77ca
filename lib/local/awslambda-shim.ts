import { Writable } from 'node:stream';

/**
 * The `awslambda` global of the Lambda Node.js runtime, as the local runtime
 * provides it, behaving like aws-lambda-nodejs-runtime-interface-client:
 * `streamifyResponse` marks the handler with the runtime's symbol and returns
 * it unchanged; `HttpResponseStream.from` sets the integration content type
 * and makes the stream's first `write` send the JSON prelude and 8 NUL bytes
 * ahead of the data. Handlers therefore run the same code locally and on AWS.
 */

export const HANDLER_STREAMING = Symbol.for('aws.lambda.runtime.handler.streaming');
export const HANDLER_HIGH_WATER_MARK = Symbol.for(
  'aws.lambda.runtime.handler.streaming.highWaterMark',
);
const STREAM_RESPONSE = 'response';
export const PRELUDE_CONTENT_TYPE = 'application/vnd.awslambda.http-integration-response';
export const PRELUDE_DELIMITER_BYTES = 8;

type Marked = Record<symbol, unknown>;

function streamifyResponse<T extends object>(handler: T, options?: { highWaterMark?: number }): T {
  (handler as Marked)[HANDLER_STREAMING] = STREAM_RESPONSE;
  if (typeof options?.highWaterMark === 'number') {
    (handler as Marked)[HANDLER_HIGH_WATER_MARK] = Math.trunc(options.highWaterMark);
  }
  return handler;
}

const HttpResponseStream = {
  from(stream: LocalResponseStream, prelude: Record<string, unknown>): LocalResponseStream {
    stream.setContentType(PRELUDE_CONTENT_TYPE);
    const json = JSON.stringify(prelude);
    stream._onBeforeFirstWrite = (write) => {
      write(json);
      write(new Uint8Array(PRELUDE_DELIMITER_BYTES));
    };
    return stream;
  },
};

/**
 * Adds the runtime's members to `globalThis.awslambda`. Call before importing
 * handlers. The object may exist already: the AWS SDK's invoke store creates
 * an empty one (and keeps its own state on it), so it is extended in place.
 */
export function installAwsLambdaGlobal(): void {
  const global = globalThis as { awslambda?: Record<string, unknown> };
  global.awslambda ??= {};
  global.awslambda.streamifyResponse ??= streamifyResponse;
  global.awslambda.HttpResponseStream ??= HttpResponseStream;
}

/** Whether Lambda would run this handler in streaming mode (a wrong mark fails as it does there). */
export function isStreamingHandler(handler: object): boolean {
  const mark = (handler as Marked)[HANDLER_STREAMING];
  if (!mark) return false;
  if (mark === STREAM_RESPONSE) return true;
  throw new Error('Only response streaming is supported.');
}

export function streamingHighWaterMark(handler: object): number | undefined {
  const value = Number((handler as Marked)[HANDLER_HIGH_WATER_MARK]);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

type WriteCallback = (error?: Error | null) => void;

/**
 * The `responseStream` a streaming handler receives. Bytes go to `sink`,
 * and `write` returns false while the sink has not taken them (backpressure,
 * as the runtime's HTTP request to Lambda's data plane gives). As in the
 * runtime, only `write` runs the first-write hook; `end(chunk)` without a
 * write before it sends no prelude.
 */
export class LocalResponseStream extends Writable {
  contentType = 'application/octet-stream';
  _onBeforeFirstWrite: ((write: (chunk: string | Uint8Array) => void) => void) | undefined;
  #written = false;
  readonly #sink: (chunk: Buffer) => Promise<void>;

  constructor(sink: (chunk: Buffer) => Promise<void>, highWaterMark?: number) {
    super(highWaterMark ? { highWaterMark } : {});
    this.#sink = sink;
  }

  setContentType(contentType: string): void {
    if (this.#written) throw new Error('Cannot set content-type, too late.');
    this.contentType = contentType;
  }

  override write(
    chunk: unknown,
    encoding?: BufferEncoding | WriteCallback,
    callback?: WriteCallback,
  ): boolean {
    if (!this.#written && this._onBeforeFirstWrite) {
      this._onBeforeFirstWrite((early) => super.write(early));
    }
    this.#written = true;
    if (typeof encoding === 'function') return super.write(chunk, encoding);
    return super.write(chunk, encoding ?? 'utf8', callback);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: WriteCallback): void {
    this.#sink(chunk).then(() => callback(), callback);
  }
}
