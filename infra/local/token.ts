/**
 * Prints an access token for an account of the local stack, signed in through the local OpenID provider:
 *   npm run token -- <email> [--password <pw>] [--totp <code>]
 * Only the token goes to stdout, so it can be used as `curl -H "Authorization: Bearer $(npm run -s token -- …)"`.
 */
import { parseArgs } from 'node:util';
import { signInForToken } from './oidc/sign-in-flow.ts';
import { DEMO_PASSWORD } from './seed/demo-users.ts';

const USAGE = 'Usage: npm run token -- <email> [--password <password>] [--totp <6-digit code>]';

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      password: { type: 'string', short: 'p' },
      totp: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [email] = positionals;
  if (values.help || !email || positionals.length > 1) {
    console.error(USAGE);
    process.exitCode = values.help ? 0 : 2;
    return;
  }
  const baseUrl = process.env.VOLTFOLIO_URL ?? `http://localhost:${process.env.PORT ?? 3000}`;
  const { accessToken } = await signInForToken({
    baseUrl,
    email,
    password: values.password ?? DEMO_PASSWORD,
    ...(values.totp ? { totpCode: values.totp } : {}),
  });
  process.stdout.write(`${accessToken}\n`);
}

main().catch((err: unknown) => {
  const reason =
    err instanceof Error
      ? err.cause instanceof Error
        ? `${err.message} (${err.cause.message})`
        : err.message
      : String(err);
  console.error(`Could not get a token: ${reason}`);
  process.exitCode = 1;
});
