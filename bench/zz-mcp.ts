import { modernExchange } from '../src/http/routes/mcp/modern.js';
import { callAuthInfo, toolSet } from '../src/http/routes/mcp/server.js';
import { mcpServer } from '../src/http/routes/mcp/server.js';
const ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
const tool = { name: 'echo', title: 't', description: 'd', inputSchema: { type: 'object' }, annotations: {}, call: async () => ({ ok: 1 }), taskOf: () => undefined } as any;
const authInfo = callAuthInfo({ context: { caller: { credentialId: 'k' } } as any, tools: toolSet([tool]), onFault() {} });
const modern = modernExchange('http://x');
const headers = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'echo' };
const body = () => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: {}, _meta: ENVELOPE } });
console.log(await modern(headers, body(), authInfo));
for (let r = 0; r < 3; r++) {
  for (let i = 0; i < 2000; i++) await modern(headers, body(), authInfo);
  const t = process.hrtime.bigint(); const c = process.cpuUsage();
  for (let i = 0; i < 10000; i++) await modern(headers, body(), authInfo);
  const u = process.cpuUsage(c);
  console.log('modern tools/call', Number(process.hrtime.bigint() - t) / 10000 / 1000, 'µs wall', (u.user + u.system) / 10000, 'µs cpu');
  const t2 = process.hrtime.bigint();
  for (let i = 0; i < 10000; i++) mcpServer('http://x', 'modern');
  console.log('  new server alone', Number(process.hrtime.bigint() - t2) / 10000 / 1000, 'µs');
}
