// The second secrets corpus (issue 16): over a hundred realistic shapes, each a fake secret in a
// provider's real format placed in the line a coding session shows it in. It covers the 26
// shapes the second red-team round got through (password flags, `aws configure set`, a bare AWS
// secret beside "secret", lower-case `authorization: basic`, Vault, Hugging Face, SendGrid,
// Discord and Telegram bot URLs, Cookie headers, DigitalOcean, Grafana, JSON-escaped URLs,
// values running past `;` `,` and escaped quotes, a password in prose), the prefixed formats of
// public rule sets, and the shapes of the first corpus in new contexts. Seeded: every run is the same.
import { seededRandom } from '../support/seeded-random';

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;
const B64 = ALNUM + '+/';
const URL64 = ALNUM + '-_';
const HEX = '0123456789abcdef';

/** One planted secret: the text that must not survive, and the line it sits in. */
export interface SecretShape {
  /** A short name of the shape (for failure messages and the report). */
  shape: string;
  value: string;
  context: string;
}

type Pick = (alphabet: string, n: number) => string;
type Maker = (p: Pick) => { shape: string; value: string; context: (v: string) => string };

const pem = (p: Pick, lines: number) => Array.from({ length: lines }, () => p(B64, 64)).join('\n');

const MAKERS: Maker[] = [
  // The shapes that got through in round two.
  (p) => ({ shape: 'curl -u user:password', value: `${p(ALNUM, 14)}!`, context: (v) => `curl -u deploy:${v} https://ci.example.com/api/builds` }),
  (p) => ({ shape: 'curl --user', value: p(ALNUM, 18), context: (v) => `curl --user "admin:${v}" -X POST https://nexus.internal/service/rest` }),
  (p) => ({ shape: 'mysql -pPASSWORD', value: `${p(ALNUM, 12)}#${p(DIGITS, 3)}`, context: (v) => `mysql -h db.internal -u root -p${v} shop < dump.sql` }),
  (p) => ({ shape: 'sshpass -p', value: p(ALNUM, 16), context: (v) => `sshpass -p '${v}' ssh ops@10.0.4.12 uptime` }),
  (p) => ({ shape: 'docker login -p dckr_pat_', value: `dckr_pat_${p(URL64, 27)}`, context: (v) => `docker login -u acme -p ${v} registry.example.com` }),
  (p) => ({ shape: 'twine -p pypi-', value: `pypi-AgEIcHlwaS5vcmc${p(URL64, 60)}`, context: (v) => `twine upload -u __token__ -p ${v} dist/*` }),
  (p) => ({ shape: 'aws configure set aws_secret_access_key', value: p(B64, 40), context: (v) => `aws configure set aws_secret_access_key ${v} --profile prod` }),
  (p) => ({ shape: 'bare AWS secret next to "secret"', value: `${p(UPPER, 4)}${p(LOWER, 4)}${p(DIGITS, 2)}${p(B64, 30)}`, context: (v) => `|  SecretAccessKey  |  ${v}  |` }),
  (p) => ({ shape: 'lower-case authorization: basic', value: Buffer.from(`ci:${p(ALNUM, 20)}`).toString('base64'), context: (v) => `> authorization: basic ${v}` }),
  (p) => ({ shape: 'Vault hvs.', value: `hvs.${p(URL64, 90)}`, context: (v) => `export VAULT_ADDR=https://vault:8200 VAULT_TOKEN_VALUE_IS ${v}` }),
  (p) => ({ shape: 'Hugging Face hf_', value: `hf_${p(UPPER + LOWER, 34)}`, context: (v) => `huggingface-cli login --token ${v}` }),
  (p) => ({ shape: 'SendGrid SG.', value: `SG.${p(URL64, 22)}.${p(URL64, 43)}`, context: (v) => `sg = SendGridAPIClient("${v}")` }),
  (p) => ({ shape: 'Discord webhook URL', value: p(URL64, 68), context: (v) => `curl -H 'Content-Type: application/json' -d '{"content":"deployed"}' https://discord.com/api/webhooks/1187654321098765432/${v}` }),
  (p) => ({ shape: 'Telegram bot URL', value: `${p(DIGITS, 10)}:AA${p(URL64, 33)}`, context: (v) => `https://api.telegram.org/bot${v}/sendMessage?chat_id=-100123&text=done` }),
  (p) => ({ shape: 'Cookie header', value: p(URL64, 40), context: (v) => `Cookie: _gh_sess=${v}; logged_in=yes; tz=Europe%2FBerlin` }),
  (p) => ({ shape: 'Set-Cookie header', value: p(URL64, 48), context: (v) => `< set-cookie: session=${v}; Path=/; HttpOnly; Secure` }),
  (p) => ({ shape: 'DigitalOcean dop_v1_', value: `dop_v1_${p(HEX, 64)}`, context: (v) => `doctl auth init --access-token ${v}` }),
  (p) => ({ shape: 'Grafana glsa_', value: `glsa_${p(ALNUM, 32)}_${p(HEX, 8)}`, context: (v) => `GRAFANA_SA=${v} terraform apply` }),
  (p) => ({ shape: 'JSON-escaped URL password', value: p(ALNUM, 15), context: (v) => `{"dsn":"mysql:\\/\\/app:${v}@db.internal:3306\\/shop"}` }),
  (p) => ({ shape: 'password running past ";"', value: `${p(ALNUM, 6)};${p(ALNUM, 7)}`, context: (v) => `DB_PASSWORD=${v} ./migrate.sh` }),
  (p) => ({ shape: 'password running past ","', value: `${p(ALNUM, 5)},${p(ALNUM, 8)}`, context: (v) => `SMTP_PASSWORD=${v}` }),
  (p) => ({ shape: 'password with an escaped quote', value: `${p(ALNUM, 6)}\\"${p(ALNUM, 9)}`, context: (v) => `psql "host=db password=\\"x\\"" -c 'select 1' # db_password: "${v}"` }),
  (p) => ({ shape: 'password in prose', value: `${p(UPPER, 1)}${p(LOWER, 6)}${p(DIGITS, 2)}&${p(LOWER, 2)}`, context: (v) => `the staging db password is ${v} so please try logging in with that` }),
  (p) => ({ shape: 'passphrase in prose', value: `${p(LOWER, 7)}-${p(LOWER, 5)}-${p(DIGITS, 3)}`, context: (v) => `My ssh key passphrase: ${v} (don't share it)` }),
  (p) => ({ shape: 'redis-cli -a', value: p(ALNUM, 24), context: (v) => `redis-cli -h cache.internal -a ${v} ping` }),
  (p) => ({ shape: 'echo into docker login --password-stdin', value: p(ALNUM, 20), context: (v) => `echo '${v}' | docker login ghcr.io -u ci --password-stdin` }),
  (p) => ({ shape: 'smbclient -U user%password', value: p(ALNUM, 12), context: (v) => `smbclient //fs01/share -U 'CORP\\\\svc_backup%${v}'` }),
  (p) => ({ shape: 'openssl -passin pass:', value: p(ALNUM, 16), context: (v) => `openssl pkcs12 -in cert.p12 -nodes -passin pass:${v}` }),
  (p) => ({ shape: 'git config token', value: p(ALNUM, 40), context: (v) => `git config --global hub.oauthtoken ${v}` }),
  (p) => ({ shape: 'npm config set _authToken', value: p(ALNUM, 36), context: (v) => `npm config set //npm.pkg.github.com/:_authToken ${v}` }),
  (p) => ({ shape: 'htpasswd -b', value: p(ALNUM, 14), context: (v) => `htpasswd -bc /etc/nginx/.htpasswd admin ${v}` }),
  (p) => ({ shape: 'kubectl --from-literal password', value: p(ALNUM, 18), context: (v) => `kubectl create secret generic db --from-literal=password=${v}` }),
  (p) => ({ shape: 'Bot authorization header', value: `M${p(ALNUM, 23)}.${p(URL64, 6)}.${p(URL64, 38)}`, context: (v) => `-H "Authorization: Bot ${v}"` }),
  // Prefixed provider formats (learned from public rule sets).
  (p) => ({ shape: 'Vault batch hvb.', value: `hvb.${p(URL64, 140)}`, context: (v) => `vault token lookup ${v}` }),
  (p) => ({ shape: 'Hugging Face org api_org_', value: `api_org_${p(UPPER + LOWER, 34)}`, context: (v) => `HF_ORG=${v}` }),
  (p) => ({ shape: 'DigitalOcean doo_v1_', value: `doo_v1_${p(HEX, 64)}`, context: (v) => `oauth access ${v}` }),
  (p) => ({ shape: 'Grafana cloud glc_', value: `glc_${p(B64, 60)}=`, context: (v) => `grafana cloud token ${v}` }),
  (p) => ({ shape: 'Shopify shpat_', value: `shpat_${p(HEX, 32)}`, context: (v) => `X-Shopify-Access-Token: ${v}` }),
  (p) => ({ shape: 'Shopify shpss_', value: `shpss_${p(HEX, 32)}`, context: (v) => `shared ${v}` }),
  (p) => ({ shape: 'Atlassian ATATT3', value: `ATATT3${p(URL64, 180)}`, context: (v) => `jira-cli init --token ${v}` }),
  (p) => ({ shape: 'Databricks dapi', value: `dapi${p(HEX, 32)}`, context: (v) => `databricks configure --host https://adb.azuredatabricks.net ${v}` }),
  (p) => ({ shape: 'Linear lin_api_', value: `lin_api_${p(ALNUM, 40)}`, context: (v) => `LINEAR=${v}` }),
  (p) => ({ shape: 'Postman PMAK-', value: `PMAK-${p(HEX, 24)}-${p(HEX, 34)}`, context: (v) => `postman login --with-api-key ${v}` }),
  (p) => ({ shape: 'Pulumi pul-', value: `pul-${p(HEX, 40)}`, context: (v) => `pulumi login ${v}` }),
  (p) => ({ shape: 'Doppler dp.pt.', value: `dp.pt.${p(ALNUM, 43)}`, context: (v) => `doppler configure set token ${v}` }),
  (p) => ({ shape: 'Heroku HRKU-', value: `HRKU-AA${p(URL64, 58)}`, context: (v) => `heroku: ${v}` }),
  (p) => ({ shape: 'age secret key', value: `AGE-SECRET-KEY-1${p('QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L', 58)}`, context: (v) => `# created: 2026-11-29\n${v}` }),
  (p) => ({ shape: 'Notion ntn_', value: `ntn_${p(DIGITS, 11)}${p(ALNUM, 35)}`, context: (v) => `notion integration ${v}` }),
  (p) => ({ shape: 'Perplexity pplx-', value: `pplx-${p(ALNUM, 48)}`, context: (v) => `PPLX=${v}` }),
  (p) => ({ shape: 'Groq gsk_', value: `gsk_${p(ALNUM, 52)}`, context: (v) => `client = Groq(api_key="${v}")` }),
  (p) => ({ shape: 'xAI xai-', value: `xai-${p(ALNUM, 80)}`, context: (v) => `grok ${v}` }),
  (p) => ({ shape: 'Replicate r8_', value: `r8_${p(ALNUM, 37)}`, context: (v) => `REPLICATE=${v}` }),
  (p) => ({ shape: 'Sentry sntryu_', value: `sntryu_${p(HEX, 64)}`, context: (v) => `sentry-cli login --auth-token ${v}` }),
  (p) => ({ shape: 'Twilio SK', value: `SK${p(HEX, 32)}`, context: (v) => `twilio api key sid ${v}` }),
  (p) => ({ shape: 'Mailgun key-', value: `key-${p(HEX, 32)}`, context: (v) => `mailgun.client({ username: 'api', key: process.env.X }) // was ${v}` }),
  (p) => ({ shape: 'Square sq0atp-', value: `sq0atp-${p(URL64, 22)}`, context: (v) => `square access ${v}` }),
  (p) => ({ shape: 'Square EAAA', value: `EAAA${p(URL64, 60)}`, context: (v) => `SQUARE=${v}` }),
  (p) => ({ shape: 'RubyGems rubygems_', value: `rubygems_${p(HEX, 48)}`, context: (v) => `gem signin --key ${v}` }),
  (p) => ({ shape: 'PlanetScale pscale_tkn_', value: `pscale_tkn_${p(URL64, 43)}`, context: (v) => `pscale auth login --service-token ${v}` }),
  (p) => ({ shape: 'Dynatrace dt0c01.', value: `dt0c01.${p(UPPER + DIGITS, 24)}.${p(UPPER + DIGITS, 64)}`, context: (v) => `DT_API=${v}` }),
  (p) => ({ shape: 'Terraform atlasv1', value: `${p(LOWER + DIGITS, 14)}.atlasv1.${p(URL64, 67)}`, context: (v) => `credentials "app.terraform.io" { token = "${v}" }` }),
  (p) => ({ shape: 'Alibaba LTAI', value: `LTAI${p(ALNUM, 20)}`, context: (v) => `aliyun configure set --access-key-id ${v}` }),
  (p) => ({ shape: 'OpenShift sha256~', value: `sha256~${p(URL64, 43)}`, context: (v) => `oc login --token=${v} --server=https://api.ocp:6443` }),
  (p) => ({ shape: 'GitLab runner GR1348941', value: `GR1348941${p(URL64, 20)}`, context: (v) => `gitlab-runner register --registration-token ${v}` }),
  (p) => ({ shape: 'GitLab glrt-', value: `glrt-${p(URL64, 20)}`, context: (v) => `runner token ${v}` }),
  (p) => ({ shape: 'GitLab OAuth gloas-', value: `gloas-${p(URL64, 64)}`, context: (v) => `gitlab app secret ${v}` }),
  (p) => ({ shape: 'Artifactory AKCp', value: `AKCp${p(ALNUM, 69)}`, context: (v) => `jf c add --access-token ${v}` }),
  (p) => ({ shape: 'Google refresh 1//0', value: `1//0${p(URL64, 100)}`, context: (v) => `{"refresh_token_cached": "${v}"}` }),
  (p) => ({ shape: 'Mapbox sk.eyJ', value: `sk.eyJ${p(URL64, 60)}.${p(URL64, 22)}`, context: (v) => `MAPBOX_DOWNLOADS=${v}` }),
  (p) => ({ shape: 'Sendinblue xkeysib-', value: `xkeysib-${p(HEX, 64)}-${p(ALNUM, 16)}`, context: (v) => `brevo ${v}` }),
  (p) => ({ shape: 'Fly.io fo1_', value: `fo1_${p(URL64, 43)}`, context: (v) => `fly auth token ${v}` }),
  (p) => ({ shape: '1Password ops_eyJ', value: `ops_eyJ${p(B64, 260)}`, context: (v) => `OP_SERVICE_ACCOUNT=${v}` }),
  (p) => ({ shape: 'Stripe sk_prod_', value: `sk_prod_${p(ALNUM, 30)}`, context: (v) => `stripe ${v}` }),
  (p) => ({ shape: 'Facebook EAAC', value: `EAAC${p(ALNUM, 120)}`, context: (v) => `graph access ${v}` }),
  (p) => ({ shape: 'Slack config xoxe', value: `xoxe.xoxp-1-${p(UPPER + DIGITS, 164)}`, context: (v) => `slack config ${v}` }),
  // The first corpus's shapes, in new contexts.
  (p) => ({ shape: 'AWS access key id in a CLI table', value: `AKIA${p(UPPER + DIGITS, 16)}`, context: (v) => `|  AccessKeyId  |  ${v}  |` }),
  (p) => ({ shape: 'AWS session token', value: p(B64, 356), context: (v) => `export AWS_SESSION_TOKEN="${v}"` }),
  (p) => ({ shape: 'GCP API key in a URL', value: `AIza${p(URL64, 35)}`, context: (v) => `https://maps.googleapis.com/maps/api/geocode/json?address=x&key=${v}` }),
  (p) => ({ shape: 'GCP service-account private key (JSON-escaped)', value: pem(p, 10).replace(/\n/g, '\\n'), context: (v) => `{"type":"service_account","private_key":"-----BEGIN PRIVATE KEY-----\\n${v}\\n-----END PRIVATE KEY-----\\n"}` }),
  (p) => ({ shape: 'GitHub PAT in a remote URL', value: `ghp_${p(ALNUM, 36)}`, context: (v) => `remote: https://x-access-token:${v}@github.com/acme/app.git` }),
  (p) => ({ shape: 'GitHub fine-grained PAT', value: `github_pat_${p(ALNUM, 22)}_${p(ALNUM, 59)}`, context: (v) => `gh auth login --with-token <<< ${v}` }),
  (p) => ({ shape: 'GitLab PAT header', value: `glpat-${p(URL64, 20)}`, context: (v) => `curl --header "PRIVATE-TOKEN: ${v}" https://gitlab.example.com/api/v4/projects` }),
  (p) => ({ shape: 'Slack bot token', value: `xoxb-${p(DIGITS, 12)}-${p(DIGITS, 13)}-${p(ALNUM, 24)}`, context: (v) => `SLACK_BOT=${v}` }),
  (p) => ({ shape: 'Slack webhook', value: `T${p(UPPER + DIGITS, 10)}/B${p(UPPER + DIGITS, 10)}/${p(ALNUM, 24)}`, context: (v) => `webhook_url = "https://hooks.slack.com/services/${v}"` }),
  (p) => ({ shape: 'Stripe live key in code', value: `sk_live_${p(ALNUM, 99)}`, context: (v) => `const stripe = require('stripe')('${v}');` }),
  (p) => ({ shape: 'npm token in .npmrc', value: `npm_${p(ALNUM, 36)}`, context: (v) => `//registry.npmjs.org/:_authToken=${v}` }),
  (p) => ({ shape: 'OpenAI project key', value: `sk-proj-${p(URL64, 74)}T3BlbkFJ${p(URL64, 74)}`, context: (v) => `OPENAI_API_KEY="${v}"` }),
  (p) => ({ shape: 'Anthropic key in a header', value: `sk-ant-api03-${p(URL64, 93)}AA`, context: (v) => `curl https://api.anthropic.com/v1/messages -H "x-api-key: ${v}"` }),
  (p) => ({ shape: 'JWT bearer', value: `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOi${p(URL64, 40)}.${p(URL64, 43)}`, context: (v) => `Authorization: Bearer ${v}` }),
  (p) => ({ shape: 'RSA private key block', value: pem(p, 20), context: (v) => `-----BEGIN RSA PRIVATE KEY-----\n${v}\n-----END RSA PRIVATE KEY-----` }),
  (p) => ({ shape: 'OpenSSH key cut before END', value: pem(p, 5), context: (v) => `-----BEGIN OPENSSH PRIVATE KEY-----\n${v}\n[output truncated]` }),
  (p) => ({ shape: 'Postgres URL password', value: `${p(ALNUM, 10)}%40${p(ALNUM, 6)}`, context: (v) => `DATABASE_URL=postgresql://app:${v}@pg.internal:5432/app?sslmode=require` }),
  (p) => ({ shape: 'AMQP URL password', value: p(ALNUM, 20), context: (v) => `amqp://guest:${v}@rabbit:5672/` }),
  (p) => ({ shape: 'Azure storage key', value: `${p(B64, 86)}==`, context: (v) => `az storage account keys list ... "value": "${v}"` }),
  (p) => ({ shape: 'Azure SAS signature', value: `${p(ALNUM, 43)}%3D`, context: (v) => `https://acct.blob.core.windows.net/c/b?sp=r&st=2026-11-29&se=2026-12-01&sv=2022-11-02&sr=b&sig=${v}` }),
  (p) => ({ shape: 'YAML password', value: `${p(ALNUM, 10)}!${p(DIGITS, 2)}`, context: (v) => `spring:\n  datasource:\n    password: ${v}` }),
  (p) => ({ shape: 'TOML api_key', value: p(ALNUM, 32), context: (v) => `[service]\napi_key = "${v}"` }),
  (p) => ({ shape: 'Python kwarg password', value: p(ALNUM, 16), context: (v) => `conn = psycopg2.connect(host="db", user="app", password="${v}")` }),
  (p) => ({ shape: 'JSON client_secret', value: p(URL64, 40), context: (v) => `{"client_id": "app", "client_secret": "${v}"}` }),
  (p) => ({ shape: 'env file line', value: p(ALNUM, 28), context: (v) => `export STRIPE_WEBHOOK_SECRET=${v}` }),
  (p) => ({ shape: 'CLI --token flag', value: p(ALNUM, 40), context: (v) => `vercel deploy --prod --token ${v}` }),
  (p) => ({ shape: 'random token printed alone (entropy)', value: p(ALNUM, 48), context: (v) => `Your new API key (shown once):\n\n    ${v}\n\nStore it somewhere safe.` }),
  (p) => ({ shape: 'random base64 from a secret (entropy)', value: p(B64, 44), context: (v) => `$ kubectl get secret app -o jsonpath='{.data.k}' | base64 -d\n${v}` }),
  (p) => ({ shape: 'base32 PAT (entropy)', value: `${p('abcdefghijklmnopqrstuvwxyz234567', 52)}`, context: (v) => `created token: ${v}` }),
];

/** Every shape once, its random parts drawn from a PRNG seeded by `seed`. */
export function secretShapes(seed: number): SecretShape[] {
  const rand = seededRandom(seed);
  const pick: Pick = (alphabet, n) => {
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet[Math.floor(rand() * alphabet.length)];
    return s;
  };
  return MAKERS.map((make) => {
    const { shape, value, context } = make(pick);
    return { shape, value, context: context(value) };
  });
}

/** The parts of a secret that must not survive: the whole, and a middle slice (a partial leak is a leak). */
export function mustNotSurvive(value: string): string[] {
  const plain = value.replace(/\\n/g, '\n');
  const core = (v: string) => (v.length <= 12 ? v : v.slice(Math.floor((v.length - 12) / 2), Math.floor((v.length - 12) / 2) + 12));
  return [...new Set([value, core(value), core(plain.split('\n')[0] ?? plain)])];
}
