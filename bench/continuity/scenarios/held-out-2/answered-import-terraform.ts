import type { Scenario } from '../../scenario-types';

const MAIN_TF = `terraform {
  required_version = ">= 1.6"
  backend "s3" {
    bucket = "acme-tfstate"
    key    = "web/prod.tfstate"
    region = "eu-west-1"
  }
  required_providers {
    aws = { source = "hashicorp/aws", version = "~> 5.40" }
  }
}

provider "aws" {
  region = "eu-west-1"
}
`;

const CDN_TF = `resource "aws_cloudfront_distribution" "web" {
  enabled = true
  aliases = ["static.acme.example"]

  origin {
    # The assets bucket was made by hand in the console; its name is hard-coded here and in the app.
    domain_name = "acme-web-assets.s3.eu-west-1.amazonaws.com"
    origin_id   = "assets"
  }

  default_cache_behavior {
    target_origin_id       = "assets"
    viewer_protocol_policy = "redirect-to-https"
    allowed_methods        = ["GET", "HEAD"]
    cached_methods         = ["GET", "HEAD"]
    cache_policy_id        = "658327ea-f89d-4fab-a63d-7e88639e58f6"
  }

  restrictions {
    geo_restriction { restriction_type = "none" }
  }

  viewer_certificate {
    acm_certificate_arn = "arn:aws:acm:us-east-1:310987654321:certificate/4f1c2a9e-77d0-4b8e-9a51-0c3e6f1d2b7a"
    ssl_support_method  = "sni-only"
  }
}
`;

// The team's wrapper around terraform (it runs in the pinned toolchain container with the prod role); it prints terraform's output.
const TF_SH = `#!/bin/sh
cd infra || exit 1
echo 'aws_cloudfront_distribution.web: Refreshing state... [id=E2QWRUHAPOMQZL]'
if grep -q 'aws_s3_bucket\\.asset\\.id' assets.tf 2>/dev/null; then
  cat <<'OUT'
╷
│ Error: Reference to undeclared resource
│
│   on assets.tf line 10, in resource "aws_s3_bucket_versioning" "assets":
│   10:   bucket = aws_s3_bucket.asset.id
│
│ A managed resource "aws_s3_bucket" "asset" has not been declared in the root module.
╵
OUT
  exit 1
fi
if [ -f imports.tf ]; then
  cat <<'OUT'
aws_s3_bucket.assets: Preparing import... [id=acme-web-assets]
aws_s3_bucket_versioning.assets: Preparing import... [id=acme-web-assets]
aws_s3_bucket.assets: Refreshing state... [id=acme-web-assets]
aws_s3_bucket_versioning.assets: Refreshing state... [id=acme-web-assets]

Terraform will perform the following actions:

  # aws_s3_bucket.assets will be imported
    resource "aws_s3_bucket" "assets" {
        arn                         = "arn:aws:s3:::acme-web-assets"
        bucket                      = "acme-web-assets"
        bucket_domain_name          = "acme-web-assets.s3.amazonaws.com"
        bucket_regional_domain_name = "acme-web-assets.s3.eu-west-1.amazonaws.com"
        force_destroy               = false
        hosted_zone_id              = "Z1BKCTXD74EZPE"
        id                          = "acme-web-assets"
        object_lock_enabled         = false
        region                      = "eu-west-1"
        tags                        = {
            "team" = "web"
        }
    }

  # aws_s3_bucket_versioning.assets will be imported
    resource "aws_s3_bucket_versioning" "assets" {
        bucket = "acme-web-assets"
        id     = "acme-web-assets"

        versioning_configuration {
            status = "Suspended"
        }
    }

Plan: 2 to import, 0 to add, 0 to change, 0 to destroy.
OUT
  exit 0
fi
cat <<'OUT'

Terraform used the selected providers to generate the following execution plan. Resource actions are
indicated with the following symbols:
  + create

Terraform will perform the following actions:

  # aws_s3_bucket.assets will be created
  + resource "aws_s3_bucket" "assets" {
      + acceleration_status         = (known after apply)
      + arn                         = (known after apply)
      + bucket                      = "acme-web-assets"
      + bucket_domain_name          = (known after apply)
      + force_destroy               = false
      + hosted_zone_id              = (known after apply)
      + id                          = (known after apply)
      + object_lock_enabled         = (known after apply)
      + region                      = (known after apply)
      + tags                        = {
          + "team" = "web"
        }
    }

  # aws_s3_bucket_versioning.assets will be created
  + resource "aws_s3_bucket_versioning" "assets" {
      + bucket = (known after apply)
      + id     = (known after apply)

      + versioning_configuration {
          + mfa_delete = (known after apply)
          + status     = "Suspended"
        }
    }

Plan: 2 to add, 0 to change, 0 to destroy.
OUT
`;

