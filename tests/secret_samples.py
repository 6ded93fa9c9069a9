"""Names the redaction rule takes as a secret's, in every case and separator style, and names
it must leave alone: what the property tests and fuzzers draw from."""

from __future__ import annotations

SECRET_FIELD_NAMES = (
    "api_key",
    "apiKey",
    "APIKey",
    "apikey",
    "access_token",
    "accessToken",
    "refresh_token",
    "RefreshToken",
    "id_token",
    "auth_token",
    "authorization",
    "authorization_token",
    "session_token",
    "sessionToken",
    "SessionToken",
    "secret_key",
    "SecretKey",
    "secret_access_key",
    "secret-access-key",
    "SecretAccessKey",
    "secretAccessKey",
    "SECRET_ACCESS_KEY",
    "private_key",
    "privateKey",
    "client_secret",
    "clientSecret",
    "password",
    "passwd",
    "DatabasePassword",
    "credential",
    "x-amz-security-token",
    "X-Amz-Signature",
    "sig",
)
"""Named like secrets: their values are redacted whatever they look like."""
GENERIC_FIELD_NAMES = ("token", "secret", "key", "Token")
"""Redacted only where the value looks like a secret."""
PLAIN_FIELD_NAMES = (
    "max_tokens",
    "total_tokens",
    "prompt_tokens",
    "completion_tokens_details",
    "token_count",
    "promptTokenCount",
    "token_type",
    "tokenizer",
    "signature",
    "AccessKeyId",
    "client_secret_expires_at",
    "model",
    "content",
)
"""Named like no secret's (or only describing one): never redacted for their names."""
SECRET_HEADER_NAMES = (
    "authorization",
    "proxy-authorization",
    "x-api-key",
    "api-key",
    "x-goog-api-key",
    "ocp-apim-subscription-key",
    "x-amz-security-token",
    "x-amz-sso_bearer_token",
    "x-amz-server-side-encryption-customer-key",
    "xi-api-key",
    "x-portkey-api-key",
    "x-subscription-token",
    "x-client-secret",
    "x-session-token",
)
"""Headers named like secrets (lowered, as headers are kept): values always redacted."""
SECRET_PARAM_NAMES = (
    "key",
    "api_key",
    "apikey",
    "api-key",
    "apiKey",
    "access_token",
    "accessToken",
    "token",
    "sig",
    "signature",
    "Signature",
    "client_secret",
    "password",
    "refresh_token",
    "id_token",
    "X-Amz-Signature",
    "X-Amz-Credential",
    "X-Amz-Security-Token",
    "x-goog-signature",
    "SessionToken",
)
"""Query, form and fragment parameters named like secrets."""
