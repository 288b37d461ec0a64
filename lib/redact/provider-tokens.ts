import type { SecretPattern } from './secret-patterns';

// Token formats of providers whose tokens carry a fixed prefix, learned from the providers'
// documentation and the public gitleaks rule set (formats only; the patterns are written here).
// Every pattern is the literal prefix followed by greedy runs of a character class with a lower
// bound only, each run ending at a character its class excludes: a failed attempt costs at most
// the bound, a successful one consumes the run, so scanning stays linear on any input (no upper
// bound that a longer token could overrun, no end guard to backtrack from). Lower bounds are
// looser than the real lengths on purpose: the memory branch is pushed, so a redacted look-alike
// costs less than a missed token.

/** One prefixed provider token: its kind, the prefix (also the gate), the body after it. */
function token(kind: string, prefix: string, body: string, flags = 'g', wordStart = true): SecretPattern {
  const literal = prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return { kind, gate: [prefix], pattern: new RegExp(`${literal}${body}`, flags), wordStart };
}

const B62 = '[A-Za-z0-9]';
const URL64 = '[A-Za-z0-9_-]';
const HEX = '[a-fA-F0-9]';

/** Prefixed provider tokens, run after the structural detectors (lib/redact/secret-patterns.ts). */
export const PROVIDER_TOKENS: readonly SecretPattern[] = [
  token('vault-token', 'hvs.', `${URL64}{24,}`),
  token('vault-token', 'hvb.', `${URL64}{24,}`),
  token('vault-token', 'hvr.', `${URL64}{24,}`),
  token('huggingface-token', 'hf_', `[A-Za-z]{30,}`),
  token('huggingface-token', 'api_org_', `[A-Za-z]{30,}`),
  token('sendgrid-key', 'SG.', `${URL64}{16,}\\.${URL64}{16,}`),
  token('digitalocean-token', 'dop_v1_', `${B62}{32,}`),
  token('digitalocean-token', 'doo_v1_', `${B62}{32,}`),
  token('digitalocean-token', 'dor_v1_', `${B62}{32,}`),
  token('grafana-token', 'glsa_', `[A-Za-z0-9_]{32,}`),
  token('grafana-token', 'glc_', `[A-Za-z0-9+/]{32,}={0,3}`),
  token('grafana-token', 'eyJrIjoi', `[A-Za-z0-9+/]{40,}={0,3}`),
  token('docker-token', 'dckr_pat_', `${URL64}{20,}`),
  token('docker-token', 'dckr_oat_', `${URL64}{20,}`),
  token('pypi-token', 'pypi-', `${URL64}{50,}`),
  token('shopify-token', 'shpat_', `${HEX}{32,}`),
  token('shopify-token', 'shpca_', `${HEX}{32,}`),
  token('shopify-token', 'shppa_', `${HEX}{32,}`),
  token('shopify-token', 'shpss_', `${HEX}{32,}`),
  token('atlassian-token', 'ATATT3', `[A-Za-z0-9_=-]{100,}`),
  token('databricks-token', 'dapi', `${HEX}{32,}(?:-\\d)?`),
  token('linear-key', 'lin_api_', `${B62}{32,}`),
  token('postman-key', 'PMAK-', `${HEX}{20,}-${HEX}{30,}`),
  token('pulumi-token', 'pul-', `${HEX}{40,}`),
  token('doppler-token', 'dp.', `(?:pt|st|sa|ct|scim|audit)\\.${B62}{40,}`),
  token('heroku-key', 'HRKU-', `${URL64}{50,}`),
  token('age-secret-key', 'AGE-SECRET-KEY-1', `[0-9A-Z]{50,}`),
  token('1password-token', 'ops_eyJ', `[A-Za-z0-9+/]{100,}={0,3}`),
  token('1password-secret-key', 'A3-', `[A-Z0-9]{6}-[A-Z0-9-]{20,}`),
  token('notion-token', 'ntn_', `${B62}{40,}`),
  token('perplexity-key', 'pplx-', `${B62}{40,}`),
  token('groq-key', 'gsk_', `${B62}{40,}`),
  token('xai-key', 'xai-', `${B62}{60,}`),
  token('replicate-token', 'r8_', `${B62}{30,}`),
  token('sentry-token', 'sntryu_', `${HEX}{64,}`),
  token('sentry-token', 'sntrys_', `[A-Za-z0-9+/=_]{60,}`),
  token('twilio-key', 'SK', `${HEX}{32}(?![A-Za-z0-9])`),
  token('mailgun-key', 'key-', `${HEX}{32,}`),
  token('square-token', 'sq0atp-', `${URL64}{22,}`),
  token('square-token', 'sq0csp-', `${URL64}{40,}`),
  token('square-token', 'EAAA', `${URL64}{60,}`),
  token('facebook-token', 'EAAC', `${B62}{100,}`),
  token('facebook-token', 'EAAM', `${B62}{100,}`),
  token('rubygems-key', 'rubygems_', `${HEX}{48,}`),
  token('planetscale-token', 'pscale_', `(?:tkn|oauth|pw)_[A-Za-z0-9_=.-]{32,}`),
  token('dynatrace-token', 'dt0c01.', `${B62}{24}\\.${B62}{64,}`),
  token('alibaba-key', 'LTAI', `${B62}{20,}`),
  token('openshift-token', 'sha256~', `${URL64}{43,}`),
  token('gitlab-token', 'GR1348941', `${URL64}{20,}`),
  token('gitlab-token', 'glimt-', `${URL64}{25,}`),
  token('gitlab-token', 'glagent-', `${URL64}{50,}`),
  token('gitlab-token', 'gloas-', `${URL64}{64,}`),
  token('gitlab-token', 'glffct-', `${URL64}{20,}`),
  token('gitlab-token', 'glcbt-', `${B62}{1,5}_${URL64}{20,}`),
  token('artifactory-token', 'AKCp', `${B62}{60,}`),
  token('google-refresh-token', '1//0', `${URL64}{40,}`),
  token('mapbox-secret-token', 'sk.eyJ', `${URL64}{40,}\\.${URL64}{20,}`),
  token('sendinblue-key', 'xkeysib-', `${HEX}{64}-${B62}{16,}`),
  token('clojars-token', 'CLOJARS_', `[a-z0-9]{60,}`, 'gi'),
  token('flyio-token', 'fo1_', `${URL64}{40,}`),
  token('flyio-token', 'fm2_', `[A-Za-z0-9+/]{100,}={0,3}`),
  token('cloudflare-origin-key', 'v1.0-', `${HEX}{24}-${HEX}{140,}`),
  token('easypost-key', 'EZAK', `${B62}{54,}`),
  // `<14 characters>.atlasv1.<60+>`: matched from the literal, so the scan can skip ahead; the 14 characters before it stay.
  token('terraform-token', '.atlasv1.', `[A-Za-z0-9_=-]{60,}`, 'g', false),
  token('stripe-key', 'sk_prod_', `${B62}{16,}`),
  token('stripe-key', 'rk_prod_', `${B62}{16,}`),
  token('telegram-bot-token', 'bot', `\\d{5,16}:[A-Za-z0-9_-]{30,}`),
  token('supabase-token', 'sbp_', `${B62}{40,}`),
  // Mailchimp: 32 hex and the data centre (`…-us21`), matched from the literal like terraform's.
  { kind: 'mailchimp-key', gate: ['-us'], pattern: /[0-9a-f]{32}-us\d{1,2}(?![A-Za-z0-9])/g },
];
