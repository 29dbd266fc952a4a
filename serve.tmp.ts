import { startTestServer } from './src/http/openapi/test-server.ts';
const s = await startTestServer();
console.log(s.origin);
setTimeout(() => s.close(), 120000);
