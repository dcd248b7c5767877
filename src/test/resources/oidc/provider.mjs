// A real OpenID provider for Crater's tests: oidc-provider (a certified implementation, installed by `make oidc`
// into src/test/oidc/node_modules) with its development sign-in and consent pages, one confidential client that
// must use PKCE (S256), users with group claims, and the device authorization grant.
//
//   node provider.mjs <config.json>
//
// config.json: { "port": 0, "issuer": "http://127.0.0.1:PORT", "modules": "<dir holding node_modules>",
//                "clients": [{ "client_id", "client_secret", "redirect_uris": [...] }],
//                "users": "<users.json>" }
// users.json: { "<login>": { "name", "email", "email_verified", "preferred_username", "groups": [...] } }, read at
// every sign-in, so a test changes a user's groups by rewriting it.
// It prints `ready <issuer>` once it listens, and exits when its standard input closes.
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const config = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const { default: Provider } = await import(
  pathToFileURL(join(config.modules, 'node_modules', 'oidc-provider', 'lib', 'index.js')).href
);

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'test-' + Date.now().toString(36), use: 'sig', alg: 'RS256' };

const provider = new Provider(config.issuer, {
  clients: config.clients.map((c) => ({
    response_types: ['code'],
    grant_types: ['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code'],
    token_endpoint_auth_method: 'client_secret_basic',
    ...c,
  })),
  jwks: { keys: [jwk] },
  cookies: { keys: ['crater-test-cookie-key-' + Date.now()] },
  pkce: { required: () => true },
  scopes: ['openid', 'profile', 'email', 'groups', 'offline_access'],
  claims: {
    openid: ['sub'],
    profile: ['name', 'preferred_username'],
    email: ['email', 'email_verified'],
    groups: ['groups'],
  },
  features: { devInteractions: { enabled: true }, deviceFlow: { enabled: true } },
  ttl: { IdToken: 3600, AccessToken: 3600, AuthorizationCode: 60 },
  async findAccount(ctx, id) {
    const user = JSON.parse(readFileSync(config.users, 'utf8'))[id];
    if (!user) return undefined;
    return {
      accountId: id,
      async claims() {
        return { sub: id, ...user };
      },
    };
  },
});
provider.on('server_error', (ctx, err) => console.error('server_error', err));

const server = provider.listen(config.port, '127.0.0.1', () => {
  console.log('ready ' + config.issuer);
});
process.stdin.on('end', () => server.close(() => process.exit(0)));
process.stdin.resume();