const ASSETS_TF = `resource "aws_s3_bucket" "assets" {
  bucket = "acme-web-assets"
  tags = {
    team = "web"
  }
}

# Versioning was never turned on in the console; keep it suspended.
resource "aws_s3_bucket_versioning" "assets" {
  bucket = aws_s3_bucket.asset.id
  versioning_configuration {
    status = "Suspended"
  }
}
`;

const IMPORTS_TF = `# Adopt the bucket that was created by hand (2022) instead of creating a new one.
import {
  to = aws_s3_bucket.assets
  id = "acme-web-assets"
}

import {
  to = aws_s3_bucket_versioning.assets
  id = "acme-web-assets"
}
`;

/** The model asks a question; the user's answer (import, not a new bucket) is the decision the rest hangs on. */
export const answeredImportTerraform: Scenario = {
  name: 'answered-import-terraform',
  covers: 'Terraform: the model asks "import or a new bucket?", the user answers import (the decision), then the plan waits for the go-ahead to apply',
  repo: {
    'infra/main.tf': MAIN_TF,
    'infra/cdn.tf': CDN_TF,
    'Makefile': '.PHONY: plan apply\nplan:\n\t@sh scripts/tf.sh plan\napply:\n\t@sh scripts/tf.sh apply\n',
    'scripts/tf.sh': TF_SH,
  },
  sessions: [
    {
      name: 'main',
      steps: [
        {
          prompt: 'The static assets bucket acme-web-assets was clicked together in the console two years ago. Bring it under Terraform in infra/, next to the CloudFront distribution.',
          actions: [
            { tool: 'Read', path: 'infra/main.tf' },
            { tool: 'Read', path: 'infra/cdn.tf' },
            { tool: 'Write', path: 'infra/assets.tf', content: ASSETS_TF },
            { tool: 'Bash', command: 'make plan', description: 'terraform plan for infra/' },
            { tool: 'Edit', path: 'infra/assets.tf', old: 'bucket = aws_s3_bucket.asset.id', new: 'bucket = aws_s3_bucket.assets.id' },
            { tool: 'Bash', command: 'make plan', description: 'terraform plan again' },
            {
              text: "I described the bucket in infra/assets.tf (the first plan failed on a typo, aws_s3_bucket.asset, now fixed). The plan now wants to CREATE acme-web-assets, which would fail with BucketAlreadyOwnedByYou since the bucket exists with its objects.\n\nTwo ways forward:\n(a) import the existing bucket into state with `import` blocks: nothing is created, the name stays;\n(b) create a new bucket acme-web-assets-v2 under Terraform, sync the objects over with `aws s3 sync`, then repoint CloudFront.\n\nWhich do you want?",
            },
          ],
        },
        {
          prompt: "Import it. The name can't change: the iOS and Android apps have acme-web-assets hard-coded in shipped builds.",
          actions: [
            { tool: 'Write', path: 'infra/imports.tf', content: IMPORTS_TF },
            { tool: 'Bash', command: 'make plan', description: 'terraform plan with the import blocks' },
            {
              text: 'infra/imports.tf adopts the existing bucket and its versioning config. The plan is clean: "Plan: 2 to import, 0 to add, 0 to change, 0 to destroy" — nothing is created or modified, the name stays acme-web-assets.\n\nNext is `make apply`, which writes the import into the prod state (s3://acme-tfstate/web/prod.tfstate). I will not run it without your go-ahead: shall I apply?',
            },
          ],
        },
      ],
    },
  ],
  probe: { resets: ['clear'], prompt: 'ok, where are we with the bucket?' },
  facts: [
    { id: 'objective: the assets bucket under Terraform', in: ['objective'], pattern: 'acme-web-assets|assets bucket|bucket' },
    { id: "the user's answer kept: import the existing bucket", in: ['facts', 'done', 'objective', 'next_valid_action', 'waiting_on'], pattern: 'import' },
    { id: 'the new-bucket option turned down (the name is hard-coded in the apps)', in: ['rejected', 'facts'], pattern: '-v2|new bucket|hard-?coded|name (can.?t|cannot) change' },
    { id: 'waiting on the go-ahead to apply', in: ['waiting_on'], pattern: 'apply|go-ahead|approv|confirm|permission' },
    { id: 'imports.tf in the files', in: ['files'], pattern: 'infra/imports\\.tf' },
  ],
  antiFacts: [
    { id: 'the turned-down v2 bucket as the plan', in: ['objective', 'next_valid_action', 'waiting_on'], pattern: '-v2|aws s3 sync|new bucket' },
    { id: 'still waiting on the answered question', in: ['waiting_on'], pattern: 'which (do you|one|option)|\\(a\\)|\\(b\\)|import or|or (create|a new)' },
    { id: 'the fixed typo shown as an open error', in: ['errors'], pattern: '^(?!.*(resolved|fixed|→)).*(undeclared resource|aws_s3_bucket\\.asset\\b)' },
  ],
};
