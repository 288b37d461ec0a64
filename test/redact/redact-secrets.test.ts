import { redactEnvFile, redactSecrets } from '../../lib/redact/redact-secrets';
import { generateEnvFile, generateSecrets, secretCore } from './secret-corpus';

const planted = generateSecrets(20261129);

describe('redactSecrets', () => {
  it.each(planted.map((s) => [s.kind, s.context, s] as const))('redacts a %s in %s', (_kind, _context, secret) => {
    const { text, findings } = redactSecrets(secret.context);
    expect(text).not.toContain(secret.value);
    expect(text).not.toContain(secretCore(secret.value));
    expect(text).toContain(`[REDACTED:${secret.kind}]`);
    expect(findings.map((f) => f.kind)).toContain(secret.kind);
  });

  it('keeps the scheme, user and host of a URL and redacts only its password', () => {
    const { text } = redactSecrets('postgres://app_user:s3cr3t-P4ss@db.internal:5432/app');
    expect(text).toBe('postgres://app_user:[REDACTED:url-password]@db.internal:5432/app');
  });

  it('redacts a multi-line private key block whole, header and footer included', () => {
    const body = Array.from({ length: 4 }, (_, i) => `MIIEvQIBADANBgkqhkiG9w0BAQEFAASC${i}`.padEnd(64, 'Q')).join('\n');
    const { text, findings } = redactSecrets(`key:\n-----BEGIN PRIVATE KEY-----\n${body}\n-----END PRIVATE KEY-----\nafter`);
    expect(text).toBe('key:\n[REDACTED:private-key]\nafter');
    expect(findings).toEqual([{ kind: 'private-key', count: 1 }]);
  });

  it('redacts two key blocks separately and keeps the text between them', () => {
    const block = '-----BEGIN RSA PRIVATE KEY-----\nMIIBOgIBAAJBAKj34GkxFhD90vcNLYLInFEX6Ppy1tPf9Cnzj4p4WGeKLs1Pt8Qu\n-----END RSA PRIVATE KEY-----';
    expect(redactSecrets(`${block}\nmiddle text\n${block}`).text).toBe('[REDACTED:private-key]\nmiddle text\n[REDACTED:private-key]');
  });

  it('redacts a key block cut off before its END line up to the end of its base64 lines', () => {
    const { text } = redactSecrets('-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIIGlRHZ8K0ZSq3u1\nAwEHoUQDQgAE\n… output truncated');
    expect(text).toBe('[REDACTED:private-key]\n… output truncated');
  });

  it('redacts a cut-off key block whose line breaks were folded into spaces', () => {
    const line = 'MHcCAQEEIIGlRHZ8K0ZSq3u1AwEHoUQDQgAEr1ZyA5DCSklXGvJZl30FlWxS5XzLq';
    const { text } = redactSecrets(`- step: -----BEGIN EC PRIVATE KEY----- ${line} ${line} ${line.slice(0, 20)}`);
    expect(text).toBe('- step: [REDACTED:private-key]');
  });

  it('redacts a quoted secret value cut short before its closing quote', () => {
    expect(redactSecrets(`objective: 'Deploy it. "SessionToken": "7foXva+/3mSbfk5tokOsKuSEs…'`).text).toBe(
      `objective: 'Deploy it. "SessionToken": "[REDACTED:secret-assignment]'`,
    );
    expect(redactSecrets('password: "hunter2hunter2').text).toBe('password: "[REDACTED:secret-assignment]');
  });

  it.each([
    ['Bash `echo password: whylfmcwx > creds.txt` failed', 'Bash `echo password: [REDACTED:secret-assignment] > creds.txt` failed'],
    ['echo API_TOKEN: abc123def456 > .env', 'echo API_TOKEN: [REDACTED:secret-assignment] > .env'],
    ['private_key: HSgoILYICXEmznOY8JGIKol58W && deploy', 'private_key: [REDACTED:secret-assignment] && deploy'],
  ])('redacts a value a shell redirect or operator follows, as in a command line (%s)', (text, expected) => {
    expect(redactSecrets(text).text).toBe(expected);
  });

  it('counts each kind once per occurrence', () => {
    const a = `ghp_${'a1'.repeat(18)}`;
    const b = `ghp_${'b2'.repeat(18)}`;
    const { findings } = redactSecrets(`${a} and ${b} and password=hunter22`);
    expect(findings).toEqual([
      { kind: 'github-token', count: 2 },
      { kind: 'secret-assignment', count: 1 },
    ]);
  });

  it('leaves a redacted text unchanged when run again', () => {
    const once = redactSecrets(planted.map((s) => s.context).join('\n')).text;
    const twice = redactSecrets(once);
    expect(twice.text).toBe(once);
    expect(twice.findings).toEqual([]);
  });

  it('redacts secrets inside raw transcript JSONL, where quotes and newlines arrive escaped', () => {
    const record = JSON.stringify({ type: 'user', message: { content: [{ type: 'tool_result', content: planted.map((s) => s.context).join('\n') }] } });
    const { text } = redactSecrets(record);
    for (const s of planted) expect(text).not.toContain(secretCore(s.value));
    expect(() => JSON.parse(text)).not.toThrow();
  });

  it.each([
    ['a git SHA', 'commit 4f2c9a1b3e5d7f9a0b1c2d3e4f5a6b7c8d9e0f1a (HEAD -> main)'],
    ['a short SHA range', 'git diff 4f2c9a1..b3e5d7f -- lib/store'],
    ['a UUID', 'sessionId: "be432d9d-65be-4eb2-b8b5-e7b9ae7fd1f1"'],
    ['a ULID', 'id: 01JDQ8Z6P3K4M5N6Q7R8S9T0VW'],
    ['a base64 blob in a non-secret field', `"data": "${Buffer.from('x'.repeat(90)).toString('base64')}"`],
    ['a sha512 integrity hash', '"integrity": "sha512-Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9v=="'],
    ['a token count', '"usage": {"input_tokens": 90000, "max_tokens": 4096, "cache_read_input_tokens": 12}'],
    ['a token type', 'token_type: bearer'],
    ['a TypeScript type annotation', 'interface Login { password: string; token?: TokenSet; apiKey: ApiKey }'],
    ['a variable read from the environment', 'const token = process.env.GITHUB_TOKEN;'],
    ['a call', 'const secret = await loadSecret(name);'],
    ['a code assignment of a variable', 'password = nextPassword'],
    ['an object shorthand', 'login({ password: pw, user })'],
    ['a comparison', 'if (token == null) return;'],
    ['a shell reference', 'export GITHUB_TOKEN=$GH_TOKEN'],
    ['a template reference', 'password: ${DB_PASSWORD}'],
    ['a GitHub Actions secret reference', 'token: ${{ secrets.GITHUB_TOKEN }}'],
    ['a masked value', 'password: "********"'],
    ['an empty value', 'API_KEY='],
    ['a URL with a port and no password', 'http://localhost:8080/path?q=1'],
    ['an ssh remote', 'git@github.com:org/repo.git'],
    ['a descriptive name', 'password_file: /run/secrets/db'],
    ['an author field', 'author: Jane Doe'],
    ['a tokenizer option', 'tokenizer=wordpiece42'],
    ['a task id', 'task-0123456789abcdefghijklmnopqrstuvwxyz'],
    ['prose about secrets', 'Rotate the token and the password, then store the secret key in the vault.'],
    ['a CSS class', '<div class="sk-spinner sk-spinner-pulse">'],
    ['an enum member', 'OpenBraceToken = 19,'],
    ['a member of a token object', 'token.indent = -1;'],
    ['a type alias', 'type RequestCredentials = "include" | "omit" | "same-origin";'],
    ['a type annotation with a digit', 'privateKey: T2;'],
    ['a call argument', 'token: tokenLabelName(tokenType)'],
    ['a delimiter string', 'startToken = "{|";'],
    ['prose after a colon', '// the only whitespace that can surround the token: the URL'],
    ['the working directory', "PWD: '/Users/ann'"],
  ])('leaves %s alone', (_what, text) => {
    expect(redactSecrets(text)).toEqual({ text, findings: [] });
  });

  it('redacts every value when the whole text is a .env file, except switches and ports', () => {
    const { text: env, secrets } = generateEnvFile(7);
    const { text, findings } = redactSecrets(env);
    for (const s of secrets) expect(text).not.toContain(s);
    expect(text).toContain('NODE_ENV=[REDACTED:env-value]');
    expect(text).toContain('PORT=3000');
    expect(text).toContain('DEBUG=false');
    expect(text).toContain('INTERNAL_HOOK=[REDACTED:env-value] # rotated monthly');
    expect(findings).toEqual([{ kind: 'env-value', count: 6 }]);
  });

  it('redacts every value of a .env file the host Read tool printed with line numbers', () => {
    const { text: env, secrets } = generateEnvFile(8);
    const numbered = env.split('\n').map((l, i) => `${String(i + 1).padStart(6)}\t${l}`).join('\n');
    const { text } = redactSecrets(numbered);
    for (const s of secrets) expect(text).not.toContain(s);
  });

  it('leaves non-secret assignments of a shell script that is not a .env file', () => {
    const script = 'set -e\nCC=gcc\nCFLAGS=-O2\nmake all\n';
    expect(redactSecrets(script).text).toBe(script);
  });
});

