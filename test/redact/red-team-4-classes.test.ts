import { redactKeptText, redactSecrets } from '../../lib/redact/redact-secrets';

// The classes red team 4 got through (test/hardening/red-team-4-shapes.ts, written blind), each
// in values and sentences of our own: the red team's shapes stay its measure, these are what the
// fixes were written against. Each row goes red when its rule alone is removed.

const kept = (text: string) => redactKeptText(text).text;

describe('a password written in a sentence of another language', () => {
  it.each([
    ['German, after a qualifier and "lautet"', 'Das Kennwort für die Staging-DB lautet Wq8#zPl2, bitte nicht teilen.', 'Wq8#zPl2'],
    ['French, in guillemets and made of words', 'Le mot de passe du NAS est « ciel-orange-tapir-42 », garde-le.', 'ciel-orange-tapir-42'],
    ['Spanish "contraseña"', 'la contraseña del servidor es Gato#Luna77, no la compartas', 'Gato#Luna77'],
    ['Spanish "clave"', 'Mi clave de acceso es Pz9!kLw2 y caduca mañana', 'Pz9!kLw2'],
    ['Portuguese', 'A senha do admin é Qw8$zLp3, troque depois.', 'Qw8$zLp3'],
    ['Russian, after a colon', 'пароль для базы: Tk82mZq9x, логин root', 'Tk82mZq9x'],
    ['Chinese, against the connector', '数据库的密码是Zx8#k2Lm，记得改', 'Zx8#k2Lm'],
    ['Japanese', 'ステージングのパスワードは Hn7q!2Kz です。', 'Hn7q!2Kz'],
    ['Korean', '관리자 비밀번호는 Rt5#wq9Z 입니다', 'Rt5#wq9Z'],
  ])('%s', (_lang, text, secret) => {
    const out = kept(text);
    expect(out).not.toContain(secret);
    expect(out).toContain('[REDACTED:prose-secret]');
  });

  it('keeps the words of the sentence, and a sentence about passwords that holds none', () => {
    expect(kept('Das Kennwort für die Staging-DB lautet Wq8#zPl2, bitte nicht teilen.')).toBe('Das Kennwort für die Staging-DB lautet [REDACTED:prose-secret], bitte nicht teilen.');
    expect(kept('Das Passwort ist zu kurz, bitte ein längeres wählen.')).toBe('Das Passwort ist zu kurz, bitte ein längeres wählen.');
    expect(kept("le mot de passe est expiré, tu peux l'utiliser demain")).toBe("le mot de passe est expiré, tu peux l'utiliser demain");
  });
});

describe('a passphrase of several words in quotes', () => {
  it('goes to its closing quote', () => {
    expect(kept('The passphrase is "purple monkey dishwasher lamp" for the test key')).toBe('The passphrase is "[REDACTED:prose-secret]" for the test key');
  });
});

describe('a seed phrase', () => {
  const phrase = 'orbit salmon tiger candle wheat ivory polar mango eleven ribbon spice galaxy';
  it.each([
    ['a config key', `networks: { sepolia: { accounts: { mnemonic: "${phrase}" } } }`],
    ['an environment variable', `HD_WALLET_MNEMONIC="${phrase}"`],
    ['prose', `my seed phrase is: ${phrase}`],
    ['a word longer than BIP39 has', `recovery phrase: ${phrase.replace('galaxy', 'tangerines')}`],
  ])('is redacted whole in %s', (_where, text) => {
    expect(kept(text)).not.toMatch(/orbit|salmon|galaxy|tangerines/);
  });

  it('is not a sentence about mnemonics', () => {
    const sentence = 'mnemonic handling: derive keys from the seed then store them inside the vault with care always';
    expect(kept(sentence)).toBe(sentence);
  });
});

describe('recovery codes listed after their name', () => {
  it('redacts every code of the list, with or without a digit, and keeps the words', () => {
    const out = kept('Your backup codes:\n  k3j9d-x8m2q\n  pqnrw-wtzhc\n  83920471\nEach code works once.\n\nNext: enable 2FA.');
    expect(out).toBe('Your backup codes:\n  [REDACTED:prose-secret]\n  [REDACTED:prose-secret]\n  [REDACTED:prose-secret]\nEach code works once.\n\nNext: enable 2FA.');
  });
});

describe('a credential given to a command no earlier rule knew', () => {
  it.each([
    ['ldapwhoami -x -D cn=svc,dc=ex,dc=org -w Qz7!mK2p', 'Qz7!mK2p'],
    ['snmpget -v2c -c Mk83jqZ1 192.168.1.1 sysName.0', 'Mk83jqZ1'],
    ['snmpwalk -v3 -l authPriv -u ops -a SHA -A Kp29!zqLm -x AES -X Vn3#pw8Qk host', 'Kp29!zqLm'],
    ['mosquitto_sub -h broker -u dev -P Lp0!zQ7w -t "#"', 'Lp0!zQ7w'],
    ['ipmitool -I lanplus -H bmc01 -U root -P Zq8kL2mp sdr', 'Zq8kL2mp'],
  ])('%s', (text, secret) => {
    expect(redactSecrets(`the output of: ${text}`).text).not.toContain(secret);
  });

  it('keeps the flag that is a port or a topic', () => {
    expect(redactSecrets('mosquitto_sub -h broker -p 8883 -t sensors/#').text).toBe('mosquitto_sub -h broker -p 8883 -t sensors/#');
  });
});

