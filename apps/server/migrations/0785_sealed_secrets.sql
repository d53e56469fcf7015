-- Stored credentials are sealed at rest (core/secrets, docs/architecture.md "Secrets at rest"):
-- `v2:<key id>:<wrapped data key>:<iv>:<tag>:<ciphertext>`, each value under its own data key wrapped by a
-- key of SECRETS_KEYS and bound to its company, column and row. The keys live in the environment, not
-- here, so this migration cannot seal what older versions stored in plaintext: the server does it at
-- start-up (resealStoredSecrets, idempotent, in batches), and re-seals the older `v1:` values too.
COMMENT ON COLUMN businesses.access_token IS 'sealed (core/secrets)';
COMMENT ON COLUMN businesses.app_secret IS 'sealed (core/secrets)';
COMMENT ON COLUMN businesses.verify_token IS 'sealed (core/secrets)';
COMMENT ON COLUMN prompts.api_key IS 'sealed (core/secrets)';
COMMENT ON COLUMN prompts.voice_key IS 'sealed (core/secrets)';
COMMENT ON COLUMN queue_integrations.json_content_sealed IS 'sealed (core/secrets)';
COMMENT ON COLUMN pix_webhook_secret.secret IS 'sealed (core/secrets)';
COMMENT ON COLUMN baileys_auth.value IS 'sealed (core/secrets)';
