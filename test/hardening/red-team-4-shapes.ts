import { dice, type Dice } from '../support/seeded-random';

// Red team 4: secret shapes a real coding session shows, written without reading the redaction.
// Every value is fake but format-correct and drawn from a seeded PRNG, so each call with another
// seed gives fresh values of the same shapes (the test plants one fresh set per channel and host,
// which tells it which channel a found run came from).
//
// `value` is the secret as it sits in `context`; a value made of pieces (split across lines, a
// string concatenation, a multi-line key body) separates them with '\n', and each piece is checked
// on its own. A fixed, public type marker of 12 characters or more (`AGE-SECRET-KEY-1`, a PKCS#8
// header) stays out of `value`: it names the kind of secret, it is not the secret.
//
// `minimal` is the needle the check uses: a piece of 12 characters or more leaks when any
// 12-character run of it survives; a shorter piece leaks when it survives whole.

export interface RedTeamShape {
  shape: string;
  /** What kind of value this is (for the report). */
  cls: string;
  value: string;
  context: string;
  /** min(12, the shortest piece's length): the needle length of the check. */
  minimal: number;
  /** Shorter than 12 characters or made of dictionary words: the hardest kind. */
  hard: boolean;
}

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGIT = '0123456789';
const ALNUM = UPPER + LOWER + DIGIT;
const HEX = '0123456789abcdef';
const B64 = `${ALNUM}+/`;
const B64URL = `${ALNUM}-_`;
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const BECH32 = 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L';
const SYMBOL = '!#%*+-=?@^_';

const WORDS = (
  'anchor apricot autumn badger bamboo banjo barley beacon biscuit blanket blossom bonfire bramble breeze bucket buffalo cactus candle canyon caramel ' +
  'carbon cedar chimney cinnamon clover cobalt comet copper coral cricket crystal cypress dolphin dragon ember falcon feather fennel ferret fiddle ' +
  'flannel forest fossil gadget galaxy garnet ginger glacier goblin granite gravel harbor hazel hedgehog helmet hickory honey hornet iceberg indigo ' +
  'jasmine jigsaw juniper kettle kiwi lantern lava lemon lilac lobster lotus magnet mango maple marble meadow meteor mitten monsoon mosaic muffin ' +
  'nectar nickel nutmeg oasis oatmeal octopus olive onyx orchid otter oyster paddle panther papaya parsley pebble pelican pepper pickle pigeon ' +
  'pinecone plum pollen poppy pretzel puffin pumpkin quartz quill quiver rabbit radish raven ribbon ripple rocket saddle saffron salmon sapphire ' +
  'scarlet seashell sequoia shadow sherbet silver sparrow spruce squirrel starfish summit sunflower swallow tadpole tangerine teapot thistle thunder ' +
  'tiger timber toffee topaz tornado trumpet tulip tundra turnip turtle umbrella velvet violet volcano waffle walnut walrus wasabi willow wombat yarrow zebra zephyr'
).split(' ');
const FRENCH = 'tortue citron nuage fromage baguette lapin pomme soleil lune fenetre chaton jardin riviere montagne oiseau papillon crayon bougie cerise framboise hibou renard marmotte sapin tulipe violon grenouille escargot moulin chateau'.split(' ');
const SPANISH = 'Gato Perro Luna Sol Arbol Rio Playa Fuego Nube Lobo Oso Tigre Flor Mar Cielo Rayo Piedra Campo'.split(' ');
const SEASONS = ['Spring', 'Summer', 'Autumn', 'Winter', 'Monday', 'Friday', 'January', 'October'];

function str(d: Dice, chars: string, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += chars[d.int(chars.length)];
  return s;
}

