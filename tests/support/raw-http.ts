import { connect } from 'node:net';

/**
 * A request written by hand on a socket, so a test can send targets (`//[`, `%ZZ`, `*`) that fetch
 * and node:http would clean up or refuse. `lines` are the request line and any headers; Host,
 * Content-Length and Connection are added. Resolves with the answer's status code; rejects when
 * the connection ends or stays silent for 5 s without one.
 */
export function rawRequest(origin: string, lines: readonly string[], body = ''): Promise<number> {
  const { port, host } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    let answer = '';
    socket.setTimeout(5000, () => {
      socket.destroy();
      reject(new Error(`no answer to ${lines[0]}`));
    });
    socket.on('data', (chunk) => {
      answer += chunk.toString();
      const status = /^HTTP\/1\.1 (\d{3})/.exec(answer);
      if (status?.[1]) {
        socket.destroy();
        resolve(Number(status[1]));
      }
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error(`the connection closed without an answer to ${lines[0]}`)));
    const head = [
      ...lines,
      `Host: ${host}`,
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Connection: close',
    ];
    socket.write(`${head.join('\r\n')}\r\n\r\n${body}`);
  });
}
