// A deployment's search-after endpoint as a real HTTP server, answering what a test's `answer`
// gives for each request body; and the SearchAfterSource a download reads it through (requests
// built by the client's own httpRequest, so the batch reader fetches them as it does a real
// service's).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SearchAfterSource } from '../../src/main/core/datasets/download-run';
import { httpRequest } from '../../src/main/core/client/http';
import { SEARCH_AFTER_PATH, type SearchAfterRequestInput } from '../../src/shared/api/statistics';

export interface FakeSearchAfter {
  baseUrl: string;
  source: SearchAfterSource;
  close(): Promise<void>;
}

/** `answer` returns the body text to send (200), or `{status, text}` for another answer. */
export async function fakeSearchAfter(
  answer: (body: SearchAfterRequestInput) => string | { status: number; text: string },
): Promise<FakeSearchAfter> {
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const given = answer(JSON.parse(Buffer.concat(chunks).toString('utf8')) as SearchAfterRequestInput);
      const { status, text } = typeof given === 'string' ? { status: 200, text: given } : given;
      response.writeHead(status, { 'content-type': 'application/json' }).end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    source: {
      searchAfterVia: (body, transport) =>
        transport(
          httpRequest({ baseUrl, timeoutMs: 5_000 }, { method: 'POST', path: SEARCH_AFTER_PATH, body }),
        ),
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