/** A password of `n` characters with at least one upper, lower and digit (and a symbol when `sym`). */
function password(d: Dice, n: number, sym = false): string {
  const must = [d.pick([...UPPER]), d.pick([...LOWER]), d.pick([...DIGIT]), ...(sym ? [d.pick([...'!#%*+-=?@^_'])] : [])];
  const chars = [...must, ...str(d, sym ? ALNUM + SYMBOL.slice(0, 4) : ALNUM, n - must.length)];
  for (let i = chars.length - 1; i > 0; i--) {
    const j = d.int(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}

const uuid = (d: Dice) => `${str(d, HEX, 8)}-${str(d, HEX, 4)}-4${str(d, HEX, 3)}-${d.pick([...'89ab'])}${str(d, HEX, 3)}-${str(d, HEX, 12)}`;
const words = (d: Dice, n: number, list = WORDS) => Array.from({ length: n }, () => d.pick(list));
const base64 = (s: string) => Buffer.from(s, 'latin1').toString('base64');
const b64Bytes = (d: Dice, n: number) => Buffer.from(Array.from({ length: n }, () => d.int(256))).toString('base64');

type Made = { value: string; context: string; cls: string };
interface Spec {
  shape: string;
  make: (d: Dice) => Made;
}

const SPECS: Spec[] = [
  // ---- shorter than 12 characters, or made of words -------------------------------------
  {
    shape: 'mysql -p glued short password',
    make: (d) => {
      const v = password(d, 8);
      return { cls: 'short password (8)', value: v, context: `mysql -u root -p${v} -h 10.0.3.12 orders_prod -e 'select count(*) from invoices'` };
    },
  },
  {
    shape: 'sshpass -p positional',
    make: (d) => {
      const v = password(d, 8);
      return { cls: 'short password (8)', value: v, context: `sshpass -p '${v}' ssh -o StrictHostKeyChecking=no deploy@10.2.0.5 'sudo systemctl restart api'` };
    },
  },
  {
    shape: 'German prose password',
    make: (d) => {
      const v = password(d, 9);
      return { cls: 'short password (9) in prose', value: v, context: `Das Passwort für den Testserver lautet ${v} – bitte nicht weitergeben, ich ändere es morgen.` };
    },
  },
  {
    shape: 'Japanese prose password',
    make: (d) => {
      const v = password(d, 9);
      return { cls: 'short password (9) in prose', value: v, context: `本番DBのパスワードは${v}です。作業が終わったら変更してください。` };
    },
  },
  {
    shape: 'Chinese prose password',
    make: (d) => {
      const v = password(d, 8, true);
      return { cls: 'short password (8) in prose', value: v, context: `测试环境的数据库密码是 ${v}，用完记得改一下` };
    },
  },
  {
    shape: 'Russian prose password',
    make: (d) => {
      const v = password(d, 10);
      return { cls: 'short password (10) in prose', value: v, context: `пароль от админки стейджинга: ${v} (логин admin), не коммить его` };
    },
  },
  {
    shape: 'French prose word passphrase',
    make: (d) => {
      const v = `${words(d, 3, FRENCH).join('-')}-${str(d, DIGIT, 2)}`;
      return { cls: 'word passphrase', value: v, context: `le mot de passe du routeur du bureau est «${v}», tu peux l'utiliser pour la config VPN` };
    },
  },
  {
    shape: 'Spanish prose word password',
    make: (d) => {
      const v = `${d.pick(SPANISH)}${d.pick(SPANISH)}#${2000 + d.int(30)}`;
      return { cls: 'word password', value: v, context: `la clave del usuario admin en el panel de staging es ${v}, cámbiala después de la demo` };
    },
  },
  {
    shape: 'season-year password in English prose',
    make: (d) => {
      const v = `${d.pick(SEASONS)}${2018 + d.int(10)}!${d.pick(SEASONS)}`;
      return { cls: 'word password', value: v, context: `login for the staging admin panel is admin / ${v} — it's the same one ops uses everywhere` };
    },
  },
  {
    shape: 'gpg --passphrase hyphenated words',
    make: (d) => {
      const v = words(d, 4).join('-');
      return { cls: 'word passphrase', value: v, context: `gpg --batch --yes --pinentry-mode loopback --passphrase '${v}' --decrypt backups/db-2026-11-30.tar.gz.gpg > db.tar.gz` };
    },
  },
  {
    shape: 'ssh-keygen -N spaced words',
    make: (d) => {
      const v = words(d, 4).join(' ');
      return { cls: 'word passphrase', value: v, context: `ssh-keygen -t ed25519 -C "ci@acme" -N '${v}' -f ~/.ssh/id_ci_deploy` };
    },
  },
  {
    shape: 'BIP39 mnemonic in hardhat config',
    make: (d) => {
      const v = words(d, 12).join(' ');
      return { cls: 'word mnemonic (12 words)', value: v, context: `    accounts: { mnemonic: "${v}", path: "m/44'/60'/0'/0", count: 10 },` };
    },
  },
  {
    shape: 'wpa_supplicant psk of words',
    make: (d) => {
      const [a, b] = words(d, 2);
      const v = `${a![0]!.toUpperCase()}${a!.slice(1)}-${b![0]!.toUpperCase()}${b!.slice(1)}${str(d, DIGIT, 2)}`;
      return { cls: 'word password', value: v, context: `network={\n    ssid="AcmeLab-5G"\n    psk="${v}"\n    key_mgmt=WPA-PSK\n}` };
    },
  },
  {
    shape: 'ansible vault password file (cat output)',
    make: (d) => {
      const v = `${words(d, 3).join('-')}-${d.int(10)}`;
      return { cls: 'word passphrase', value: v, context: `$ cat ~/.ansible/vault_pass.txt\n${v}\n$ ansible-vault view group_vars/prod/vault.yml --vault-password-file ~/.ansible/vault_pass.txt` };
    },
  },
  {
    shape: 'docker run -e short POSTGRES_PASSWORD',
    make: (d) => {
      const v = password(d, 8);
      return { cls: 'short password (8)', value: v, context: `docker run -d --name pg -p 5432:5432 -e POSTGRES_PASSWORD=${v} -e POSTGRES_DB=app postgres:16-alpine` };
    },
  },
  {
    shape: 'htpasswd -b positional',
    make: (d) => {
      const v = password(d, 8);
      return { cls: 'short password (8)', value: v, context: `htpasswd -b -c /etc/nginx/.htpasswd admin ${v}` };
    },
  },
  {
    shape: 'redis-cli -a short',
    make: (d) => {
      const v = password(d, 8);
      return { cls: 'short password (8)', value: v, context: `redis-cli -h cache.internal -p 6380 -a ${v} --no-auth-warning INFO keyspace` };
    },
  },
  {
    shape: 'ldapsearch -w short',
    make: (d) => {
      const v = password(d, 8);
      return { cls: 'short password (8)', value: v, context: `ldapsearch -x -H ldaps://ldap.corp.local -D "cn=admin,dc=corp,dc=local" -w ${v} -b "ou=people,dc=corp,dc=local" "(uid=jdoe)"` };
    },
  },
  {
    shape: 'keytool -deststorepass short',
    make: (d) => {
      const v = password(d, 9);
      return { cls: 'short password (9)', value: v, context: `keytool -importkeystore -srckeystore server.p12 -srcstoretype PKCS12 -destkeystore server.jks -deststorepass ${v} -noprompt` };
    },
  },
  {
    shape: 'openssl -passout pass: short',
    make: (d) => {
      const v = password(d, 8);
      return { cls: 'short password (8)', value: v, context: `openssl pkcs12 -export -in tls.crt -inkey tls.key -out tls.p12 -passout pass:${v}` };
    },
  },
  {
    shape: '.netrc short password',
    make: (d) => {
      const v = password(d, 8);
      return { cls: 'short password (8)', value: v, context: `machine nexus.corp.local login ci-publisher password ${v}` };
    },
  },
  {
    shape: 'gradle signingConfig storePassword',
    make: (d) => {
      const v = password(d, 9, true);
      return { cls: 'short password (9)', value: v, context: `        release {\n            storeFile file("release.keystore")\n            storePassword '${v}'\n            keyAlias 'upload'\n        }` };
    },
  },
  {
    shape: 'smtplib login positional',
    make: (d) => {
      const v = password(d, 9, true);
      return { cls: 'short password (9)', value: v, context: `    server.login("noreply@acme-mail.io", "${v}")` };
    },
  },
  {
    shape: 'curl -u user:short',
    make: (d) => {
      const v = password(d, 8);
      return { cls: 'short password (8)', value: v, context: `curl -fsS -u deploy:${v} -T build/app-1.4.2.tgz https://nexus.corp.local/repository/raw/app/` };
    },
  },
  {
    shape: 'compose YAML short MYSQL_ROOT_PASSWORD',
    make: (d) => {
      const v = password(d, 8);
      return { cls: 'short password (8)', value: v, context: `    environment:\n      MYSQL_ROOT_PASSWORD: ${v}\n      MYSQL_DATABASE: shop` };
    },
  },
  {
    shape: 'recovery codes (tool output)',
    make: (d) => {
      const codes = Array.from({ length: 3 }, () => `${str(d, 'abcdefghjkmnpqrstuvwxyz23456789', 5)}-${str(d, 'abcdefghjkmnpqrstuvwxyz23456789', 5)}`);
      return { cls: 'recovery codes (11 each)', value: codes.join('\n'), context: `Save these recovery codes somewhere safe:\n  ${codes.join('\n  ')}\nEach code can be used once.` };
    },
  },
  {
    shape: 'password in a git branch name',
    make: (d) => {
      const v = password(d, 9);
      return { cls: 'short password (9) in branch name', value: v, context: `git switch -c wip/reset-admin-pw-to-${v} && git push -u origin HEAD` };
    },
  },
  {
    shape: 'snmpwalk community string',
    make: (d) => {
      const v = password(d, 9);
      return { cls: 'short community string (9)', value: v, context: `snmpwalk -v2c -c ${v} 10.20.0.1 1.3.6.1.2.1.2.2.1.2` };
    },
  },
  {
    shape: 'mosquitto_pub -P short',
    make: (d) => {
      const v = password(d, 10);
      return { cls: 'short password (10)', value: v, context: `mosquitto_pub -h mqtt.iot.internal -p 8883 --capath /etc/ssl/certs -u sensor-gw -P ${v} -t plant/line3/temp -m 21.4` };
    },
  },
  {
    shape: 'ipmitool -P short',
    make: (d) => {
      const v = password(d, 10);
      return { cls: 'short password (10)', value: v, context: `ipmitool -I lanplus -H 10.9.0.21 -U ADMIN -P ${v} chassis power cycle` };
    },
  },
  {
    shape: 'SQL Server JDBC password=',
    make: (d) => {
      const v = password(d, 10, true);
      return { cls: 'short password (10) in connection string', value: v, context: `spring.datasource.url=jdbc:sqlserver://sql01.corp.local:1433;databaseName=erp;user=sa;password=${v};encrypt=true` };
    },
  },
  {
    shape: 'mongosh URL short password',
    make: (d) => {
      const v = password(d, 8);
      return { cls: 'short password (8) in URL', value: v, context: `mongosh "mongodb://admin:${v}@mongo-0.mongo.internal:27017/?authSource=admin&replicaSet=rs0"` };
    },
  },

  // ---- connection strings of less-common databases and brokers ------------------------------
  {
    shape: 'RabbitMQ amqps URL',
    make: (d) => {
      const v = password(d, 20);
      return { cls: 'broker password (20)', value: v, context: `CELERY_BROKER_URL=amqps://svc_orders:${v}@rabbit.prod.internal:5671/orders` };
    },
  },
  {
    shape: 'mongodb+srv URL',
    make: (d) => {
      const v = password(d, 24);
      return { cls: 'database password (24)', value: v, context: `const uri = "mongodb+srv://app_rw:${v}@cluster0.x1y2z.mongodb.net/prod?retryWrites=true&w=majority";` };
    },
  },
  {
    shape: 'clickhouse-client --password',
    make: (d) => {
      const v = password(d, 16);
      return { cls: 'database password (16)', value: v, context: `clickhouse-client --host ch.analytics.internal --secure --user default --password ${v} --query "SELECT count() FROM events"` };
    },
  },
  {
    shape: 'Kafka SASL JAAS config',
    make: (d) => {
      const v = str(d, ALNUM, 32);
      return { cls: 'broker password (32)', value: v, context: `sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="svc-ingest" password="${v}";` };
    },
  },
  {
    shape: 'sqlplus user/password@ positional',
    make: (d) => {
      const v = password(d, 14);
      return { cls: 'database password (14)', value: v, context: `sqlplus -s system/${v}@//ora.corp.local:1521/ORCLPDB1 @migrations/0042_add_index.sql` };
    },
  },
  {
    shape: 'percent-encoded password in postgres URL',
    make: (d) => {
      const raw = `${password(d, 4)}@${password(d, 4)}!${password(d, 3)}#${password(d, 3)}/`;
      const v = encodeURIComponent(raw).replace(/!/g, '%21');
      return { cls: 'percent-encoded password', value: v, context: `DATABASE_URL=postgresql://app:${v}@db.prod.internal:5432/app?sslmode=require` };
    },
  },
  {
    shape: 'pgpass heredoc',
    make: (d) => {
      const v = password(d, 16);
      return { cls: 'database password (16)', value: v, context: `cat > ~/.pgpass <<'EOF'\nreplica.db.internal:5432:*:replicator:${v}\nEOF\nchmod 600 ~/.pgpass` };
    },
  },
  {
    shape: 'NATS nkey seed (creds file)',
    make: (d) => {
      const v = `SU${str(d, BASE32, 56)}`;
      return { cls: 'nkey seed (58, base32)', value: v, context: `-----BEGIN USER NKEY SEED-----\n${v}\n------END USER NKEY SEED------` };
    },
  },
  {
    shape: 'influx write --token',
    make: (d) => {
      const v = `${str(d, B64URL, 86)}==`;
      return { cls: 'SaaS token (base64url 88)', value: v, context: `influx write --bucket metrics --org acme --token ${v} --file data.lp` };
    },
  },

  // ---- less-common cloud, CI and SaaS tokens ------------------------------------------
  {
    shape: 'Doppler service token',
    make: (d) => {
      const v = `dp.st.prd.${str(d, ALNUM, 40)}`;
      return { cls: 'SaaS token (prefixed)', value: v, context: `doppler configure set token ${v} --scope /srv/app` };
    },
  },
  {
    shape: 'Pulumi token in env output',
    make: (d) => {
      const v = `pul-${str(d, HEX, 40)}`;
      return { cls: 'SaaS token (prefixed hex)', value: v, context: `$ env | sort\nHOME=/home/dev\nLANG=C.UTF-8\nPULUMI_ACCESS_TOKEN=${v}\nPWD=/home/dev/infra\nSHELL=/bin/bash` };
    },
  },
  {
    shape: 'Fly.io deploy token (tool output)',
    make: (d) => {
      const v = `FlyV1 fm2_${str(d, B64, 120)}`;
      return { cls: 'SaaS token (macaroon-like)', value: v, context: `$ fly tokens create deploy -a billing-api\n${v}` };
    },
  },
  {
    shape: 'Sentry user token in .sentryclirc',
    make: (d) => {
      const v = `sntryu_${str(d, HEX, 64)}`;
      return { cls: 'SaaS token (prefixed hex)', value: v, context: `[defaults]\norg=acme\nproject=web\n\n[auth]\ntoken=${v}` };
    },
  },
  {
    shape: 'Terraform Cloud credentials.tfrc.json',
    make: (d) => {
      const v = `${str(d, ALNUM, 14)}.atlasv1.${str(d, ALNUM, 67)}`;
      return { cls: 'CI/cloud token', value: v, context: `{\n  "credentials": {\n    "app.terraform.io": {\n      "token": "${v}"\n    }\n  }\n}` };
    },
  },
  {
    shape: 'GitHub Actions runner registration token',
    make: (d) => {
      const v = `A${str(d, UPPER + DIGIT, 28)}`;
      return { cls: 'CI token (29, upper alnum)', value: v, context: `./config.sh --url https://github.com/acme/platform --token ${v} --labels self-hosted,linux,x64 --unattended` };
    },
  },
  {
    shape: 'Artifactory API key header',
    make: (d) => {
      const v = `AKCp8${str(d, ALNUM, 68)}`;
      return { cls: 'SaaS API key (prefixed)', value: v, context: `curl -H "X-JFrog-Art-Api: ${v}" -T dist/app.whl https://acme.jfrog.io/artifactory/pypi-local/app/` };
    },
  },
  {
    shape: 'Postmark server token (UUID) header',
    make: (d) => {
      const v = uuid(d);
      return { cls: 'UUID-shaped token', value: v, context: `curl https://api.postmarkapp.com/email -H "Accept: application/json" -H "X-Postmark-Server-Token: ${v}" -d @mail.json` };
    },
  },
  {
    shape: 'Algolia admin key in prose',
    make: (d) => {
      const v = str(d, HEX, 32);
      return { cls: 'API key (32 hex) in prose', value: v, context: `Can you wire up search? app id is ${str(d, UPPER + DIGIT, 10)} and the admin one is ${v}, the search-only one is in the dashboard.` };
    },
  },
  {
    shape: 'Vault unseal key (operator init output)',
    make: (d) => {
      const v = b64Bytes(d, 33);
      return { cls: 'unseal key (base64 44)', value: v, context: `Unseal Key 1: ${v}\n\nInitial Root Token: (see 1Password)\n\nVault initialized with 5 key shares and a key threshold of 3.` };
    },
  },
  {
    shape: 'Jupyter server token in log',
    make: (d) => {
      const v = str(d, HEX, 48);
      return { cls: 'session token (48 hex) in URL', value: v, context: `[I 2026-11-30 10:12:01.233 ServerApp] Jupyter Server 2.14.0 is running at:\n[I 2026-11-30 10:12:01.233 ServerApp] http://127.0.0.1:8888/lab?token=${v}` };
    },
  },
  {
    shape: 'LND macaroon hex header',
    make: (d) => {
      const v = str(d, HEX, 180);
      return { cls: 'macaroon (hex)', value: v, context: `curl --cacert tls.cert -H "Grpc-Metadata-macaroon: 0201036c6e6402f801${v}" https://127.0.0.1:8080/v1/getinfo` };
    },
  },

  // ---- keys without PEM, and keys in unusual wrappers --------------------------------
  {
    shape: 'age secret key',
    make: (d) => {
      const v = str(d, BECH32, 58);
      return { cls: 'private key (bech32)', value: v, context: `# created: 2026-11-30T10:00:00Z\n# public key: age1${str(d, BECH32.toLowerCase(), 58)}\nAGE-SECRET-KEY-1${v}` };
    },
  },
  {
    shape: 'WireGuard PrivateKey',
    make: (d) => {
      const v = b64Bytes(d, 32);
      return { cls: 'private key (base64 44)', value: v, context: `[Interface]\nAddress = 10.8.0.2/24\nPrivateKey = ${v}\nDNS = 10.8.0.1` };
    },
  },
  {
    shape: 'Solana keypair byte array',
    make: (d) => {
      const v = Array.from({ length: 64 }, () => d.int(256)).join(',');
      return { cls: 'private key (decimal byte array)', value: v, context: `$ cat ~/.config/solana/id.json\n[${v}]` };
    },
  },
  {
    shape: 'Ethereum private key in hardhat config',
    make: (d) => {
      const v = `0x${str(d, HEX, 64)}`;
      return { cls: 'private key (hex 64)', value: v, context: `    sepolia: { url: "https://rpc.sepolia.org", accounts: ["${v}"] },` };
    },
  },
  {
    shape: 'GCP service-account private_key with \\n escapes',
    make: (d) => {
      const lines = Array.from({ length: 3 }, () => str(d, B64, 64));
      return {
        cls: 'private key (PKCS#8 body, escaped newlines)',
        value: lines.join('\n'),
        context: `  "private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQ\\n${lines.join('\\n')}\\n-----END PRIVATE KEY-----\\n",`,
      };
    },
  },
  {
    shape: 'PuTTY .ppk private lines',
    make: (d) => {
      const lines = [str(d, B64, 64), str(d, B64, 24)];
      return {
        cls: 'private key (PuTTY ppk)',
        value: lines.join('\n'),
        context: `PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: deploy@bastion\nPublic-Lines: 2\nAAAAC3NzaC1lZDI1NTE5AAAAI${str(d, B64, 43)}\nPrivate-Lines: 2\n${lines[0]}\n${lines[1]}\nPrivate-MAC: ${str(d, HEX, 64)}`,
      };
    },
  },
  {
    shape: 'PASETO v4.local session cookie',
    make: (d) => {
      const v = `v4.local.${str(d, B64URL, 140)}`;
      return { cls: 'JWT-like non-JWT token', value: v, context: `Cookie: paseto_session=${v}; Path=/; Secure` };
    },
  },

  // ---- cookies, session ids, signed URLs, webhooks, OTP --------------------------------
  {
    shape: 'GitLab session cookie in curl -b',
    make: (d) => {
      const v = str(d, HEX, 32);
      return { cls: 'session cookie (32 hex)', value: v, context: `curl -s -b "_gitlab_session=${v}" https://gitlab.corp.local/api/v4/projects/42/pipelines` };
    },
  },
  {
    shape: 'Express connect.sid Set-Cookie (curl -v output)',
    make: (d) => {
      const v = `s%3A${str(d, B64URL, 32)}.${str(d, ALNUM, 43)}`;
      return { cls: 'session cookie (percent-escaped)', value: v, context: `< HTTP/1.1 302 Found\n< set-cookie: connect.sid=${v}; Path=/; Expires=Tue, 01 Dec 2026 10:00:00 GMT; HttpOnly\n< location: /dashboard` };
    },
  },
  {
    shape: 'Azure SAS URL sig',
    make: (d) => {
      const v = encodeURIComponent(b64Bytes(d, 32));
      return { cls: 'signed URL signature (percent-encoded base64)', value: v, context: `azcopy copy ./dist "https://acmeprod.blob.core.windows.net/web?sv=2022-11-02&ss=b&srt=co&sp=rwdlac&se=2026-12-31T00:00:00Z&spr=https&sig=${v}" --recursive` };
    },
  },
  {
    shape: 'CloudFront signed URL Signature',
    make: (d) => {
      const v = str(d, `${ALNUM}~-`, 172);
      return { cls: 'signed URL signature', value: v, context: `https://d111111abcdef8.cloudfront.net/reports/q3.pdf?Expires=1796083200&Signature=${v}&Key-Pair-Id=K2JCJMDEHXQW5F` };
    },
  },
  {
    shape: 'Discord webhook URL',
    make: (d) => {
      const v = str(d, B64URL, 68);
      return { cls: 'webhook URL secret path', value: v, context: `curl -H "Content-Type: application/json" -d '{"content":"deploy done"}' https://discord.com/api/webhooks/${1000000000000000000 + d.int(1e9)}/${v}` };
    },
  },
  {
    shape: 'Microsoft Teams incoming webhook',
    make: (d) => {
      const v = `${str(d, HEX, 32)}/${uuid(d)}`;
      return { cls: 'webhook URL secret path', value: v, context: `TEAMS_WEBHOOK=https://acme.webhook.office.com/webhookb2/${uuid(d)}@${uuid(d)}/IncomingWebhook/${v}` };
    },
  },
  {
    shape: 'Telegram bot token in URL path',
    make: (d) => {
      const v = `${1000000000 + d.int(999999999)}:AA${str(d, B64URL, 33)}`;
      return { cls: 'bot token in URL path', value: v, context: `requests.post(f"https://api.telegram.org/bot${v}/sendMessage", json={"chat_id": chat, "text": msg})` };
    },
  },
  {
    shape: 'otpauth URI TOTP seed',
    make: (d) => {
      const v = str(d, BASE32, 32);
      return { cls: 'OTP seed (base32 32)', value: v, context: `otpauth://totp/Acme%20AWS:ops@acme.io?secret=${v}&issuer=Acme%20AWS&algorithm=SHA1&digits=6&period=30` };
    },
  },

  // ---- secrets in tool output ---------------------------------------------------------
  {
    shape: 'kubectl get secret -o yaml (base64 data)',
    make: (d) => {
      const v = base64(password(d, 18));
      return { cls: 'base64-encoded password', value: v, context: `apiVersion: v1\ndata:\n  username: YXBw\n  password: ${v}\nkind: Secret\nmetadata:\n  name: db-credentials\n  namespace: prod\ntype: Opaque` };
    },
  },
  {
    shape: 'docker inspect Env array',
    make: (d) => {
      const v = password(d, 20);
      return { cls: 'password (20) in JSON array', value: v, context: `            "Env": [\n                "DB_HOST=db",\n                "DB_PASSWORD=${v}",\n                "PATH=/usr/local/sbin:/usr/local/bin"\n            ],` };
    },
  },
  {
    shape: 'Hetzner token in env output',
    make: (d) => {
      const v = str(d, ALNUM, 64);
      return { cls: 'cloud token (64 alnum)', value: v, context: `$ env | grep -i cloud\nHCLOUD_CONTEXT=prod\nHCLOUD_TOKEN=${v}` };
    },
  },
  {
    shape: 'docker config.json auth (base64 user:pass)',
    make: (d) => {
      const v = base64(`deploy:${password(d, 16)}`);
      return { cls: 'base64-encoded user:password', value: v, context: `{\n  "auths": {\n    "registry.corp.local:5000": {\n      "auth": "${v}"\n    }\n  }\n}` };
    },
  },

  // ---- split, escaped, encoded ----------------------------------------------------------
  {
    shape: 'key split across a JS string concatenation',
    make: (d) => {
      const a = str(d, ALNUM, 14);
      const b = str(d, ALNUM, 14);
      return { cls: 'API key split in two pieces (14+14)', value: `${a}\n${b}`, context: `const MAPBOX_TOKEN = "sk.eyJ1Ijoi" + "${a}" + "${b}"; // split so the linter stops complaining` };
    },
  },
  {
    shape: 'base64 split by shell line continuation',
    make: (d) => {
      const a = str(d, B64, 60);
      const b = str(d, B64, 60);
      return { cls: 'credential blob split across lines', value: `${a}\n${b}`, context: `export GOOGLE_CREDENTIALS_B64="${a}\\\n${b}"` };
    },
  },
  {
    shape: 'unicode-escaped API key in JSON',
    make: (d) => {
      const v = [...str(d, ALNUM, 24)].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
      return { cls: 'unicode-escaped token', value: v, context: `{"service":"maps","apiKey":"${v}","region":"eu-west-1"}` };
    },
  },
  {
    shape: 'hex-encoded secret via xxd -r -p',
    make: (d) => {
      const v = Buffer.from(password(d, 24)).toString('hex');
      return { cls: 'hex-encoded password', value: v, context: `printf '%s' ${v} | xxd -r -p > ~/.config/acme/master.key` };
    },
  },
  {
    shape: 'Bitbucket app password in git remote URL',
    make: (d) => {
      const v = `ATBB${str(d, ALNUM, 32)}`;
      return { cls: 'VCS token in remote URL', value: v, context: `git remote set-url origin https://jdoe:${v}@bitbucket.org/acme/checkout-service.git` };
    },
  },
  {
    shape: 'API key in a Python traceback URL',
    make: (d) => {
      const v = str(d, ALNUM, 32);
      return { cls: 'API key (32) in stack trace', value: v, context: `Traceback (most recent call last):\n  File "sync.py", line 88, in <module>\n    r.raise_for_status()\nrequests.exceptions.HTTPError: 401 Client Error: Unauthorized for url: https://api.weatherstack.io/v1/current?access_key=${v}&query=Berlin` };
    },
  },
  {
    shape: 'Slack signing secret in a diff hunk',
    make: (d) => {
      const v = str(d, HEX, 32);
      return { cls: 'signing secret (32 hex) in diff', value: v, context: `@@ -12,7 +12,7 @@ module.exports = {\n   slack: {\n-    signingSecret: "${v}",\n+    signingSecret: process.env.SLACK_SIGNING_SECRET,\n   },` };
    },
  },
];

/** The shapes, with fresh values drawn from `seed`. */
export function redTeam4Shapes(seed: number): RedTeamShape[] {
  const d = dice(seed);
  return SPECS.map((spec) => {
    const made = spec.make(d);
    const pieces = made.value.split('\n');
    const shortest = Math.min(...pieces.map((p) => p.length));
    const wordMade = /^word /.test(made.cls);
    return { shape: spec.shape, cls: made.cls, value: made.value, context: made.context, minimal: Math.min(12, shortest), hard: shortest < 12 || wordMade };
  });
}
