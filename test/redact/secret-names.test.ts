import { isSecretName, nameWords } from '../../lib/redact/secret-names';

describe('nameWords', () => {
  it.each([
    ['AWS_SECRET_ACCESS_KEY', ['aws', 'secret', 'access', 'key']],
    ['apiKeyId', ['api', 'key', 'id']],
    ['APIKey', ['api', 'key']],
    ['client-secret.value', ['client', 'secret', 'value']],
  ])('splits %s into its words', (name, words) => {
    expect(nameWords(name)).toEqual(words);
  });
});

describe('isSecretName', () => {
  it.each([
    'password', 'PASSWORD', 'db_password', 'dbPassword', 'passwd', 'DB_PWD', 'passphrase', 'secret', 'client_secret',
    'clientSecret', 'JWT_SECRET', 'token', 'GITHUB_TOKEN', 'authToken', 'access_token', 'api_key', 'apiKey', 'APIKEY',
    'x-api-key', 'access_key', 'AccessKey', 'private_key', 'privateKey', 'private_key_id', 'aws_access_key_id',
    'auth', 'Authorization', 'credentials', 'AccountKey', 'signing_key', 'DB_PASS', 'SMTP_PASS', 'SECRET_KEY_BASE',
    'password_hash', 'API_KEYS', 'config.password', 'token_2', 'ENV_SECRET', 'PROVIDER_TOKEN', 'SOURCE_API_KEY',
  ])('says %s looks secret', (name) => {
    expect(isSecretName(name)).toBe(true);
  });

  it.each([
    'max_tokens', 'input_tokens', 'tokens', 'tokenizer', 'token_type', 'token_count', 'password_file', 'secret_name',
    'author', 'authority', 'key', 'keys', 'primary_key', 'sort_key', 'cache_key', 'pass', 'passed', 'bypass',
    'passwordPolicy', 'username', 'session_id', 'id', 'monkey', 'tokenUsage', 'secrets', 'PWD', 'cookie',
    'UnexpectedTokenUnary', 'max_token', 'num_secrets', 'total_token_count', 'token_limit', 'tokenIsKeyword', 'token.indent', 'STENCIL_PASS_DEPTH_FAIL', 'CookieSameSite',
  ])('says %s does not look secret', (name) => {
    expect(isSecretName(name)).toBe(false);
  });
});