describe('redactEnvFile', () => {
  it('redacts every value even when the text also holds other lines', () => {
    const { text, findings } = redactEnvFile('APP_NAME=shop\nnot an assignment\nREGION=eu-west-1\n');
    expect(text).toBe('APP_NAME=[REDACTED:env-value]\nnot an assignment\nREGION=[REDACTED:env-value]\n');
    expect(findings).toEqual([{ kind: 'env-value', count: 2 }]);
  });

  it('names the provider kind when a value is a known token', () => {
    const { findings } = redactEnvFile(`GITHUB_TOKEN=ghp_${'Z9'.repeat(18)}\nREGION=eu\n`);
    expect(findings).toEqual([
      { kind: 'github-token', count: 1 },
      { kind: 'env-value', count: 1 },
    ]);
  });
});

describe('redactSecrets on nested assignments', () => {
  it('redacts the value of an assignment that follows a secret name and a colon in prose', () => {
    expect(redactSecrets('rotate the credential: auth: "p1rKJzqmV4PDk4ejl2hxDTwQAz"').text).toBe('rotate the credential: auth: "[REDACTED:secret-assignment]"');
  });
});

describe('redactSecrets, gated by the cues a text holds', () => {
  it('leaves a value after a marker alone, as when every detector ran (the marker closes with `]`)', () => {
    expect(redactSecrets(`npm_${'A1b2C3d4E5'.repeat(4)}: hunter2value`).text).toBe('[REDACTED:npm-token]: hunter2value');
  });

  it('redacts an AWS access key id, which its prefixes now gate', () => {
    expect(redactSecrets('id=AKIAIOSFODNN7EXAMPLE, also A3TXIOSFODNN7EXAMPLE').text).toBe('id=[REDACTED:aws-access-key-id], also [REDACTED:aws-access-key-id]');
  });

  it('redacts an assignment, a command credential and a prose secret in one text, each behind its own cue', () => {
    const { text } = redactSecrets('DB_PASSWORD=Zq8vX2mR and curl -u admin:Pw4tXy9q then my password is Tr0ub4dor');
    expect(text).toBe('DB_PASSWORD=[REDACTED:secret-assignment] and curl -u admin:[REDACTED:command-credential] then my password is [REDACTED:prose-secret]');
  });
});

