import { allowListArgv, allowListCommand } from '../../lib/redact/command-allow-list';
import { allowListShapes, twelveRuns } from './allow-list-shapes';

describe('allowListCommand', () => {
  it.each([
    ['cd api && npm test -- auth 2>&1 | tail -20', 'cd api && npm test -- auth 2>&1 | tail -20'],
    ['npx jest test/redact/redact-secrets.test.ts', 'npx jest test/redact/redact-secrets.test.ts'],
    ['git push origin feature/auth-2fa', 'git push origin feature/auth-2fa'],
    ['go test ./... -run TestLogin -count=1', 'go test ./... -run TestLogin -count=1'],
    ['docker run -p 8080:80 -e NODE_ENV=production nginx:1.25', 'docker run -p 8080:80 -e NODE_ENV=production nginx:1.25'],
    ['echo $HOME > /tmp/out.log', 'echo $HOME > /tmp/out.log'],
    ['rm -rf dist node_modules/.cache', 'rm -rf dist node_modules/.cache'],
    ['git capsule write - < notes.md', 'git capsule write - < notes.md'],
  ])('keeps what %s runs', (command, kept) => {
    expect(allowListCommand(command)).toBe(kept);
  });

  it.each([
    ['echo Yyge88%7vMgWF6 | sudo -S systemctl restart nginx', 'echo [ARG] | sudo -S systemctl restart nginx'],
    ['rabbitmqctl add_user deployer Uxij84*JgB1quv', 'rabbitmqctl add_user deployer [ARG]'],
    ['ldapsearch -x -w Uvpt35#9RwxQ2w -b dc=corp', 'ldapsearch -x -w [ARG] -b dc=corp'],
    ['mysql -uroot -pS3cr3tPassw0rd db', 'mysql -u[ARG] -p[ARG] db'],
    ['sqlplus scott/Aqqs64%aFwy2In@//db:1521/ORCL', 'sqlplus [ARG]'],
    ['lftp -u backup,Vlqb40%iQAft9k sftp://files.example.com', 'lftp -u [ARG] sftp://files.example.com'],
    ['git commit -m "fix the login bug"', 'git commit -m [ARG]'],
    ['acmectl login correcthorsebatterystaplexyz', 'acmectl login [ARG]'],
    ['git clone https://builder:pw123456789@git.corp/app.git', 'git clone https://[ARG]@git.corp/app.git'],
    ['curl "https://api.example.com/v1?token=abcdef123456"', 'curl https://api.example.com/v1?[ARG]'],
    ['gh secret set DEPLOY_KEY --body=toNGIxYbgo3RcrNKcDiQU8wQ', 'gh secret set DEPLOY_KEY --body=[ARG]'],
    ["cat > .env <<'EOF'\nTOKEN=abc\nEOF\nnpm start", 'cat > .env <<EOF\n[ARG]\nEOF\nnpm start'],
    ['export SERVICE_KEY="5TkqjTsC0zz16gZ\\\npT7FkuN4z"', 'export SERVICE_KEY=[ARG]'],
  ])('replaces the values of %s by [ARG]', (command, kept) => {
    expect(allowListCommand(command)).toBe(kept);
  });

  it('leaves no twelve-character run of any secret of the third corpus in a command', () => {
    const left = allowListShapes(36).filter((s) => twelveRuns(s.value).some((r) => allowListCommand(s.context).includes(r)));
    expect(left.map((s) => s.shape)).toEqual([]);
  });

  it('is idempotent', () => {
    for (const s of allowListShapes(36)) expect(allowListCommand(allowListCommand(s.context))).toBe(allowListCommand(s.context));
  });
});

describe('allowListArgv', () => {
  it("keeps a shell's -lc script through the allow-list and judges every other word", () => {
    expect(allowListArgv(['/bin/bash', '-lc', 'mysql -pS3cr3tPassw0rd! db'])).toEqual(['/bin/bash', '-lc', 'mysql -p[ARG] db']);
    expect(allowListArgv(['rabbitmqctl', 'add_user', 'ops', 'Uxij84*JgB1quv'])).toEqual(['rabbitmqctl', 'add_user', 'ops', '[ARG]']);
  });
});
