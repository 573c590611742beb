import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One CEP's answer, as ViaCEP gives it (`{base}/{cep}/json/`). */
export interface ViaCepAddress {
  logradouro: string;
  bairro: string;
  localidade: string;
  uf: string;
}

/** What the fake service does for a CEP: an address, an HTTP 500, or no answer at all. */
export type FakeCepAnswer = ViaCepAddress | 'error' | 'hang';

export interface FakeCepServer {
  /** The base URL for CEP_SERVICE_URL, such as http://127.0.0.1:41234/ws. */
  url: string;
  /** The CEPs asked for so far (8 digits each), in order. */
  requests: string[];
  close(): Promise<void>;
}

/**
 * A stand-in for ViaCEP on 127.0.0.1: known CEPs get their address, `'error'` ones a 500,
 * `'hang'` ones nothing until the server closes; any other CEP gets ViaCEP's `{"erro": true}`.
 */
export async function startFakeCepServer(
  answers: Record<string, FakeCepAnswer>,
): Promise<FakeCepServer> {
  const requests: string[] = [];
  const held = new Set<ServerResponse>();
  const server = createServer((request, response) => {
    const match = /^\/ws\/(\d{8})\/json\/$/.exec(request.url ?? '');
    if (!match) {
      response.writeHead(400, { 'Content-Type': 'text/plain' }).end('Bad Request');
      return;
    }
    const cep = match[1]!;
    requests.push(cep);
    const answer = answers[cep];
    if (answer === 'hang') {
      held.add(response);
      return;
    }
    if (answer === 'error') {
      response.writeHead(500, { 'Content-Type': 'text/html' }).end('<h1>Erro interno</h1>');
      return;
    }
    const body = answer
      ? { cep: `${cep.slice(0, 5)}-${cep.slice(5)}`, complemento: '', ...answer }
      : { erro: 'true' };
    response
      .writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' })
      .end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/ws`,
    requests,
    async close() {
      for (const response of held) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