describe('a secret-named setting followed by a quoted value without = or :', () => {
  it.each([
    ["    keyPassword 'Vb7#kq2L'", "    keyPassword '[REDACTED:secret-assignment]'"],
    ["ALTER USER app_rw WITH PASSWORD 'Xm4!pz8Q';", "ALTER USER app_rw WITH PASSWORD '[REDACTED:secret-assignment]';"],
  ])('%s', (text, out) => {
    expect(redactSecrets(text).text).toBe(out);
  });

  it('takes no bare word after the spaces, nor a quote that never closes', () => {
    expect(redactSecrets('the password field stays empty').text).toBe('the password field stays empty');
    expect(redactSecrets('the password "field stays empty').text).toBe('the password "field stays empty');
  });
});

describe('a password passed to a call as its second string', () => {
  it.each([
    ['ftp.login("deploy", "Jq7#mZ2p")', 'ftp.login("deploy", "[REDACTED:call-credential]")'],
    ["requests.get(url, auth=('svc', 'Kz9!wq3M'))", "requests.get(url, auth=('svc', '[REDACTED:call-credential]'))"],
    ["session.auth = HTTPBasicAuth('svc', 'Mn4#qz8P')", "session.auth = HTTPBasicAuth('svc', '[REDACTED:call-credential]')"],
  ])('%s', (text, out) => {
    expect(redactSecrets(text).text).toBe(out);
  });

  it('keeps a call whose second argument is a variable', () => {
    expect(redactSecrets('server.login(user, password)').text).toBe('server.login(user, password)');
  });
});

describe('hex long enough to be a key', () => {
  it('is masked unless a digest word names it, and a commit id stays', () => {
    expect(kept('accounts: ["0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"]')).toBe('accounts: ["[REDACTED:opaque-token]"]');
    expect(kept('printf %s 7648527379784b566d7249455 | xxd -r -p')).toContain('7648527379784b566d7249455');
    expect(kept('printf %s 7648527379784b566d72494553a9e0c1 | xxd -r -p')).toBe('printf %s [REDACTED:opaque-token] | xxd -r -p');
    expect(kept('image sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 pulled')).toContain('9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08');
    expect(kept('commit 6e1d88dc9e340e73feff6f308d433ab3f01043ff fixed it')).toBe('commit 6e1d88dc9e340e73feff6f308d433ab3f01043ff fixed it');
  });

  it('is masked inside a file name too', () => {
    expect(kept('read config/0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318.json')).toBe('read config/[REDACTED:opaque-token]');
  });
});

describe('the line a secret-named file prints', () => {
  it.each([
    ['$ cat ~/.ansible/vault_pass.txt\nmaple-hornet-quartz-4\n$ ansible-vault view x.yml', '$ cat ~/.ansible/vault_pass.txt\n[REDACTED:secret-file-output]\n$ ansible-vault view x.yml'],
    ['cat ~/.config/solana/id.json\n[207,224,108,96,65,73,137,133]', 'cat ~/.config/solana/id.json\n[REDACTED:secret-file-output]'],
    ['cat ~/.ansible/vault_pass.txt fennel-otter-cobalt-6 $ ansible-vault view', 'cat ~/.ansible/vault_pass.txt [REDACTED:secret-file-output] $ ansible-vault view'],
  ])('%s', (text, out) => {
    expect(redactSecrets(text).text).toBe(out);
  });

  it.each(['cat README.md\nhello world', 'cat secrets.yaml\ncat: secrets.yaml: No such file or directory', 'cat token.txt notes.txt'])('leaves %s', (text) => {
    expect(redactSecrets(text).text).toBe(text);
  });
});

describe('a Microsoft Teams incoming webhook', () => {
  it('keeps the host and redacts the whole path', () => {
    const url = 'https://contoso.webhook.office.com/webhookb2/1f7a012c-2368-4bcd-9d47-4a1b2c3d4e5f@2f7a012c-2368-4bcd-9d47-4a1b2c3d4e5f/IncomingWebhook/b1e3fecefe445fc69ffbca0279b29f41/fff8d673-154e-4f4c-b6ad-6cb2e02cc6f7';
    expect(redactSecrets(`TEAMS_URL=${url}`).text).not.toContain('b1e3fecefe');
    expect(redactSecrets(`post to ${url} now`).text).toBe('post to https://contoso.webhook.office.com/webhookb2/[REDACTED:teams-webhook] now');
  });
});
