// The third secrets corpus (issue 36): the classes the third red-team round got through, several
// shapes each, plus our own. Every value is at least 12 characters, so "no twelve-character run
// of it survives" is a real check for each. Seeded: every run is the same.
import { seededRandom } from '../support/seeded-random';
import type { SecretShape } from './secret-shapes';

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;
const B64 = ALNUM + '+/';
const URL64 = ALNUM + '-_';
const HEX = '0123456789abcdef';
const PUNCT = '!#%^*';

type Pick = (alphabet: string, n: number) => string;
type Maker = (p: Pick) => { shape: string; value: string; context: (v: string) => string };

/** A password people type: letters, digits and a sign, mixed. */
const pw = (p: Pick, n = 14) => `${p(UPPER, 1)}${p(LOWER, 3)}${p(DIGITS, 2)}${p(PUNCT, 1)}${p(ALNUM, n - 7)}`;

const MAKERS: Maker[] = [
  // Credentials handed to common tools on a command line.
  (p) => ({ shape: 'echo PW | sudo -S', value: pw(p), context: (v) => `echo ${v} | sudo -S systemctl restart nginx` }),
  (p) => ({ shape: "echo 'PW' | sudo -S -k", value: pw(p, 16), context: (v) => `echo '${v}' | sudo -S -k apt-get install -y jq` }),
  (p) => ({ shape: 'printf PW | sudo --stdin', value: pw(p), context: (v) => `printf '%s\\n' "${v}" | sudo --stdin true` }),
  (p) => ({ shape: 'ldapsearch -w', value: pw(p), context: (v) => `ldapsearch -x -H ldap://ldap.corp -D "cn=admin,dc=corp" -w ${v} -b "dc=corp" uid=jdoe` }),
  (p) => ({ shape: 'ldapmodify -w quoted', value: pw(p, 18), context: (v) => `ldapmodify -D cn=admin,dc=ex,dc=org -w '${v}' -f change.ldif` }),
  (p) => ({ shape: 'sqlplus user/pw@db', value: pw(p), context: (v) => `sqlplus scott/${v}@//db.internal:1521/ORCLPDB1 @migrate.sql` }),
  (p) => ({ shape: 'sqlplus -s user/pw@tns', value: pw(p, 15), context: (v) => `sqlplus -s system/${v}@PROD <<< "select 1 from dual;"` }),
  (p) => ({ shape: 'rabbitmqctl add_user', value: pw(p), context: (v) => `rabbitmqctl add_user deployer ${v}` }),
  (p) => ({ shape: 'rabbitmqctl change_password', value: pw(p, 17), context: (v) => `sudo rabbitmqctl change_password guest "${v}"` }),
  (p) => ({ shape: 'lftp -u user,PW', value: pw(p), context: (v) => `lftp -u backup,${v} sftp://files.example.com -e "mirror -R dist /www; quit"` }),
  (p) => ({ shape: 'oc login -p', value: pw(p), context: (v) => `oc login https://api.ocp.corp:6443 -u kubeadmin -p ${v} --insecure-skip-tls-verify` }),
  (p) => ({ shape: 'oc login --token', value: `sha256~${p(URL64, 43)}`, context: (v) => `oc login --token=${v} --server=https://api.ocp.corp:6443` }),
  (p) => ({ shape: 'htpasswd -nb', value: pw(p), context: (v) => `htpasswd -nb admin ${v} >> .htpasswd` }),
  (p) => ({ shape: 'htpasswd -Bbn', value: pw(p, 16), context: (v) => `htpasswd -Bbn traefik '${v}'` }),
  (p) => ({ shape: 'mc alias set ACCESS SECRET', value: p(ALNUM, 40), context: (v) => `mc alias set minio http://minio:9000 minioadmin ${v}` }),
  (p) => ({ shape: 'mc alias set access key', value: p(UPPER + DIGITS, 20), context: (v) => `mc alias set s3 https://s3.amazonaws.com ${v} ${'x'.repeat(3)}` }),
  (p) => ({ shape: 'gh secret set --body', value: p(ALNUM, 32), context: (v) => `gh secret set DEPLOY_KEY --body "${v}" --repo acme/site` }),
  (p) => ({ shape: 'gh secret set -b', value: p(ALNUM, 24), context: (v) => `gh secret set NPM_PUBLISH -b ${v}` }),
  (p) => ({ shape: 'echo PAT | az devops login', value: p(LOWER + DIGITS, 52), context: (v) => `echo ${v} | az devops login --organization https://dev.azure.com/acme` }),
  (p) => ({ shape: '--apiKey', value: p(ALNUM, 32), context: (v) => `npx some-cli deploy --apiKey ${v} --env prod` }),
  (p) => ({ shape: '--apiKey=', value: p(ALNUM, 28), context: (v) => `node scripts/upload.js --apiKey=${v}` }),
  (p) => ({ shape: '--api-key', value: p(URL64, 30), context: (v) => `datadog-ci sourcemaps upload ./dist --api-key ${v}` }),
  (p) => ({ shape: 'TF_TOKEN_<host>=', value: `${p(ALNUM, 14)}.atlasv1.${p(ALNUM, 60)}`, context: (v) => `export TF_TOKEN_app_terraform_io=${v}` }),
  (p) => ({ shape: 'TF_TOKEN_<host> inline', value: p(ALNUM, 30), context: (v) => `TF_TOKEN_tfe_corp_example_com=${v} terraform init` }),
  (p) => ({ shape: 'psql PGPASSWORD inline', value: pw(p), context: (v) => `PGPASSWORD=${v} psql -h db -U app app` }),
  (p) => ({ shape: 'vault login token', value: p(ALNUM, 24), context: (v) => `vault login -method=userpass username=ops password=${v}` }),
  (p) => ({ shape: 'wget --password', value: pw(p), context: (v) => `wget --user=ci --password=${v} https://artifacts.corp/pkg.tgz` }),
  (p) => ({ shape: 'git clone with user:pw', value: pw(p), context: (v) => `git clone https://builder:${v}@git.corp.example/app.git` }),
  (p) => ({ shape: 'kubectl create secret --from-literal', value: pw(p, 18), context: (v) => `kubectl create secret generic db --from-literal=password=${v}` }),
  (p) => ({ shape: 'docker run -e PASSWORD', value: pw(p), context: (v) => `docker run -e MYSQL_ROOT_PASSWORD=${v} -d mysql:8` }),
  (p) => ({ shape: 'npm config set _auth', value: Buffer.from(`ci:${pw(p)}`).toString('base64'), context: (v) => `npm config set //registry.corp/:_auth ${v}` }),
  (p) => ({ shape: 'heroku config:set', value: p(ALNUM, 30), context: (v) => `heroku config:set STRIPE_KEY=${v} -a shop` }),
  (p) => ({ shape: 'unknown tool, positional token', value: p(ALNUM, 26), context: (v) => `acmectl auth add ${v}` }),
  (p) => ({ shape: 'unknown tool, odd flag', value: p(ALNUM, 22), context: (v) => `deployer push --k ${v} --target eu` }),
  // Secret-named values in other languages' and tools' syntax.
  (p) => ({ shape: 'ADMIN_PW=', value: pw(p), context: (v) => `ADMIN_PW=${v}` }),
  (p) => ({ shape: 'export ADMIN_PW=', value: pw(p, 16), context: (v) => `export ADMIN_PW="${v}"` }),
  (p) => ({ shape: 'SSHPASS=', value: pw(p), context: (v) => `SSHPASS=${v} sshpass -e ssh ops@host` }),
  (p) => ({ shape: 'ansible_become_pass=', value: pw(p), context: (v) => `web1 ansible_host=10.0.0.5 ansible_become_pass=${v}` }),
  (p) => ({ shape: 'ansible_ssh_pass yaml', value: pw(p), context: (v) => `ansible_ssh_pass: ${v}` }),
  (p) => ({ shape: 'ODBC PWD=', value: pw(p), context: (v) => `Driver={ODBC Driver 18 for SQL Server};Server=tcp:db,1433;UID=sa;PWD=${v};Encrypt=yes` }),
  (p) => ({ shape: 'ODBC Pwd= lower', value: pw(p, 15), context: (v) => `"ConnectionStrings": { "Main": "Server=db;Database=app;User Id=app;Pwd=${v};" }` }),
  (p) => ({ shape: 'PHP $db_pass =', value: pw(p), context: (v) => `$db_pass = '${v}';` }),
  (p) => ({ shape: 'PHP $password =', value: pw(p, 16), context: (v) => `$password = "${v}";` }),
  (p) => ({ shape: "define('DB_PASSWORD', …)", value: pw(p), context: (v) => `define('DB_PASSWORD', '${v}');` }),
  (p) => ({ shape: "define( 'AUTH_KEY', … )", value: `${p(ALNUM + PUNCT, 40)}`, context: (v) => `define( 'AUTH_KEY', '${v}' );` }),
  (p) => ({ shape: 'define as a + diff line', value: pw(p), context: (v) => `@@ -20,3 +20,3 @@\n-define('DB_PASSWORD', 'changeme');\n+define('DB_PASSWORD', '${v}');` }),
  (p) => ({ shape: 'os.environ["DB_PASSWORD"] =', value: pw(p), context: (v) => `os.environ["DB_PASSWORD"] = "${v}"` }),
  (p) => ({ shape: "os.environ['API_TOKEN'] =", value: p(ALNUM, 30), context: (v) => `os.environ['API_TOKEN'] = '${v}'` }),
  (p) => ({ shape: 'process.env.X =', value: pw(p), context: (v) => `process.env.DB_PASS = '${v}';` }),
  (p) => ({ shape: 'ENV[] = in Ruby', value: p(ALNUM, 24), context: (v) => `ENV['SECRET_KEY_BASE'] = '${v}'` }),
  (p) => ({ shape: 'Go const secret', value: p(ALNUM, 24), context: (v) => `const signingSecret = "${v}"` }),
  (p) => ({ shape: 'Java setPassword', value: pw(p), context: (v) => `ds.setPassword("${v}");` }),
  (p) => ({ shape: 'C# Password= in a connection string', value: pw(p), context: (v) => `var cs = "Host=db;Username=app;Password=${v};Database=app";` }),
  (p) => ({ shape: 'Dockerfile ENV', value: p(ALNUM, 24), context: (v) => `ENV API_SECRET ${v}` }),
  (p) => ({ shape: 'Terraform variable default', value: pw(p), context: (v) => `variable "db_password" {\n  default = "${v}"\n}` }),
  (p) => ({ shape: 'XML password element', value: pw(p), context: (v) => `<password>${v}</password>` }),
  (p) => ({ shape: 'properties file pass', value: pw(p), context: (v) => `spring.datasource.pass=${v}` }),
  // Formats with no rule.
  (p) => ({ shape: 'hex key beside key name', value: p(HEX, 32), context: (v) => `encryption key: ${v}` }),
  (p) => ({ shape: 'hex 64 beside secret', value: p(HEX, 64), context: (v) => `"hmacSecret": "${v}"` }),
  (p) => ({ shape: 'hex 40 beside api key', value: p(HEX, 40), context: (v) => `Your API key is ${v}` }),
  (p) => ({ shape: 'Sentry DSN key', value: p(HEX, 32), context: (v) => `SENTRY_DSN=https://${v}@o123456.ingest.sentry.io/4504` }),
  (p) => ({ shape: 'Sentry DSN in code', value: p(HEX, 32), context: (v) => `Sentry.init({ dsn: "https://${v}@sentry.corp.example/12" })` }),
  (p) => ({ shape: 'Mailchimp <hex32>-us21', value: `${p(HEX, 32)}-us21`, context: (v) => `mailchimp.setConfig({ apiKey: "${v}", server: "us21" })` }),
  (p) => ({ shape: 'Mailchimp key alone', value: `${p(HEX, 32)}-us6`, context: (v) => `key ${v} returned 401` }),
  (p) => ({ shape: 'Supabase sbp_', value: `sbp_${p(HEX, 40)}`, context: (v) => `supabase login --token ${v}` }),
  (p) => ({ shape: 'Supabase sbp_ in prose', value: `sbp_${p(HEX, 40)}`, context: (v) => `use ${v} for the CLI` }),
  (p) => ({ shape: 'PuTTY .ppk body', value: Array.from({ length: 4 }, () => p(B64, 64)).join('\n'), context: (v) => `PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: deploy\nPublic-Lines: 2\nAAAAC3NzaC1lZDI1NTE5AAAAIM9\nPrivate-Lines: 4\n${v}\nPrivate-MAC: ${'0'.repeat(4)}` }),
  (p) => ({ shape: '.pgpass line', value: pw(p), context: (v) => `db.internal:5432:app:app_user:${v}` }),
  (p) => ({ shape: '.pgpass wildcard', value: pw(p, 18), context: (v) => `*:*:*:postgres:${v}` }),
  (p) => ({ shape: 'kubectl get secret base64 output', value: Buffer.from(pw(p, 18)).toString('base64'), context: (v) => `apiVersion: v1\ndata:\n  password: ${v}\nkind: Secret` }),
  (p) => ({ shape: 'kubectl get secret -o json', value: Buffer.from(p(ALNUM, 20)).toString('base64'), context: (v) => `{ "data": { "token": "${v}" }, "kind": "Secret" }` }),
  (p) => ({ shape: 'kubectl jsonpath base64 short', value: Buffer.from(pw(p, 12)).toString('base64'), context: (v) => `$ kubectl get secret db -o jsonpath='{.data.pw}'\n${v}` }),
  (p) => ({ shape: 'URL-encoded credentials', value: `${p(ALNUM, 8)}%21${p(ALNUM, 6)}%40${p(ALNUM, 4)}`, context: (v) => `redis://default:${v}@cache.internal:6379/0` }),
  (p) => ({ shape: 'URL-encoded form body', value: `${p(ALNUM, 10)}%23${p(ALNUM, 6)}`, context: (v) => `curl -d "username=ops&password=${v}" https://sso.corp/login` }),
  (p) => ({ shape: '# inside a URL password', value: `${p(ALNUM, 7)}#${p(ALNUM, 8)}`, context: (v) => `mongodb://admin:${v}@mongo:27017/admin` }),
  (p) => ({ shape: '# inside a URL password, http', value: `${p(ALNUM, 6)}#${p(ALNUM, 9)}`, context: (v) => `https://svc:${v}@api.partner.example/v2` }),
  (p) => ({ shape: 'token wrapped over two lines', value: `ghp_${p(ALNUM, 36)}`, context: (v) => `token: ${v.slice(0, 20)}\n${v.slice(20)}` }),
  (p) => ({ shape: 'random key wrapped with a backslash', value: p(ALNUM, 48), context: (v) => `export SERVICE_KEY="${v.slice(0, 24)}\\\n${v.slice(24)}"` }),
  (p) => ({ shape: 'token with \\u002B escapes', value: `${p(ALNUM, 14)}+${p(ALNUM, 14)}+${p(ALNUM, 10)}`, context: (v) => `{"apiSecret":"${v.replace(/\+/g, '\\u002B')}"}` }),
  (p) => ({ shape: 'base64 with \\u002F escapes', value: `${p(ALNUM, 16)}/${p(ALNUM, 16)}`, context: (v) => `"clientKey": "${v.replace(/\//g, '\\u002F')}"` }),
  (p) => ({ shape: 'password in a German sentence', value: pw(p), context: (v) => `Das Passwort für den Server lautet ${v}, bitte nicht weitergeben.` }),
  (p) => ({ shape: 'Kennwort in German', value: pw(p, 15), context: (v) => `Mein Kennwort ist ${v}` }),
  (p) => ({ shape: 'password in French', value: pw(p), context: (v) => `Le mot de passe est ${v} pour la base.` }),
  (p) => ({ shape: 'password in Spanish', value: pw(p), context: (v) => `la contraseña es ${v}` }),
  // Our own.
  (p) => ({ shape: 'S3 presigned URL signature', value: p(HEX, 64), context: (v) => `https://bkt.s3.amazonaws.com/a.zip?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAEXAMPLE%2F20261201%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20261201T000000Z&X-Amz-Expires=900&X-Amz-SignedHeaders=host&X-Amz-Signature=${v}` }),
  (p) => ({ shape: 'GCS signed URL signature', value: p(HEX, 128), context: (v) => `https://storage.googleapis.com/b/o?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Signature=${v}` }),
  (p) => ({ shape: 'CloudFront signed URL', value: `${p(URL64, 40)}~${p(URL64, 30)}`, context: (v) => `https://d1.cloudfront.net/v.mp4?Expires=1790000000&Signature=${v}&Key-Pair-Id=K2JCJMDEHXQW5F` }),
  (p) => ({ shape: 'password= in a query string', value: pw(p), context: (v) => `GET /login?user=ops&password=${v} HTTP/1.1` }),
  (p) => ({ shape: 'short random mixed token alone', value: p(ALNUM, 20), context: (v) => `paste this into the dialog: ${v}` }),
  (p) => ({ shape: 'random token in an error line', value: p(ALNUM, 24), context: (v) => `Error: invalid credentials for key ${v} (401)` }),
  (p) => ({ shape: 'random token in a stack message', value: p(ALNUM, 18), context: (v) => `AuthError: token ${v} rejected by upstream` }),
  (p) => ({ shape: 'password after "pw" in chat', value: pw(p), context: (v) => `the pw is ${v}` }),
  (p) => ({ shape: 'password after "creds:"', value: pw(p), context: (v) => `creds: ops / ${v}` }),
  (p) => ({ shape: 'Basic auth base64 alone', value: Buffer.from(`ops:${pw(p)}`).toString('base64'), context: (v) => `Proxy-Authorization: Basic ${v}` }),
  (p) => ({ shape: 'netrc line', value: pw(p), context: (v) => `machine api.corp.example login ci password ${v}` }),
  (p) => ({ shape: 'pip index-url with token', value: p(ALNUM, 30), context: (v) => `pip install --index-url https://__token__:${v}@pypi.corp/simple pkg` }),
  (p) => ({ shape: 'age secret key', value: `AGE-SECRET-KEY-1${p('QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L', 58)}`, context: (v) => `# created: 2026\n${v}` }),
  (p) => ({ shape: 'WireGuard PrivateKey', value: `${p(B64, 43)}=`, context: (v) => `[Interface]\nPrivateKey = ${v}\nAddress = 10.0.0.2/32` }),
  (p) => ({ shape: 'Telegram-like token in a file path', value: p(ALNUM, 22), context: (v) => `cat /tmp/upload-${v}.json` }),
  (p) => ({ shape: 'token as a path segment', value: p(ALNUM, 26), context: (v) => `curl https://api.example.com/v1/hooks/${v}/trigger` }),
];

/** Every shape of the third corpus once, its random parts drawn from a PRNG seeded by `seed`. */
export function allowListShapes(seed: number): SecretShape[] {
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

/**
 * Every twelve-character run of a secret (of each of its lines, for a wrapped or multi-line one):
 * the bar, a leak of any twelve characters in a row is a leak.
 */
export function twelveRuns(value: string): string[] {
  const runs = new Set<string>();
  for (const line of value.replace(/\\n/g, '\n').split('\n')) {
    if (line.length < 12) continue;
    for (let i = 0; i + 12 <= line.length; i++) runs.add(line.slice(i, i + 12));
  }
  return [...runs];
}

/** The runs of `secret` found in `text` (the first few), for a failure message. */
export function leakedRuns(secret: string, text: string): string[] {
  return twelveRuns(secret).filter((r) => text.includes(r)).slice(0, 3);
}