describe('redactSecrets, a token right after a hyphen', () => {
  const npm = `npm_${'abcdefghijklmnopqrstuvwxyz0123456789'}`;
  const ghp = 'ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5';

  it.each([
    ['a GitHub token glued to a command word', `git push-${ghp}`, 'git push-[REDACTED:github-token]'],
    ['an npm token glued to a word', `deploy-${npm}`, 'deploy-[REDACTED:npm-token]'],
    ['an OpenAI key whose rest reads as random', 'task-sk-aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5b', 'task-[REDACTED:openai-key]'],
  ])('redacts %s', (_name, input, expected) => {
    expect(redactSecrets(input).text).toBe(expected);
  });

  it.each([
    ['a word ending in sk- (disk-…)', 'disk-abcdefghijklmnopqrstuvwxyz0123456789ab'],
    ['a word ending in sk- (task-…)', 'task-abcdefghijklmnopqrstuvwxyz0123456789ab'],
    ['sk- after a hyphen with an ordinary rest', 'task-sk-abcdefghijklmnopqrstuvwxyz0123456789'],
    ['key- after a hyphen before an md5', 'cache-key-d41d8cd98f00b204e9800998ecf8427e'],
    ['pypi- after a hyphen in a package path', 'index-pypi-simple-packages-for-the-internal-mirror-of-python-wheels'],
  ])('leaves %s alone', (_name, input) => {
    expect(redactSecrets(input).text).toBe(input);
  });
});
