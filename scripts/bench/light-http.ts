/**
 * The load benchmarks' HTTP client: node:http over keep-alive connections, with the whole answer read
 * into one buffer. The load generator shares this machine's two cores with the server and PostgreSQL,
 * and fetch (undici with WHATWG streams, headers and an AbortSignal per call) cost it about 1 ms of CPU
 * a request: a third of a core at 300 requests/s, taken from the system it measures. A real deployment's
 * clients run elsewhere; this client costs a fraction of that
 * (docs/adr/0028-fewer-round-trips-per-request.md).
 */
import http from 'node:http';

export interface LightAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface LightRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  timeoutMs: number;
  /** Called with each chunk instead of keeping the body (long CSV answers). */
  onChunk?: (chunk: Buffer) => void;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });

export function lightRequest(url: string, init: LightRequest): Promise<LightAnswer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...init.headers };
    if (init.body !== undefined) headers['content-length'] = Buffer.byteLength(init.body);
    const request = http.request(url, { method: init.method ?? 'GET', headers, agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => (init.onChunk ? init.onChunk(chunk) : chunks.push(chunk)));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
      response.on('error', reject);
    });
    request.setTimeout(init.timeoutMs, () =>
      request.destroy(new Error(`no answer within ${init.timeoutMs} ms`)),
    );
    request.on('error', reject);
    request.end(init.body);
  });
}

/** A multipart form as bytes and its content type (what fetch would send for it). */
export async function encodeForm(form: FormData): Promise<{ body: Buffer; contentType: string }> {
  const request = new Request('http://form.invalid/', { method: 'POST', body: form });
  return {
    body: Buffer.from(await request.arrayBuffer()),
    contentType: request.headers.get('content-type') ?? 'multipart/form-data',
  };
}

/** A single-valued header (node:http gives arrays for repeated ones). */
export const headerValue = (answer: LightAnswer, name: string): string | null => {
  const value = answer.headers[name];
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
};
