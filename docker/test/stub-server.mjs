// The identity and captcha providers of `npm run test:container`, run in a container on the stack's network (service
// `idp` of compose.test.yml, on the same Node base as the API, no dependencies):
//   GET  /jwks.json   the public key set the API verifies ID tokens with (STUB_JWKS; the test signs the tokens)
//   POST /siteverify  a reCAPTCHA-compatible verify endpoint: success only for STUB_CAPTCHA_SECRET and
//                     STUB_CAPTCHA_TOKEN, so a wrong captcha is refused as a real provider would refuse it
//   GET  /health      200, for the compose health check
import { createServer } from 'node:http';

const jwks = process.env.STUB_JWKS ?? '';
const secret = process.env.STUB_CAPTCHA_SECRET ?? '';
const goodToken = process.env.STUB_CAPTCHA_TOKEN ?? '';
if (!jwks || !secret || !goodToken) {
  console.error('stub-server: STUB_JWKS, STUB_CAPTCHA_SECRET and STUB_CAPTCHA_TOKEN are required');
  process.exit(1);
}
const verifications = { passed: 0, refused: 0 };

function send(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/jwks.json') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(jwks);
  } else if (req.method === 'GET' && req.url === '/health') {
    send(res, 200, { ok: true, verifications });
  } else if (req.method === 'POST' && req.url === '/siteverify') {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const form = new URLSearchParams(raw);
      const success = form.get('secret') === secret && form.get('response') === goodToken;
      verifications[success ? 'passed' : 'refused'] += 1;
      send(res, 200, success ? { success } : { success, 'error-codes': ['invalid-input-response'] });
    });
  } else {
    send(res, 404, { error: 'not found' });
  }
});
server.listen(8080, '0.0.0.0', () => console.error('stub-server: listening on :8080'));
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}
